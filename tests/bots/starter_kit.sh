#!/bin/sh
# starter_kit.sh LANG KIT_DIR BUILD_DIR ARENA - build one starter kit (Go,
# C++, Java or Rust) into BUILD_DIR, never into the source tree, and require
# `skipbo-arena check` to pass it in 2-player games and in 4-player
# partnership (R10), and a sandboxed tournament to play it without a fault. Without the kit's toolchain the test is skipped (exit
# 77, ctest's SKIP_RETURN_CODE) with the reason, never passed.
set -eu
lang=$1 kit=$2 out=$3 arena=$4
skip() { echo "SKIP: $*" >&2; exit 77; }
need() { command -v "$1" >/dev/null 2>&1 || skip "$1 is not installed ($2)"; }

rm -rf "$out" && mkdir -p "$out"
out=$(cd "$out" && pwd) kit=$(cd "$kit" && pwd) # go and cargo run elsewhere
case $lang in
go)
	need go "Debian package golang-go"
	# The module cache and build cache stay in the build directory; the
	# kit needs only the standard library, so no network either.
	(cd "$kit" && GOCACHE="$out/cache" GOPATH="$out/gopath" GOFLAGS=-mod=mod GOPROXY=off \
		go build -o "$out/bot" .)
	set -- "$out/bot" ;;
cpp)
	need g++ "Debian package g++"
	echo '#include <nlohmann/json.hpp>' | g++ -std=c++17 -x c++ -fsyntax-only - 2>/dev/null ||
		skip "nlohmann/json.hpp is not installed (Debian package nlohmann-json3-dev)"
	g++ -std=c++17 -O2 -Wall -Wextra -Werror "$kit/bot.cpp" -o "$out/bot"
	set -- "$out/bot" ;;
java)
	need javac "Debian package default-jdk-headless"
	need java "Debian package default-jdk-headless"
	javac -Xlint:all -Werror -d "$out" "$kit/Bot.java"
	# The JVM's default reservations exceed check's 2048 MiB address-space
	# limit; these fit it (the kit's README).
	set -- java -Xmx256m -XX:CompressedClassSpaceSize=64m \
		-XX:ReservedCodeCacheSize=64m -XX:+UseSerialGC -cp "$out" Bot ;;
rust)
	need cargo "Debian package cargo"
	ls -d /usr/share/cargo/registry/serde_json-* >/dev/null 2>&1 ||
		skip "serde_json is not in /usr/share/cargo/registry (Debian package librust-serde-json-dev)"
	# A copy, so that Cargo.lock and target/ are written here; the kit's
	# .cargo/config.toml points cargo at Debian's registry, offline.
	cp -r "$kit" "$out/src"
	(cd "$out/src" && CARGO_HOME="$out/cargo-home" cargo build --offline --release --quiet)
	set -- "$out/src/target/release/skipbo-starter-rust" ;;
*)
	echo "starter_kit.sh: unknown language '$lang' (go, cpp, java or rust)" >&2
	exit 2 ;;
esac

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
