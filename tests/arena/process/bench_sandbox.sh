#!/bin/sh
# What the sandbox costs (figures in README.md). Not a ctest test.
#
# usage: tests/arena/process/bench_sandbox.sh BUILD_DIR [WORK_DIR]
#
# 1. bench_sandbox: a bot process's start-up (bot_start to its hello), and
#    decisions/s of games between two minimal C bots (tests/arena/bench_bot)
#    through the pool and the referee on CPU 0, sandbox off and on in
#    alternating rounds;
# 2. the same bots in whole tournaments (`skipbo-arena run`, 4 bots, -j 2,
#    records and all), --sandbox off and on in turn, three times each:
#    decisions/s = the records' moves / wall time.
set -eu
build=$(cd "$1" && pwd)
work=${2:-$(mktemp -d /tmp/bench_sandbox.XXXXXX)}
mkdir -p "$work"
chmod 755 "$work"
arena=$build/arena/skipbo-arena
bot=$build/tests/arena/bench_bot

echo "== start-up and decisions/s through the pool (CPU 0, stock 30)"
"$build/tests/arena/process/bench_sandbox" 200 10

echo "== tournaments: 4 bench_bot, stock 30, 6 tables x 200 deals x 2 rotations, -j 2"
cat > "$work/t.json" <<JSON
{"name":"bench","bots":[
 {"name":"a","command":["$bot"]},{"name":"b","command":["$bot"]},
 {"name":"c","command":["$bot"]},{"name":"d","command":["$bot"]}],
 "players":2,"deals":200,"rules":{"stock_size":30},"concurrency":2,"output":"$work/out"}
JSON
for round in 1 2 3 4 5; do
	for mode in off on; do
		rm -rf "$work/out"
		start=$(date +%s.%N)
		"$arena" run --quiet --no-report --sandbox "$mode" "$work/t.json"
		end=$(date +%s.%N)
		moves=$(sed -n 's/.*"moves":\([0-9]*\),"time".*/\1/p' "$work/out/games.jsonl" |
			awk '{s += $1} END {print s}')
		echo "$mode $start $end $moves" | awk '{printf "sandbox %-3s: %d decisions in %.2f s = %.0f decisions/s\n", $1, $4, $3 - $2, $4 / ($3 - $2)}' | tee -a "$work/tournaments.txt"
	done
done
# each round's on/off ratio, and their median (a burst of other work moves one round only)
awk '/sandbox off/ {off = $(NF - 1)} /sandbox on/ {printf "%.4f\n", $(NF - 1) / off}' \
	"$work/tournaments.txt" | sort -n |
	awk '{r[NR] = $1} END {printf "on / off, median of %d rounds: %.1f%%\n", NR, 100 * r[int((NR + 1) / 2)]}'

echo "work files in $work"
