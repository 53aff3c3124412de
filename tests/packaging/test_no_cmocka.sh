#!/bin/sh
# usage: test_no_cmocka.sh SOURCE_DIR
# Configures SOURCE_DIR where pkg-config finds everything but cmocka: with -DSKIPBO_TESTS=OFF
# that must work and define no test; without it, fail with a message naming libcmocka-dev and
# -DSKIPBO_TESTS=OFF. The "demo" target of ./setup.sh demo builds the arena, the bots
# arena/examples/demo.jsonc runs from build/bots/ and every installed bot, and no other program.
set -eu
src=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() { echo "test_no_cmocka: $*" >&2; exit 1; }

mkdir "$work/pc"
for dir in $(pkg-config --variable pc_path pkg-config | tr ':' ' '); do
	for pc in "$dir"/*.pc; do
		[ -f "$pc" ] && [ "$(basename "$pc")" != cmocka.pc ] && ln -sf "$pc" "$work/pc/"
	done
done
export PKG_CONFIG_LIBDIR="$work/pc" PKG_CONFIG_PATH=""
! pkg-config --exists cmocka || fail "cmocka still found"

cmake -S "$src" -B "$work/off" -G "Unix Makefiles" -DSKIPBO_TESTS=OFF >"$work/off.log" 2>&1 || {
	cat "$work/off.log" >&2
	fail "-DSKIPBO_TESTS=OFF does not configure without cmocka"
}
ctest --test-dir "$work/off" -N | grep -q "Total Tests: 0" || fail "-DSKIPBO_TESTS=OFF still defines tests"

# the programs the demo target depends on, as the Makefiles generated for it say
deps=$(sed -n 's|^CMakeFiles/demo\.dir/all: .*/CMakeFiles/\([^/]*\)\.dir/all$|\1|p' \
	"$work/off/CMakeFiles/Makefile2" | sort -u)
wanted=$( (echo skipbo-arena; grep -o 'build/bots/[A-Za-z0-9_-]*' "$src/arena/examples/demo.jsonc" |
	sed 's|build/bots/||'; sed -n '/^set(SKIPBO_BUNDLED_BOTS/,/)/p' "$src/bots/CMakeLists.txt" |
	grep -o 'skipbo-[a-z0-9-]*') | sort -u)
[ "$deps" = "$wanted" ] || fail "the demo target builds [$(echo $deps)], not the demo's [$(echo $wanted)]"

if cmake -S "$src" -B "$work/on" >"$work/on.log" 2>&1; then
	fail "configured with the tests although cmocka is missing"
fi
tr '\n' ' ' <"$work/on.log" | grep -q "libcmocka-dev, *or configure with *-DSKIPBO_TESTS=OFF" || {
	cat "$work/on.log" >&2
	fail "the error does not say to install libcmocka-dev or configure with -DSKIPBO_TESTS=OFF"
}
echo "test_no_cmocka: -DSKIPBO_TESTS=OFF configures without cmocka; without it the error says what to do"
