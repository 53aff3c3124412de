#!/usr/bin/env bash
# A bounded fuzz run of every fuzz target (tests/fuzz/CMakeLists.txt):
#   tests/fuzz/run_fuzz.sh BUILD_DIR SECONDS
# configures BUILD_DIR with clang and -DSKIPBO_FUZZ=ON, builds the targets and
# runs each for its share of SECONDS, starting from its checked-in corpus. New
# inputs go to BUILD_DIR/fuzz/corpus/<target>, a crash to BUILD_DIR/fuzz/ with
# the log. Prints one line per target; exits 1 on the first crash (with the
# end of its log), so that the input can become a corpus file and a fix.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 BUILD_DIR SECONDS" >&2; exit 2; }
build=$1
seconds=$2
src=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$src/../.." && pwd)

if ! out=$(cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DSKIPBO_FUZZ=ON 2>&1 && cmake --build "$build" -j "$(nproc)" --target fuzz_targets 2>&1); then
	echo "$out" | tail -n 30
	echo "fuzz: the libFuzzer build failed"
	exit 1
fi
mapfile -t targets < "$build/tests/fuzz/targets.txt"
share=$((seconds / ${#targets[@]}))
[ "$share" -ge 1 ] || share=1
mkdir -p "$build/fuzz"
for t in "${targets[@]}"; do
	mkdir -p "$build/fuzz/corpus/$t"
	log="$build/fuzz/$t.log"
	if ! "$build/tests/fuzz/fuzz_$t" -max_total_time="$share" -timeout=10 -rss_limit_mb=2048 \
		-dict="$src/json.dict" -artifact_prefix="$build/fuzz/$t-" \
		"$build/fuzz/corpus/$t" "$src/corpus/$t" >"$log" 2>&1; then
		tail -n 40 "$log"
		echo "fuzz $t: FAILED; the input is $build/fuzz/$t-*, the log $log"
		exit 1
	fi
	echo "fuzz $t: $(grep -o 'Done [0-9]* runs' "$log" | tail -n 1 | cut -d' ' -f2) inputs in ${share} s, no failure"
done
