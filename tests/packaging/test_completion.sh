#!/bin/bash
# usage: test_completion.sh SKIPBO_ARENA COMPLETION_FILE
# The bash completion as bash runs it: COMP_WORDS and COMP_CWORD set, the function that
# `complete -p skipbo-arena` names called, COMPREPLY compared with what must be offered.
# Also: `skipbo-arena COMMAND --version` for every command the completion offers.
set -u
arena=$1
source "$2" || { echo "test_completion: cannot source $2" >&2; exit 1; }
failures=0

fail() { echo "test_completion: $*" >&2; failures=$((failures + 1)); }

spec=$(complete -p skipbo-arena 2>/dev/null) || { echo "test_completion: no completion for skipbo-arena" >&2; exit 1; }
func=$(sed -n 's/.*-F \([^ ]*\) skipbo-arena$/\1/p' <<<"$spec")
[[ -n $func ]] || { echo "test_completion: not a function completion: $spec" >&2; exit 1; }

# offered "WORDS": the candidates for the last word of WORDS (a trailing space: an empty last
# word), sorted, one a line; directories without their '/', which "compopt -o filenames" has
# bash add
offered()
{
	local -a words
	read -ra words <<<"$1"
	[[ $1 == *" " ]] && words+=("")
	COMP_WORDS=("$arena" "${words[@]}")
	COMP_CWORD=${#words[@]}
	COMP_LINE="${COMP_WORDS[*]}"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	"$func" skipbo-arena "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	printf '%s\n' "${COMPREPLY[@]}" | sed '/^$/d' | sort
}

# expect "WORDS" CANDIDATE...: exactly these
expect()
{
	local words=$1 got want
	shift
	got=$(offered "$words")
	want=$(printf '%s\n' "$@" | sed '/^$/d' | sort)
	[[ $got == "$want" ]] || fail "\"skipbo-arena $words\": offered [$(echo $got)], expected [$(echo $want)]"
}

# includes "WORDS" CANDIDATE...: at least these; excludes "WORDS" CANDIDATE...: none of these
includes()
{
	local words=$1 got c
	shift
	got=$(offered "$words")
	for c in "$@"; do
		grep -qxF -- "$c" <<<"$got" || fail "\"skipbo-arena $words\": $c not offered (offered [$(echo $got)])"
	done
}
excludes()
{
	local words=$1 got c
	shift
	got=$(offered "$words")
	for c in "$@"; do
		! grep -qxF -- "$c" <<<"$got" || fail "\"skipbo-arena $words\": $c offered but must not be"
	done
}

commands=$("$arena" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
[[ $(wc -w <<<"$commands") -ge 8 ]] || fail "fewer than 8 commands in --help: $commands"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
mkdir out replays
touch t.jsonc t.json game.json notes.txt
chmod +x notes.txt

# the commands, and the program's own options
expect " " $commands --help --version
expect "r" run replay report
expect "--v" --version
# each command's options, from its own --help
includes "run --" --jobs --output --seed --no-timeout --sandbox --shard --quiet --help --version
excludes "run --" --render --games --anchor
includes "play -" -r --render --match --replay --pin --version --from --quiet-bots --stderr
includes "check --" --games --opponent --partnership --verbose --stderr --quiet-bots
includes "report -" -o --output --anchor --prior --plain-intervals --replays
includes "merge --" --partial --help
includes "sprt --" --elo0 --elo1 --alpha --name-a --max-pairs --stderr --quiet-bots
expect "play --mat" --match
# options added after the others, which the completion (and the man pages) read from --help too
includes "run --" --bot --gauntlet --rating-interval --fresh --concurrency
includes "play --" --from --move --game --game-id --quiet-bots --stderr
includes "replay --" --render --turn --move --game
includes "check --" --quiet-bots --stderr
includes "sprt --" --quiet-bots --stderr
# an option's value, by the name --help gives it
expect "run --sandbox " auto on sealed off
expect "check --sandbox o" on off
expect "run -o " out replays
expect "report --output o" out
expect "play --replay " game.json notes.txt out replays t.json t.jsonc
expect "run --seed " ""
expect "play --move-ms 1" ""
# operands: tournament files, replays, directories, programs
expect "run " game.json out replays t.json t.jsonc
expect "run -j 2 t" t.json t.jsonc
expect "replay " game.json out replays t.json
expect "report " out replays
expect "status r" replays
expect "league " add challenge out replays retire return
expect "league a" add
expect "league add " out replays
includes "league --" --jobs --deals --serve --help --version
expect "host " account out replays
expect "host account " add list revoke
expect "host account add " out replays
expect "host account add out " ""
includes "host account add --" --worker --organiser --listen --help --version
expect "merge out " out replays
expect "serve --listen 127.0.0.1:0 " out replays
includes "check ./" ./notes.txt
# after "--" every word is the bot's
expect "check -- ./x --v" ""
excludes "check -- --" --games --help

# --version as the first argument of every command
version=$("$arena" --version)
[[ $version == skipbo-arena\ [0-9]* ]] || fail "skipbo-arena --version printed \"$version\""
for cmd in $commands; do
	got=$("$arena" "$cmd" --version) || fail "skipbo-arena $cmd --version: exit status $?"
	[[ $got == "$version" ]] || fail "skipbo-arena $cmd --version printed \"$got\", not \"$version\""
done
# not for a command that does not exist
"$arena" nosuch --version >/dev/null 2>&1 && fail "skipbo-arena nosuch --version succeeded"

if ((failures)); then
	echo "test_completion: $failures failed" >&2
	exit 1
fi
echo "test_completion: every candidate as expected; --version on $(wc -w <<<"$commands") commands"
