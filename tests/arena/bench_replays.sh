#!/bin/sh
# bench_replays.sh BUILD_DIR [ROUNDS] [DEALS] - what replays cost a tournament
# of the minimal bot (tests/arena/bench_bot) at stock 1, where the per-game
# writes weigh most: games/s with "replays": "all" against "none", in
# alternating rounds (-j 1, pinned), the median of each; and the bytes per
# game of the compressed replays (the packs, replays/*.jsonl.zst), beside
# their JSON size.
#
#   sh tests/arena/bench_replays.sh build [5] [500]
#
# 4 bots, 6 tables x DEALS x 2 rotations games per run. A program to run by
# hand for the README's performance table, not a test.
set -eu
build=$(cd "$1" && pwd)
rounds=${2:-5}
deals=${3:-500}
work=$(mktemp -d /tmp/bench_replays.XXXXXX)
chmod 755 "$work" # the sandbox's uids must reach the bots
arena=$build/arena/skipbo-arena
bot=$build/tests/arena/bench_bot
games=$((6 * deals * 2))

for mode in all none; do
	cat > "$work/$mode.json" <<JSON
{"name":"$mode","bots":[
 {"name":"a","command":["$bot"]},{"name":"b","command":["$bot"]},
 {"name":"c","command":["$bot"]},{"name":"d","command":["$bot"]}],
 "players":2,"deals":$deals,"rules":{"stock_size":1},"replays":"$mode",
 "output":"$work/out-$mode"}
JSON
done

for r in $(seq "$rounds"); do
	for mode in all none; do
		rm -rf "$work/out-$mode"
		start=$(date +%s.%N)
		"$arena" run -j 1 --quiet --no-report "$work/$mode.json"
		end=$(date +%s.%N)
		echo "$mode $start $end" | awk -v g="$games" '{printf "%s %.1f\n", $1, g / ($3 - $2)}' \
			>> "$work/rates.txt"
	done
done
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
all=$(awk '$1 == "all" {print $2}' "$work/rates.txt" | median)
none=$(awk '$1 == "none" {print $2}' "$work/rates.txt" | median)
echo "games/s, $games games a run, median of $rounds rounds: replays all $all, none $none" \
     "= $(echo "$all $none" | awk '{printf "%.1f%%", 100 * $1 / $2}')"

packed=$(cat "$work"/out-all/replays/*.jsonl.zst | wc -c)
plain=$(zstd -dcq "$work"/out-all/replays/*.jsonl.zst | wc -c)
echo "bytes per game: $((packed / games)) compressed, $((plain / games)) as JSON" \
     "(stock 1; $(echo "$plain $packed" | awk '{printf "%.1f", $1 / $2}')x)"
rm -rf "$work"
