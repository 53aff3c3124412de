#!/bin/sh
# usage: starter_against.sh PREFIX LIBDIR STARTER_C CC
# What a C bot author does with skipbo installed in PREFIX: build the C starter kit outside the
# tree with `CC bot.c $(pkg-config --cflags --libs skipbo)`, skipbo.pc from PREFIX/LIBDIR/pkgconfig,
# then have PREFIX/bin/skipbo-arena check it against the skipbo-easy installed beside it.
set -eu
prefix=$1 pcdir=$1/$2/pkgconfig starter=$3 cc=$4
arena=$prefix/bin/skipbo-arena
work=$(mktemp -d)
# As root the sandbox runs the bot as another uid, which must reach it.
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT

fail() { echo "starter_against: $*" >&2; exit 1; }

export PKG_CONFIG_PATH="$pcdir"
version=$(pkg-config --modversion skipbo) || fail "pkg-config does not find skipbo in $pcdir"
"$arena" --version | grep -qF "$version" ||
	fail "skipbo.pc says $version, $arena --version says $("$arena" --version)"

found=""
for word in $(pkg-config --cflags-only-I skipbo); do
	[ -d "${word#-I}" ] &&
		[ "$(cd "${word#-I}" && pwd -P)" = "$(cd "$prefix/include/skipbo" && pwd -P)" ] && found=1
done
[ -n "$found" ] || fail "pkg-config --cflags skipbo does not name $prefix/include/skipbo: $(pkg-config --cflags skipbo)"

cp "$starter" "$work/mybot.c"
cd "$work"
# shellcheck disable=SC2046 # pkg-config's words are meant to be split
"$cc" -std=c11 -Wall -Wextra -Werror -o mybot mybot.c $(pkg-config --cflags --libs skipbo) ||
	fail "the C starter kit does not build with the flags of $pcdir/skipbo.pc"
"$arena" check --games 2 --replays replays -- ./mybot >check.log 2>&1 || {
	cat check.log >&2
	fail "$arena check refuses the bot built against skipbo.pc"
}
