# starter_build.sh - sourced by starter_kit.sh and starter_sealed.sh: how the
# Go, C++, Java and Rust starter kits are built, into a directory of the
# test's, never into the source tree.
#
# kit_build LANG KIT_DIR OUT: builds the kit into OUT (made empty first) and
# sets kit_argv to the command that runs it, one argument a line. Returns 0;
# 77 with the reason on stderr when the kit's toolchain is missing; 1 when
# the build fails.
kit_build() {
	kb_lang=$1 kb_kit=$(cd "$2" && pwd) kb_out=$3 # go and cargo run elsewhere
	rm -rf "$kb_out" && mkdir -p "$kb_out" && kb_out=$(cd "$kb_out" && pwd) || return 1
	case $kb_lang in
	go)
		kit_need go "Debian package golang-go" || return 77
		# The module cache and build cache stay in the build directory; the
		# kit needs only the standard library, so no network either.
		(cd "$kb_kit" && GOCACHE="$kb_out/cache" GOPATH="$kb_out/gopath" GOFLAGS=-mod=mod \
			GOPROXY=off go build -o "$kb_out/bot" .) || return 1
		kit_argv=$kb_out/bot ;;
	cpp)
		kit_need g++ "Debian package g++" || return 77
		if ! echo '#include <nlohmann/json.hpp>' |
			g++ -std=c++17 -x c++ -fsyntax-only - 2>/dev/null; then
			echo "SKIP: nlohmann/json.hpp is not installed (Debian package nlohmann-json3-dev)" >&2
			return 77
		fi
		g++ -std=c++17 -O2 -Wall -Wextra -Werror "$kb_kit/bot.cpp" -o "$kb_out/bot" || return 1
		kit_argv=$kb_out/bot ;;
	java)
		kit_need javac "Debian package default-jdk-headless" || return 77
		kit_need java "Debian package default-jdk-headless" || return 77
		javac -Xlint:all -Werror -d "$kb_out" "$kb_kit/Bot.java" || return 1
		# The JVM's default reservations exceed check's 2048 MiB address-space
		# limit; these fit it (the kit's README).
		kit_argv="java
-Xmx256m
-XX:CompressedClassSpaceSize=64m
-XX:ReservedCodeCacheSize=64m
-XX:+UseSerialGC
-cp
$kb_out
Bot" ;;
	rust)
		kit_need cargo "Debian package cargo" || return 77
		if ! ls -d /usr/share/cargo/registry/serde_json-* >/dev/null 2>&1; then
			echo "SKIP: serde_json is not in /usr/share/cargo/registry (Debian package librust-serde-json-dev)" >&2
			return 77
		fi
		# A copy, so that Cargo.lock and target/ are written here; the kit's
		# .cargo/config.toml points cargo at Debian's registry, offline.
		cp -r "$kb_kit" "$kb_out/src" || return 1
		(cd "$kb_out/src" && CARGO_HOME="$kb_out/cargo-home" \
			cargo build --offline --release --quiet) || return 1
		kit_argv=$kb_out/src/target/release/skipbo-starter-rust ;;
	*)
		echo "starter_build.sh: unknown language '$kb_lang' (go, cpp, java or rust)" >&2
		return 1 ;;
	esac
}

# kit_need PROGRAM PACKAGE: 0 when PROGRAM is in PATH, else 1 with the reason on stderr.
kit_need() {
	command -v "$1" >/dev/null 2>&1 && return 0
	echo "SKIP: $1 is not installed ($2)" >&2
	return 1
}
