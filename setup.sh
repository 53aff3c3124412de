#!/usr/bin/env bash
# Builds everything on a Debian machine, installing missing packages first, then
#   ./setup.sh demo   runs the demo tournament of the bundled bots (report in results/demo/)
#   ./setup.sh test   builds with AddressSanitizer + UBSan and -Werror, runs the test suite
#                     (all but the tests labelled long, which CI runs too) and the fuzzers
set -euo pipefail
cd "$(dirname "$0")"

usage() { echo "usage: ./setup.sh demo|test" >&2; exit 2; }
[ $# -eq 1 ] || usage
mode=$1

packages=(cmake gcc make pkg-config libbsd-dev libmd-dev libcjson-dev libzstd-dev libmicrohttpd-dev libseccomp-dev libarchive-dev libcurl4-gnutls-dev python3 bubblewrap)
case $mode in
demo) ;;
test) packages+=(libcmocka-dev help2man build-essential dpkg-dev debhelper python3-jsonschema zstd
	chromium clang libclang-rt-14-dev parallel slurm-wlm munge golang-go g++ nlohmann-json3-dev
	default-jdk-headless cargo librust-serde-json-dev tmux curl openssl python3-yaml systemd) ;;
*) usage ;;
esac
# the demo names /usr/bin/node: a node elsewhere (nvm under a home directory) is out of the sandbox's reach as root
[ -x /usr/bin/node ] || packages+=(nodejs)

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "setup: installing ${missing[*]}"
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

jobs=$(nproc)
case $mode in
demo)
	# the arena and the bots the demo runs only (the "demo" target): no tests, no cmocka
	cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DSKIPBO_TESTS=OFF >/dev/null
	cmake --build build -j "$jobs" --target demo
	./build/arena/skipbo-arena run arena/examples/demo.jsonc
	;;
test)
	cmake -S . -B build-test -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSKIPBO_SANITIZE=ON -DSKIPBO_WERROR=ON >/dev/null
	cmake --build build-test -j "$jobs"
	# All but the tests labelled long (CI runs those after: tests/run_ctest.sh -L long).
	tests/run_ctest.sh build-test -LE long
	# The readers of outside input under libFuzzer, 90 s in all (tests/fuzz).
	tests/fuzz/run_fuzz.sh build-fuzz 90
	;;
esac
