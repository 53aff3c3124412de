#!/usr/bin/env bash
# The crash, full-disk and kill -9 tests without their time bound: every prefix
# of the logged file operations of run, league (with add and retire) and merge,
# each in every way a power cut may leave it (4 sets of files whose unsynced
# writes are lost while the others' are kept, --subsets and --seed of
# test_crash_states.py), resumed; then every write of run,
# league add, merge and report made to fail; then 100 kill -9 at random points
# of league, league add, merge and report each. Prints how many of each were
# tried (results/README.md, "Crash safety", has the figures).
#   tests/arena/bench_crash.sh [BUILD_DIR]   (default build)
set -euo pipefail
b=${1:-build}
here=$(dirname "$0")/crash
tools=("$b/arena/skipbo-arena" "$b/tests/arena/crash/iotrace.so" "$b/bots/skipbo-easy"
	"$b/bots/skipbo-medium")
time python3 "$here/test_crash_states.py" "${tools[@]}" --every 1 --seconds 36000
time python3 "$here/test_full_disk.py" "${tools[@]}" --seconds 36000
time python3 "$here/test_kill9.py" "${tools[@]}" --runs 100 --seconds 36000
