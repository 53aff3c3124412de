#!/bin/sh
# usage: test_deb.sh SOURCE_DIR STARTER_C CC
# Builds the Debian packages from a copy of SOURCE_DIR with `dpkg-buildpackage -b -us -uc`
# (at most 15 minutes), checks what each holds, unpacks both into a directory and builds and
# checks the C starter kit against it (starter_against.sh). Exit 77 (skipped) without
# dpkg-buildpackage or debhelper, with the reason.
set -eu
src=$1 starter=$2 cc=$3
for tool in dpkg-buildpackage dh dpkg-architecture; do
	command -v "$tool" >/dev/null || { echo "test_deb: skipped: no $tool (apt-get install dpkg-dev debhelper)"; exit 77; }
done
work=$(mktemp -d)
# As root the sandbox runs the installed bots as other uids, which must reach them.
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT

fail() { echo "test_deb: $*" >&2; exit 1; }

# dpkg-buildpackage writes the packages beside the source tree: build a copy
mkdir "$work/skipbo-arena"
tar -C "$src" --exclude='./build*' --exclude=./.git --exclude=./results --exclude=./obj-* \
	-cf - . | tar -C "$work/skipbo-arena" -xf -
(cd "$work/skipbo-arena" && DEB_BUILD_OPTIONS="parallel=2 nocheck" \
	timeout 900 nice dpkg-buildpackage -b -us -uc) >"$work/build.log" 2>&1 || {
	tail -40 "$work/build.log" >&2
	fail "dpkg-buildpackage -b -us -uc failed"
}
version=$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version)
arch=$(dpkg-architecture -q DEB_HOST_ARCH)
multiarch=$(dpkg-architecture -q DEB_HOST_MULTIARCH)
arena_deb=$work/skipbo-arena_${version}_$arch.deb
dev_deb=$work/libskipbo-dev_${version}_$arch.deb
[ -f "$arena_deb" ] && [ -f "$dev_deb" ] || fail "expected $arena_deb and $dev_deb, got: $(ls "$work")"

# holds DEB PATH...: every PATH is in the package
holds()
{
	deb=$1
	shift
	dpkg-deb -c "$deb" | awk '{ print $6 }' >"$work/contents"
	for path in "$@"; do
		grep -qxF "./$path" "$work/contents" || fail "$(basename "$deb") lacks /$path"
	done
}
holds "$arena_deb" usr/bin/skipbo-arena usr/bin/skipbo-easy usr/bin/skipbo-medium \
	usr/bin/skipbo-hard usr/bin/skipbo-expert usr/bin/skipbo-human \
	usr/share/man/man1/skipbo-arena.1.gz usr/share/man/man1/skipbo-arena-run.1.gz \
	usr/share/bash-completion/completions/skipbo-arena
holds "$dev_deb" usr/include/skipbo/protocol.h usr/include/skipbo/engine.h \
	"usr/lib/$multiarch/libskipbo_protocol.a" "usr/lib/$multiarch/libskipbo_engine.a" \
	"usr/lib/$multiarch/pkgconfig/skipbo.pc"
dpkg-deb -f "$dev_deb" Depends | grep -q libcjson-dev || fail "libskipbo-dev does not depend on libcjson-dev"

dpkg-deb -x "$arena_deb" "$work/root"
dpkg-deb -x "$dev_deb" "$work/root"
sh "$(dirname "$0")/starter_against.sh" "$work/root/usr" "lib/$multiarch" "$starter" "$cc"
echo "test_deb: built skipbo-arena and libskipbo-dev $version, every file in place, the C starter kit built against them and checked"
