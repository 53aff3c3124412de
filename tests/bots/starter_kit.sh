#!/bin/sh
# starter_kit.sh LANG KIT_DIR BUILD_DIR ARENA - build one starter kit (Go,
# C++, Java or Rust) into BUILD_DIR, never into the source tree, and require
# `skipbo-arena check` to pass it in 2-player games and in 4-player
# partnership (R10), and a sandboxed tournament to play it without a fault. Without the kit's toolchain the test is skipped (exit
# 77, ctest's SKIP_RETURN_CODE) with the reason, never passed.
set -eu
lang=$1 kit=$2 out=$3 arena=$4
here=$(cd "$(dirname "$0")" && pwd)
. "$here/starter_build.sh"

status=0
kit_build "$lang" "$kit" "$out" || status=$?
[ "$status" -eq 0 ] || exit "$status"
# the kit's command as arguments, one a line
IFS='
'
# shellcheck disable=SC2086
set -- $kit_argv
unset IFS

# the replays beside the kit's directory, not in it: a sandbox does not show a
# bot a directory that holds the arena's output (SECURITY.md)
rm -rf "$out.replays"
# limits far above any move: a loaded machine must not fail a correct kit
limits="--move-ms 30000 --game-ms 1800000 --startup-ms 60000"
"$arena" check --games 6 $limits --replays "$out.replays" -- "$@"
"$arena" check --games 4 --players 4 --partnership $limits --replays "$out.replays" -- "$@"
# A tournament plays it too: sandboxed, each game's process from a host, in a
# /proc of the game's own (SECURITY.md); every game recorded, none faulted.
rm -rf "$out.run"
"$arena" run --quiet --no-report --sandbox auto --deals 2 --stock 5 $limits --output "$out.run" \
	--bot "kit=$*" --bot "kit2=$*"
games=$(wc -l < "$out.run/games.jsonl")
clean=$(grep -c '"faults":\[\]' "$out.run/games.jsonl" || true)
if [ "$games" -ne 4 ] || [ "$clean" -ne "$games" ]; then
	echo "starter_kit.sh: $lang: $clean of $games tournament games without a fault (4 expected):" >&2
	grep -o '"faults":\[{[^]]*' "$out.run/games.jsonl" | head -3 >&2
	exit 1
fi
