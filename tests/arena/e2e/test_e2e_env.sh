#!/usr/bin/env bash
# --env NAME=VALUE on play, check and sprt reaches the bots, in a sandbox (whose
# environment holds PATH, HOME, TMPDIR and LANG only) and without one; check's
# reaches the bot under check, not its opponent; each command's --help says
# what a sandboxed bot's environment is; a malformed --env is bad usage.
#   test_e2e_env.sh ARENA BADBOT
set -euo pipefail
arena=$1 badbot=$2
work=$(mktemp -d /tmp/skipbo-env.XXXXXX)
chmod 755 "$work"   # a sandboxed bot may run as another user
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "test_e2e_env: $*" >&2; exit 1; }

# a bot that says what it was given, then plays: badbot named in its arguments,
# as a sandbox shows a bot the files its arguments name
cat >envbot <<'EOF'
#!/bin/sh
echo "MYBOT_DEBUG=[${MYBOT_DEBUG-unset}] OTHER=[${OTHER-unset}]" >&2
exec "$1" good
EOF
chmod 755 envbot
export OTHER=from-the-caller
export TMPDIR=$work   # check's replays

for sandbox in auto off; do
	"$arena" play --sandbox $sandbox --stock 3 --seed 1 --env MYBOT_DEBUG=1 --env 'X=a b' \
		"./envbot $badbot" "./envbot $badbot" >out 2>&1 || fail "play --sandbox $sandbox: $(cat out)"
	grep -q 'MYBOT_DEBUG=\[1\]' out || fail "play --sandbox $sandbox: no MYBOT_DEBUG: $(cat out)"
	"$arena" sprt --sandbox $sandbox --stock 3 --max-pairs 1 --env MYBOT_DEBUG=3 -o sprt-$sandbox \
		"./envbot $badbot" "./envbot $badbot" >out 2>&1 || fail "sprt --sandbox $sandbox: $(cat out)"
	[ "$(grep -c 'MYBOT_DEBUG=\[3\]' out)" -ge 2 ] || fail "sprt: not both bots: $(cat out)"
	"$arena" check --sandbox $sandbox --games 1 --stock 3 --env MYBOT_DEBUG=2 \
		--opponent "./envbot $badbot" "./envbot $badbot" >out 2>&1 || fail "check --sandbox $sandbox: $(cat out)"
	grep -q '^\[envbot\] MYBOT_DEBUG=\[2\]' out || fail "check: the bot has no MYBOT_DEBUG: $(cat out)"
	grep -q 'MYBOT_DEBUG=\[unset\]' out || fail "check: the opponent got --env too: $(cat out)"
done
# the caller's environment reaches a bot without a sandbox only
"$arena" play --sandbox off --stock 3 --seed 1 "./envbot $badbot" "./envbot $badbot" >out 2>&1
grep -q 'OTHER=\[from-the-caller\]' out || fail "--sandbox off: the caller's environment is lost"
if "$arena" play --sandbox on --stock 3 --seed 1 "./envbot $badbot" "./envbot $badbot" >out 2>&1; then
	grep -q 'OTHER=\[unset\]' out || fail "a sandbox passed the caller's environment: $(cat out)"
fi

for cmd in play check sprt; do
	"$arena" $cmd --help | tr -s ' \n' ' ' >help
	grep -q -- '--env NAME=VALUE' help || fail "$cmd --help has no --env"
	grep -q 'sandbox a bot.s environment is PATH, HOME=/tmp, TMPDIR=/tmp and LANG only' help ||
		fail "$cmd --help does not say what a sandboxed bot's environment is"
	if "$arena" $cmd --env NOEQUALS a b >out 2>&1; then fail "$cmd --env NOEQUALS accepted"; fi
	grep -q 'expected NAME=VALUE' out || fail "$cmd --env NOEQUALS: $(cat out)"
done
echo "test_e2e_env: --env reaches the bots of play, check and sprt"
