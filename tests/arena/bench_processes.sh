#!/bin/sh
# bench_processes.sh BUILD_DIR [ROUNDS] [DEALS30] [DEALS5] [SANDBOX] [BEFORE_DIR] - what
# fresh bot processes cost a tournament: games/s of 4 skipbo-hard bots with a
# fresh process per game ("processes": "fresh", the default) against one
# process per bot and worker ("reuse"), at stock 30 and at stock 5, in
# alternating rounds, each starting with the next mode (-j 2, pinned, SANDBOX auto, on or off, default auto: on
# where the machine allows it), the median of each and their ratio. With
# BEFORE_DIR, the arena of that build also plays the fresh runs, in the same
# rounds (the bots are BUILD_DIR's), and its median and ratio come too. With
# SEALED_SYSTEM set (a JSON array of directories, the tournament's
# "system"; or derived: no "system", the files the bots' programs need), fresh
# runs with "sandbox": "sealed" and that view are played in the same rounds
# as well, their games/s counting the start that copies and caches the files,
# against fresh's.
#
#   SEALED_SYSTEM=derived sh tests/arena/bench_processes.sh build 3 64 64 on
#   SEALED_SYSTEM='["/usr/lib/x86_64-linux-gnu","/usr/lib64","/etc"]' \
#     sh tests/arena/bench_processes.sh build 3 64 64 on
#
#   sh tests/arena/bench_processes.sh build [5] [4] [30] [auto] [before/build]
#
# 6 tables x DEALS x 2 rotations games per run. Where perf is on PATH, as many
# rounds again follow under `perf stat -e task-clock`, with their medians:
# the CPU time of the whole process tree per game (arena, bwrap, bots), which
# a loaded machine leaves alone, and the ratio it alone allows (reuse's CPU
# per game over fresh's); the kernel's own threads (a network namespace's
# clean-up) are not in it. A program to run by hand for the README's
# performance table, not a test.
set -eu
build=$(cd "$1" && pwd)
rounds=${2:-5}
deals30=${3:-4}
deals5=${4:-30}
sandbox=${5:-auto}
before=${6:+$(cd "$6" && pwd)}
sealed=${SEALED_SYSTEM:+sealed}
work=$(mktemp -d /tmp/bench_processes.XXXXXX)
chmod 755 "$work" # the sandbox's uids must reach the bots
arena=$build/arena/skipbo-arena
bot=$build/bots/skipbo-hard

for stock in 30 5; do
	deals=$deals30
	[ "$stock" = 5 ] && deals=$deals5
	for mode in fresh reuse $sealed; do
		processes=$mode box=$sandbox view=
		[ "$mode" = sealed ] && processes=fresh box=sealed view=",\"system\":$SEALED_SYSTEM"
		[ "$mode" = sealed ] && [ "$SEALED_SYSTEM" = derived ] && view=""
		cat > "$work/$mode-$stock.json" <<JSON
{"name":"$mode","bots":[
 {"name":"a","command":["$bot"]},{"name":"b","command":["$bot"]},
 {"name":"c","command":["$bot"]},{"name":"d","command":["$bot"]}],
 "players":2,"deals":$deals,"rules":{"stock_size":$stock},"processes":"$processes",
 "seed":1234,"concurrency":2,"sandbox":"$box","output":"$work/out-$mode-$stock"$view}
JSON
	done
done

# games STOCK: the games of a run at that stock
games() { if [ "$1" = 5 ]; then echo $((6 * deals5 * 2)); else echo $((6 * deals30 * 2)); fi; }
# run_one MODE STOCK [PREFIX...]: one run of MODE (fresh, reuse, before), under PREFIX
run_one() {
	mode=$1 stock=$2
	shift 2
	run=$arena config=$mode
	[ "$mode" = before ] && run=$before/arena/skipbo-arena config=fresh
	rm -rf "$work/out-$config-$stock"
	"$@" "$run" run --quiet --no-report "$work/$config-$stock.json" 2>/dev/null
}

# order R: the modes, the R-th round's starting with the R-th (round robin), so that none
# always runs after the same one (what a run leaves the kernel to clean up lands in the next)
modes="fresh reuse ${before:+before} $sealed"
order() {
	k=$(( ($1 - 1) % $(echo $modes | wc -w) )) head= tail=
	for m in $modes; do
		if [ "$k" -gt 0 ]; then tail="$tail $m" k=$((k - 1)); else head="$head $m"; fi
	done
	echo $head $tail
}

for r in $(seq "$rounds"); do
	for stock in 30 5; do
		for mode in $(order "$r"); do
			start=$(date +%s.%N)
			run_one "$mode" "$stock"
			end=$(date +%s.%N)
			echo "$mode $stock $start $end" |
				awk -v g="$(games "$stock")" '{printf "%s %s %.1f\n", $1, $2, g / ($4 - $3)}' \
				>> "$work/rates.txt"
		done
	done
done
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
for stock in 30 5; do
	fresh=$(awk -v s="$stock" '$1 == "fresh" && $2 == s {print $3}' "$work/rates.txt" | median)
	reuse=$(awk -v s="$stock" '$1 == "reuse" && $2 == s {print $3}' "$work/rates.txt" | median)
	echo "sandbox $sandbox, stock $stock: games/s, median of $rounds rounds: fresh $fresh, reuse $reuse" \
	     "= $(echo "$fresh $reuse" | awk '{printf "%.1f%%", 100 * $1 / $2}')" \
	     "(rounds: $(awk -v s="$stock" '$2 == s {printf "%s %s; ", $1, $3}' "$work/rates.txt"))"
	if [ -n "$before" ]; then
		old=$(awk -v s="$stock" '$1 == "before" && $2 == s {print $3}' "$work/rates.txt" | median)
		echo "  the build before, fresh: $old = $(echo "$old $reuse" |
			awk '{printf "%.1f%%", 100 * $1 / $2}') of reuse"
	fi
	if [ -n "$sealed" ]; then
		s=$(awk -v s="$stock" '$1 == "sealed" && $2 == s {print $3}' "$work/rates.txt" | median)
		echo "  sealed ($SEALED_SYSTEM), fresh: $s = $(echo "$s $fresh" |
			awk '{printf "%.1f%%", 100 * $1 / $2}') of fresh"
	fi
done
command -v perf >/dev/null 2>&1 || { rm -rf "$work"; exit 0; }
for r in $(seq "$rounds"); do
	for stock in 30 5; do
		for mode in $(order "$r"); do
			run_one "$mode" "$stock" perf stat -x, -e task-clock -o "$work/cpu.txt" --
			awk -F, -v g="$(games "$stock")" -v m="$mode" -v s="$stock" \
				'/task-clock/ {printf "%s %s %.2f\n", m, s, $1 / g}' "$work/cpu.txt" \
				>> "$work/cpus.txt"
		done
	done
done
for stock in 30 5; do
	for mode in fresh reuse ${before:+before} $sealed; do
		echo "$mode $stock $(awk -v s="$stock" -v m="$mode" '$1 == m && $2 == s {print $3}' \
			"$work/cpus.txt" | median)"
	done > "$work/cpu-medians.txt"
	awk -v s="$stock" '{c[$1] = $3} END {
		printf "stock %s: CPU per game (perf stat task-clock, ms), median of '"$rounds"': fresh %s, reuse %s", s, c["fresh"], c["reuse"]
		if ("before" in c) printf ", the build before %s", c["before"]
		printf "; the CPU alone allows fresh %.1f%% of reuse", 100 * c["reuse"] / c["fresh"]
		if ("before" in c) printf " (the build before %.1f%%)", 100 * c["reuse"] / c["before"]
		if ("sealed" in c) printf "; sealed %s, %.1f%% of fresh%s", c["sealed"], 100 * c["fresh"] / c["sealed"], " (its start included)"
		printf "\n" }' "$work/cpu-medians.txt"
done
rm -rf "$work"
