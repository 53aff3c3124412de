#!/usr/bin/env bash
# The ranking that run prints: 80 columns by default, with long bot names kept
# apart by their start and end and a list of fault kinds wrapped under its
# column; run --wide prints every column and the whole names, at the end and
# at each --rating-interval; run --help says so.
#   test_e2e_console_table.sh ARENA BADBOT
set -euo pipefail
arena=$(realpath "$1") badbot=$(realpath "$2")
work=$(mktemp -d /tmp/skipbo-console.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "test_e2e_console_table: $*" >&2; exit 1; }

long1=an-extremely-long-bot-name-version-2024
long2=an-extremely-long-bot-name-version-2025
cat >t.json <<EOF
{ "name": "console", "bots": [
  { "name": "$long1", "command": ["$badbot", "good"] },
  { "name": "$long2", "command": ["$badbot", "good"] },
  { "name": "an-illegal-mover-bot", "command": ["$badbot", "illegal"] },
  { "name": "dead", "command": ["$badbot", "exit-at-start"] } ],
  "deals": 3, "rules": { "stock_size": 3 }, "sandbox": "off",
  "time": { "move_ms": 2000, "game_ms": 60000 } }
EOF
# exit 3: a bot never started
"$arena" run -j 2 --output out t.json >narrow 2>/dev/null || [ $? -eq 3 ] ||
	fail "run failed: $(cat narrow)"
table=$(sed -n '/^rank /,/^(--wide/p' narrow)
[ -n "$table" ] || fail "no ranking table: $(cat narrow)"
awk 'length($0) > 80 { bad = 1; print "over 80 columns: " $0 } END { exit bad }' <<<"$table" ||
	fail "the narrow table passes 80 columns"
# the two long names stay told apart: start, "...", end
grep -q '^ *[0-9]  an-extr\.\.\.n-2024 ' <<<"$table" || fail "long1 not shortened: $table"
grep -q '^ *[0-9]  an-extr\.\.\.n-2025 ' <<<"$table" || fail "long2 not shortened: $table"
! grep -q "$long1" <<<"$table" || fail "a name over 16 columns printed whole: $table"
grep -q ' start 18$' <<<"$table" || fail "dead's start faults: $table"
# run --wide: the whole names and the move time columns
"$arena" run --wide --output out t.json >wide 2>/dev/null || [ $? -eq 3 ] ||
	fail "run --wide failed: $(cat wide)"
grep -q "mean_us" wide || fail "run --wide: no move time columns: $(cat wide)"
grep -q " $long1 " wide && grep -q " $long2 " wide || fail "run --wide: names cut: $(cat wide)"
! grep -q '^(--wide' wide || fail "run --wide points to --wide"
# --rating-interval prints the wide table with --wide
"$arena" run --fresh --wide --rating-interval 20 -j 1 --output out t.json >interval \
	2>/dev/null || [ $? -eq 3 ] || fail "run --rating-interval failed: $(cat interval)"
grep -q '^ranking after 20 games played:' interval || fail "no interval ranking: $(cat interval)"
[ "$(grep -c 'mean_us' interval)" -ge 2 ] || fail "the interval ranking is not wide: $(cat interval)"
"$arena" run --help | grep -q -- '--wide  *print every column of the ranking' ||
	fail "run --help does not describe --wide"
echo "test_e2e_console_table: 80 columns by default, long names shortened, --wide in full"
