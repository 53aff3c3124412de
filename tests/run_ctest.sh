#!/usr/bin/env bash
# Runs ctest in a build folder with the suite's policy, passing on any further options
# (-L long, -LE long, -R NAME):
#   tests/run_ctest.sh BUILD_DIR [CTEST_OPTIONS...]
# Each test's time is printed. A test that fails gets one more try (a test that fails twice
# fails the suite), and one that ran past its hang guard is named with what that means.
set -uo pipefail
[ $# -ge 1 ] || { echo "usage: tests/run_ctest.sh BUILD_DIR [CTEST_OPTIONS...]" >&2; exit 2; }
build=$1
shift
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# --timeout covers a test registered without a TIMEOUT of its own (tests/CMakeLists.txt)
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" --timeout 600 \
	--repeat until-pass:2 "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
# ctest's own line for a hang guard is "***Timeout"; say what it means
grep -E '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .*\*\*\*Timeout' "$log" | while read -r line; do
	name=$(sed -E 's/.*Test +#[0-9]+: ([^ ]+).*/\1/' <<<"$line")
	echo "run_ctest: $name ran past its hang guard (tests/CMakeLists.txt, 600 s unless it says" \
		"more; at idle every test outside the long label ends within 60 s): it hung, or this" \
		"machine is so loaded that it ran ten times slower. Run it alone:" \
		"ctest --test-dir $build -R '^$name\$' --output-on-failure" >&2
done
exit "$status"
