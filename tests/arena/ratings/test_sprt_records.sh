#!/bin/sh
# test_sprt_records.sh DRIVER BOT_A BOT_B - sprt keeps what it plays, like run:
# with -j 2 its output directory holds games.jsonl (two games a pair), a
# replay for every game and a tournament.json saying "sprt"; a run killed
# with SIGKILL and then run again with the same command resumes from the
# records and reaches the decision of an uninterrupted run with the same seed,
# at the same pair, with the same LLR. BOT_A and BOT_B are close (their pairs
# end every way), so the pair at which the test stops depends on the order in
# which it counts them: deal order, whatever order the games end in.
set -u
driver=$1
a=$2
b=$3
fail=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

sprt() {
	"$driver" sprt -q -j 2 --seed 11 --elo0 0 --elo1 30 --max-pairs 400 --move-ms 5000 \
		--memory-mb 0 --sandbox off --stock 10 --name-a a --name-b b "$@"
}
final() { grep -E '^(final|result:)' "$1"; }

sprt -o "$dir/whole" "$a" "$b" >"$dir/whole.out" 2>&1 ||
	{ echo "uninterrupted: exit $?"; cat "$dir/whole.out"; fail=1; }
grep -q '^result: H0 accepted' "$dir/whole.out" || { echo "no H0"; cat "$dir/whole.out"; fail=1; }
pairs=$(awk '/^final/ { print $2 }' "$dir/whole.out")
games=$(wc -l <"$dir/whole/games.jsonl")
replays=$(find "$dir/whole/replays" -type f | wc -l)
# the games in flight at the decision are recorded too: a few past the deciding pair, and the
# first rotations of the rest of its block (schedule.h: blocks of 128 deals, in phases)
[ "$games" -ge $((2 * pairs)) ] && [ "$games" -le $((2 * pairs + 128 + 40)) ] ||
	{ echo "games.jsonl holds $games records for $pairs pairs"; fail=1; }
[ "$replays" -ge 1 ] || { echo "no replays in $dir/whole/replays"; fail=1; }
grep -q '"sprt"' "$dir/whole/tournament.json" && grep -q '"elo1":	30' "$dir/whole/tournament.json" ||
	{ echo "tournament.json does not say sprt"; cat "$dir/whole/tournament.json"; fail=1; }

# the same test killed once a few games are recorded, then resumed
sprt -o "$dir/killed" "$a" "$b" >"$dir/killed.out" 2>&1 &
pid=$!
n=0
while [ "$(cat "$dir/killed/games.jsonl" 2>/dev/null | wc -l)" -lt 20 ] && [ "$n" -lt 600 ]; do
	sleep 0.05
	n=$((n + 1))
done
kill -9 "$pid"
wait "$pid" 2>/dev/null
killed_at=$(wc -l <"$dir/killed/games.jsonl")
if grep -q '^result:' "$dir/killed.out"; then
	echo "the run ended before the kill (machine too slow for this test?)"; fail=1
fi
sprt -o "$dir/killed" "$a" "$b" >"$dir/resumed.out" 2>&1 ||
	{ echo "resume: exit $?"; cat "$dir/resumed.out"; fail=1; }
if [ "$(final "$dir/resumed.out")" != "$(final "$dir/whole.out")" ]; then
	echo "killed after $killed_at games and resumed: a different end"
	echo "--- uninterrupted"; final "$dir/whole.out"; echo "--- resumed"; cat "$dir/resumed.out"
	fail=1
fi
# without --seed a resume plays on with the seed the directory recorded
"$driver" sprt -q --elo0 0 --elo1 30 --max-pairs 400 --move-ms 5000 --memory-mb 0 --sandbox off \
	--stock 10 --name-a a --name-b b -o "$dir/killed" "$a" "$b" >"$dir/again.out" 2>&1
[ "$(final "$dir/again.out")" = "$(final "$dir/whole.out")" ] && grep -q 'seed 11$' "$dir/again.out" ||
	{ echo "a resume without --seed"; cat "$dir/again.out"; fail=1; }

[ "$fail" -eq 0 ] && echo "sprt: records and replays with -j 2; killed ($killed_at games) and resumed to the same decision"
exit "$fail"
