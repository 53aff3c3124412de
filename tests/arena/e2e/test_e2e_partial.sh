#!/usr/bin/env bash
# A report of a tournament not yet complete says so in every format, with how
# many games of how many are recorded and the time left: report.md, report.html,
# ratings.json and the printed table. A complete one does not.
#   test_e2e_partial.sh ARENA BADBOT
set -euo pipefail
arena=$1 badbot=$2
work=$(mktemp -d /tmp/skipbo-partial.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "test_e2e_partial: $*" >&2; exit 1; }

cat >t.json <<EOF
{ "name": "p", "bots": [
  { "name": "a", "command": ["$badbot", "good"] },
  { "name": "b", "command": ["$badbot", "good"] },
  { "name": "c", "command": ["$badbot", "good"] } ],
  "deals": 10, "rules": { "stock_size": 3 }, "sandbox": "off", "output": "out" }
EOF
"$arena" run --quiet t.json >/dev/null
"$arena" report out >table
! grep -q -i partial table out/report.md || fail "a complete tournament is called partial"
# the first 20 of its 60 games, as while it runs, started an hour ago
head -n 20 out/games.jsonl >games && mv games out/games.jsonl
hour_ago=$(date -u -d '-1 hour' +%Y-%m-%dT%H:%M:%SZ)
sed -i "s/\"started\":[[:space:]]*\"[^\"]*\"/\"started\": \"$hour_ago\"/" out/tournament.json
"$arena" report out >table
want="Partial: 20 of 60 games recorded (33.3%)"
grep -qF "$want" table || fail "the table: $(cat table)"
grep -qF "Partial: 20 of 60 games recorded" out/report.md || fail "report.md: $(head -5 out/report.md)"
grep -qF "$want" out/report.html || fail "report.html has no \"$want\""
grep -q '"games_recorded":[[:space:]]*20' out/ratings.json &&
	grep -q '"games_expected":[[:space:]]*60' out/ratings.json &&
	grep -q '"partial":[[:space:]]*true' out/ratings.json || fail "ratings.json: $(head -c 400 out/ratings.json)"
# 40 games left at 20 an hour
grep -q 'about 2 h left at the rate so far' table || fail "no time left: $(cat table)"
echo "test_e2e_partial: a partial report says 20 of 60 games and the time left"
