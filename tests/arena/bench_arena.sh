#!/bin/sh
# Benchmarks of the arena (figures in arena/README.md). Not a ctest test.
#
# usage: tests/arena/bench_arena.sh BUILD_DIR [WORK_DIR]
#
# 1. decisions per second: bench_arena (referee + pool, two `badbot good`
#    over pipes, pinned to CPU 0) beside bench_pingpong (raw pipe ping-pong)
#    with the same mean message sizes on the same CPU placement, same run;
#    then bench_arena with bench_bot (a bot that does no JSON parsing), which
#    shows the arena's own cost without the bots' thinking;
# 2. games per second of a tournament with -j 1 and -j 2;
# 3. peak RSS of `run` over 1,000 and 100,000 games, ranking report included
#    (/usr/bin/time -v).
set -eu
build=$(cd "$1" && pwd)
work=${2:-$(mktemp -d /tmp/bench_arena.XXXXXX)}
mkdir -p "$work"
arena=$build/arena/skipbo-arena
badbot=$build/tests/badbots/badbot

echo "== decisions per second (CPU 0, stock 30)"
"$build/tests/arena/bench_arena" 3 0 30 | tee "$work/arena.txt"
req=$(sed -n 's/.*line to the bot \([0-9]*\) bytes.*/\1/p' "$work/arena.txt")
ans=$(sed -n 's/.*from the bot \([0-9]*\) bytes.*/\1/p' "$work/arena.txt")
"$build/tests/badbots/bench_pingpong" -t 3 -p same -q "$req" -a "$ans" | tee "$work/pingpong.txt"
arena_rate=$(sed -n 's/.*: \([0-9]*\) decisions\/s.*/\1/p' "$work/arena.txt")
raw_rate=$(sed -n 's/.*rate=\([0-9.]*\)\/s.*/\1/p' "$work/pingpong.txt")
echo "arena (badbot good) / raw = $(echo "$arena_rate $raw_rate" | awk '{printf "%.0f%%", 100 * $1 / $2}')"
"$build/tests/arena/bench_arena" 3 0 30 "$build/tests/arena/bench_bot" | tee "$work/arena-cheap.txt"
cheap_rate=$(sed -n 's/.*: \([0-9]*\) decisions\/s.*/\1/p' "$work/arena-cheap.txt")
echo "arena (bench_bot) / raw = $(echo "$cheap_rate $raw_rate" | awk '{printf "%.0f%%", 100 * $1 / $2}')"

tournament() { # name deals stock
	cat > "$work/$1.json" <<JSON
{"name":"$1","bots":[
 {"name":"a","command":["$badbot","good"]},{"name":"b","command":["$badbot","good"]},
 {"name":"c","command":["$badbot","good"]},{"name":"d","command":["$badbot","good"]}],
 "players":2,"deals":$2,"rules":{"stock_size":$3},"output":"$work/out-$1"}
JSON
}

echo "== games per second, -j 1 and -j 2 (6 tables x 100 deals x 2 rotations, stock 10)"
tournament scale 100 10
for j in 1 2; do
	rm -rf "$work/out-scale"
	start=$(date +%s.%N)
	"$arena" run -j "$j" --quiet --no-report "$work/scale.json"
	end=$(date +%s.%N)
	echo "$j $start $end" | awk '{printf "-j %d: 1200 games in %.2f s = %.0f games/s\n", $1, $3 - $2, 1200 / ($3 - $2)}' | tee "$work/j$j.txt"
done
j1=$(sed -n 's/.*= \([0-9]*\) games\/s/\1/p' "$work/j1.txt")
j2=$(sed -n 's/.*= \([0-9]*\) games\/s/\1/p' "$work/j2.txt")
echo "-j 2 / -j 1 = $(echo "$j2 $j1" | awk '{printf "%.2fx", $1 / $2}')"

echo "== peak RSS (stock 1, -j 2, with the ranking report): 1,000 games vs 100,000 games"
tournament small 84 1     # 6 x 84 x 2 = 1,008 games
tournament large 8334 1   # 6 x 8334 x 2 = 100,008 games
for t in small large; do
	rm -rf "$work/out-$t"
	/usr/bin/time -v "$arena" run -j 2 --quiet "$work/$t.json" 2> "$work/time-$t.txt"
	test -s "$work/out-$t/ratings.json"
	echo "$t: $(wc -l < "$work/out-$t/games.jsonl") games, peak RSS $(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time-$t.txt") KiB, $(sed -n 's/.*Elapsed (wall clock) time.*: //p' "$work/time-$t.txt") wall"
done
rss_small=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time-small.txt")
rss_large=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time-large.txt")
echo "large / small peak RSS = $(echo "$rss_large $rss_small" | awk '{printf "%.3f", $1 / $2}')"
echo "work files in $work"
