#!/bin/sh
# starter_compact.sh ARENA COMMAND... - a starter kit (COMMAND runs it) asks
# for compact requests (protocol/PROTOCOL.md 4.2) and plays exactly as it does
# with ordinary ones. A tournament of the kit "c" against itself "o", which
# sets SKIPBO_COMPACT=0, is played with --log-io; then again with both
# ordinary. The transcripts must show "c" every request compact and "o" none,
# and both tournaments the same moves, line for line.
set -eu
arena=$1
shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
command=$(printf '"%s",' "$@")
command="[${command%,}]"

# tourney NAME ENV_OF_C: the tournament's output in $dir/NAME
tourney() {
	cat >"$dir/$1.json" <<JSON
{"name":"$1","bots":[{"name":"c","command":$command$2},
 {"name":"o","command":$command,"env":{"SKIPBO_COMPACT":"0"}}],
 "players":2,"deals":2,"rules":{"stock_size":8},"limits":{"memory_mb":0},
 "time":{"move_ms":30000,"game_ms":1800000,"startup_ms":60000},"seed":42,"output":"$dir/$1"}
JSON
	"$arena" run -j 1 --quiet --log-io "$dir/$1.json"
}
tourney mixed ''
tourney plain ',"env":{"SKIPBO_COMPACT":"0"}'

# count DIR SEAT_NAME: requests to that bot, and how many were compact
count() {
	all=$(cat "$dir/$1"/io/* | grep -c " $2 <- {\"type\":\"request\"" || true)
	compact=$(cat "$dir/$1"/io/* | grep " $2 <- {\"type\":\"request\"" | grep -c '"discard_any":' || true)
	echo "$all $compact"
}
fail() { echo "FAIL: $*" >&2; exit 1; }
set -- $(count mixed c)
[ "$1" -gt 50 ] && [ "$2" -eq "$1" ] || fail "c got $2 compact requests of $1"
set -- $(count mixed o)
[ "$1" -gt 50 ] && [ "$2" -eq 0 ] || fail "o, which asked for none, got $2 compact requests of $1"
set -- $(count plain c)
[ "$2" -eq 0 ] || fail "with SKIPBO_COMPACT=0, c got $2 compact requests"
grep -q '"features":\["compact_legal"\]' "$dir"/mixed/io/* || fail "c's hello does not ask for compact_legal"
moves() { cat "$dir/$1"/io/* | sed -n 's/^[0-9.]* \([co] -> {"type":"move".*\)/\1/p'; }
moves mixed >"$dir/mixed.moves"
moves plain >"$dir/plain.moves"
[ -s "$dir/mixed.moves" ] || fail "no moves in the transcripts"
cmp -s "$dir/mixed.moves" "$dir/plain.moves" || {
	diff "$dir/mixed.moves" "$dir/plain.moves" | head -5 >&2
	fail "the kit plays other moves with compact requests"
}
echo "ok: $(wc -l <"$dir/mixed.moves") moves the same with and without compact requests"
