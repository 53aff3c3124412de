#!/usr/bin/env bash
# A full disk: run stops with "no space left on device: free space and run the
# same command to resume" and the command; after space is freed, the same
# command completes the tournament. The output directory is a 48 KiB tmpfs in
# a mount namespace of its own (unshare -rm, no root needed), grown to 4 MiB
# by a remount; skipped (77), saying why, where the machine does not let this
# user do both (user namespaces not allowed).
#   test_e2e_disk_full.sh ARENA BADBOT
set -euo pipefail
arena=$1 badbot=$2
work=$(mktemp -d /tmp/skipbo-full.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
# The remount names the source and the type: mount(8) run by an ordinary user, even as root
# of a user namespace, refuses a remount given by the mount point alone.
mount_small='mount -t tmpfs -o size=48k tmpfs'
grow='mount -t tmpfs -o remount,size=4m tmpfs'
if ! why=$(unshare -rm sh -c "mkdir -p probe && $mount_small probe && $grow probe" 2>&1); then
	echo "skipped: this user cannot mount and grow a small tmpfs in a mount namespace" \
		"(unshare -rm): ${why:-unshare failed}"
	exit 77
fi
cat >t.json <<EOF
{ "name": "f", "bots": [
  { "name": "a", "command": ["$badbot", "good"] },
  { "name": "b", "command": ["$badbot", "good"] } ],
  "deals": 30, "rules": { "stock_size": 3 }, "output": "out/f" }
EOF
mkdir out
# one namespace for both runs: the tmpfs lives as long as it
unshare -rm bash -c '
	set -u
	$1 out || exit 3
	"$0" run --sandbox off -j 1 --quiet t.json >first.out 2>first.err
	echo $? >first.status
	$2 out || exit 3
	"$0" run --sandbox off -j 1 --quiet t.json >second.out 2>second.err
	echo $? >second.status
	wc -l <out/f/games.jsonl >records
' "$arena" "$mount_small" "$grow" || { echo "FAIL: the tmpfs could not be mounted or grown" >&2; exit 1; }
fail() { echo "FAIL: $*" >&2; cat first.err second.err >&2; exit 1; }
[ "$(cat first.status)" = 1 ] || fail "a full disk: exit status $(cat first.status), not 1"
grep -q "no space left on device: free space and run the same command to resume" first.err ||
	fail "no hint to free space and resume"
grep -q "^resume with: skipbo-arena run --sandbox off -j 1 --quiet t.json$" first.err ||
	fail "no command that resumes"
[ "$(cat second.status)" = 0 ] || fail "the resume after freeing space: exit $(cat second.status)"
[ "$(cat records)" = 60 ] || fail "$(cat records) records after the resume, not 60"
echo "ok: a full disk is named, and the same command resumes"
