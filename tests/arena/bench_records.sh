#!/bin/sh
# bench_records.sh ARENA [ARENA_BEFORE] - records read per CPU-second by
# `report` and `merge` over 1,000,000 records, 2 and 4 players (a program for
# the figures in README.md, not a test).
#
# The records are a real run's: a small tournament of `badbot good` (3 bots of
# 2 players, 4 bots of 4 players, duplicate deals) whose first deal is copied
# with new deal numbers and ids until there are 1,000,000, tournament.json
# saying as many deals, so that `merge` finds each in the schedule, and the
# replay packs beside them (a copy names its original's pack and frame). Each command runs under /usr/bin/time: user + system CPU seconds
# and peak RSS, and the RSS of `report` over 100,000 records beside it shows
# whether memory stays flat. With ARENA_BEFORE, the same runs of that build
# follow each of ARENA's, side by side.
#   tests/arena/bench_records.sh build/arena/skipbo-arena /tmp/main/build/arena/skipbo-arena
set -eu
arena=$1
before=${2:-}
badbot=$(dirname "$arena")/../tests/badbots/badbot
work=$(mktemp -d /tmp/bench-records.XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"

# copies COUNT: the first deal's records of $work/src$players, again and again
expand() { # players count dir
	python3 - "$work/src$1" "$2" "$3" <<'EOF'
import json, os, re, shutil, sys
src, count, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
first = [l for l in open(os.path.join(src, "games.jsonl")) if '"deal":0,' in l]
deals = count // len(first)
os.makedirs(os.path.join(out, "replays"))
for name in os.listdir(os.path.join(src, "replays")):
    shutil.copy(os.path.join(src, "replays", name), os.path.join(out, "replays", name))
t = json.load(open(os.path.join(src, "tournament.json")))
t["deals"] = deals
json.dump(t, open(os.path.join(out, "tournament.json"), "w"), indent="\t")
with open(os.path.join(out, "games.jsonl"), "w") as f:
    for d in range(deals):
        for l in first:
            l = re.sub(r'"id":"t(\d+)-d0000-r(\d+)"', lambda m: '"id":"t%s-d%04d-r%s"' % (m.group(1), d, m.group(2)), l, count=1)
            f.write(l.replace('"deal":0,', '"deal":%d,' % d, 1))
EOF
}

for players in 2 4; do
	bots=$(( players == 2 ? 3 : 4 ))
	{
		printf '{"name":"bench%s","players":%s,"deals":4,"duplicate":true,' "$players" "$players"
		printf '"rules":{"stock_size":3},"seed":"9","bots":['
		for b in $(seq 1 "$bots"); do
			[ "$b" = 1 ] || printf ','
			printf '{"name":"b%s","command":["%s","good"]}' "$b" "$badbot"
		done
		printf ']}\n'
	} >"$work/t$players.json"
	"$arena" run -q --no-report -j 2 -o "$work/src$players" "$work/t$players.json" >/dev/null
	expand "$players" 1000000 "$work/big$players"
	expand "$players" 100000 "$work/small$players"
done

measure() { # label records command...
	label=$1 count=$2
	shift 2
	/usr/bin/time -f '%U %S %M' -o "$work/time" "$@" >/dev/null 2>"$work/err" ||
		{ cat "$work/err"; exit 1; }
	read -r user sys rss <"$work/time"
	awk -v l="$label" -v n="$count" -v u="$user" -v s="$sys" -v m="$rss" 'BEGIN {
		printf "%-58s %9d records %6.2f CPU-s %9.0f records/CPU-s %8d KiB\n", l, n, u + s,
		       n / (u + s > 0.005 ? u + s : 0.005), m }'
}

for players in 2 4; do
	n=$(wc -l <"$work/big$players/games.jsonl")
	small=$(wc -l <"$work/small$players/games.jsonl")
	for a in "$arena" $before; do
		name=$([ "$a" = "$arena" ] && echo this || echo before)
		rm -rf "$work/out"
		measure "$name: report -q -o OUT DIR ($players players)" "$n" \
			"$a" report -q -o "$work/out" "$work/big$players"
		measure "$name: report -q -o OUT DIR ($players players, memory at 100,000)" "$small" \
			"$a" report -q -o "$work/out" "$work/small$players"
		rm -rf "$work/out"
		measure "$name: merge OUT DIR ($players players)" "$n" "$a" merge "$work/out" "$work/big$players"
		rm -rf "$work/out"
	done
done
