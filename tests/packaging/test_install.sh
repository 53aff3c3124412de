#!/bin/sh
# usage: test_install.sh BUILD_DIR STARTER_C CC LIBDIR MAN
# Installs BUILD_DIR into a fresh prefix, checks every file a user expects there (the man pages
# when MAN is 1: one per command, naming every option of its --help), moves the prefix, and
# builds and checks the C starter kit against it (starter_against.sh).
set -eu
build=$1 starter=$2 cc=$3 libdir=$4 man=$5
work=$(mktemp -d)
# As root the sandbox runs the installed bots as other uids, which must reach them.
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix

fail() { echo "test_install: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >"$work/install.log" || {
	cat "$work/install.log" >&2
	fail "cmake --install failed"
}
for f in bin/skipbo-arena bin/skipbo-easy bin/skipbo-medium bin/skipbo-hard bin/skipbo-expert \
	bin/skipbo-human "$libdir/libskipbo_protocol.a" "$libdir/libskipbo_engine.a" \
	include/skipbo/protocol.h include/skipbo/engine.h include/skipbo/json_strict.h \
	"$libdir/pkgconfig/skipbo.pc" share/bash-completion/completions/skipbo-arena; do
	[ -f "$prefix/$f" ] || fail "not installed: $f"
done
# The library's internal headers stay out of the prefix.
for f in include/skipbo/protocol_json.h include/skipbo/protocol_text.h; do
	[ ! -e "$prefix/$f" ] || fail "internal header installed: $f"
done

arena=$prefix/bin/skipbo-arena
if [ "$man" = 1 ]; then
	[ -f "$prefix/share/man/man1/skipbo-arena.1" ] || fail "not installed: share/man/man1/skipbo-arena.1"
	commands=$("$arena" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
	[ -n "$commands" ] || fail "no commands in skipbo-arena --help"
	for cmd in $commands; do
		page=$prefix/share/man/man1/skipbo-arena-$cmd.1
		[ -f "$page" ] || fail "no man page for $cmd: $page"
		grep -q "^\.SH SYNOPSIS" "$page" || fail "$page has no SYNOPSIS"
		# roff escapes each '-' of an option as '\-'
		for opt in $("$arena" "$cmd" --help | grep -o -- '--[a-z][a-z0-9-]*' | sort -u); do
			grep -qF -- "$(echo "$opt" | sed 's/-/\\-/g')" "$page" ||
				fail "$page does not mention $opt of \"skipbo-arena $cmd --help\""
		done
	done
fi

# The installed tree moved elsewhere: skipbo.pc finds it from its own directory.
mv "$prefix" "$work/moved"
prefix=$work/moved
sh "$(dirname "$0")/starter_against.sh" "$prefix" "$libdir" "$starter" "$cc"
echo "test_install: installed into a prefix (then moved), every file in place, the C starter kit built with pkg-config and checked"
