#!/usr/bin/env bash
# `skipbo-arena host account add/list/revoke` as a user runs it: the token on
# stdout alone and once, a hint on stderr, the file 0600 and without the
# token, the list without hashes, and every refusal with its message and
# exit status.
#   test_host_account.sh ARENA
set -euo pipefail
arena=$1
work=$(mktemp -d /tmp/skipbo-host-account.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
mkdir C
fail() { echo "FAIL: $*" >&2; exit 1; }
# expect STATUS TEXT COMMAND...: the exit status and a piece of stderr
expect() {
	local want=$1 text=$2 got=0
	shift 2
	"$arena" "$@" >out.txt 2>err.txt || got=$?
	[ "$got" -eq "$want" ] || fail "$* exited $got, not $want: $(cat err.txt)"
	grep -qF -- "$text" err.txt || fail "$*: no \"$text\" in: $(cat err.txt)"
}

"$arena" host --help | grep -q "skipbo-arena host account add \[--worker \[--trusted\] | --organiser\] DIR NAME" || fail "--help"
"$arena" host --help | grep -q "skipbo-arena host \[--listen ADDR:PORT\] \[--cert FILE --key FILE\] \[-j N\] DIR" || fail "--help"
"$arena" --help | grep -q "^  host " || fail "host missing from skipbo-arena --help"

"$arena" host account add C alice >token 2>hint || fail "add alice: $(cat hint)"
[ "$(wc -l <token)" -eq 1 ] || fail "stdout holds more than the token: $(cat token)"
grep -qxE 'sbt_[0-9a-f]{64}' token || fail "not a token: $(cat token)"
grep -q 'author "alice" added; the token above is shown only this once' hint || fail "hint: $(cat hint)"
[ "$(stat -c %a C/accounts.jsonl)" = 600 ] || fail "accounts.jsonl is $(stat -c %a C/accounts.jsonl), not 600"
! grep -qF "$(cat token)" C/accounts.jsonl || fail "the token is stored"
! grep -qF "$(cut -c5- token)" C/accounts.jsonl || fail "the token's random part is stored"
hash=$(tr -d '\n' <token | sha256sum | cut -d' ' -f1)
grep -qF "\"token_sha256\":\"$hash\"" C/accounts.jsonl || fail "its hash is not stored"

"$arena" host account add --worker C w1 >token2 2>/dev/null || fail "add --worker"
"$arena" host account add --worker --trusted C w2 >/dev/null 2>&1 || fail "add --worker --trusted"
"$arena" host account add --organiser C org >/dev/null 2>hint || fail "add --organiser"
grep -q 'organiser "org" added' hint || fail "hint: $(cat hint)"
[ "$(cat token)" != "$(cat token2)" ] || fail "two accounts, one token"

"$arena" host account list C >list || fail list
grep -qE '^alice +author +live ' list || fail "list: $(cat list)"
grep -qE '^w1 +worker +live ' list || fail "list: $(cat list)"
grep -qE '^w2 +worker\+ +live ' list || fail "list: $(cat list)"
grep -qE '^org +organiser +live ' list || fail "list: $(cat list)"
! grep -qF "$hash" list || fail "the list shows a hash"

# refusals
expect 1 'host account add: "alice" has an account already: to give it a new token, revoke it first (skipbo-arena host account revoke C alice)' host account add C alice
expect 1 'host account add: "../x": expected a name of 1 to 64 bytes of letters' host account add C ../x
expect 1 'host account add: "": expected a name of 1 to 64 bytes of letters' host account add C ""
expect 1 'host account revoke: no live account "bob" in "C"' host account revoke C bob
expect 1 'host account add: "nodir" is not a directory' host account add nodir alice
expect 2 'host account add: expected DIR NAME' host account add C
expect 2 'host account list: expected DIR' host account list C extra
expect 2 'host account: expected add, revoke or list' host account remove C alice
expect 2 'host account revoke: --worker is an option of "account add" only' host account revoke --worker C alice
expect 2 'host account add: --worker or --organiser, not both' host account add --worker --organiser C x
expect 2 'host account add: --trusted goes with "account add --worker" only' host account add --trusted C x
expect 2 'host: expected DIR, the competition' host C extra
expect 2 'host: --organiser is an option of "account add"' host --organiser C
expect 1 'a hosted competition is a league' host C

"$arena" host account revoke C alice >out.txt || fail "revoke alice"
grep -q 'revoked "alice"' out.txt || fail "revoke said: $(cat out.txt)"
"$arena" host account list C | grep -qE '^alice +author +revoked +[0-9T:Z-]+ +[0-9T:Z-]+$' || fail "alice not shown revoked"
expect 1 'no live account "alice"' host account revoke C alice
"$arena" host account add C alice >token3 2>/dev/null || fail "a revoked name added again"
[ "$(cat token3)" != "$(cat token)" ] || fail "the same token again"

# a damaged line: named with its file and line, and what to do
echo '{"event":"add","name":"x"}' >>C/accounts.jsonl
expect 1 '"C/accounts.jsonl", line 7: a key is missing or not a string; the file is written only by `skipbo-arena host account`' host account list C
echo "host account: ok"
