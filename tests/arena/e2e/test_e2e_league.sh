#!/usr/bin/env bash
# A league while it runs (arena/LEAGUE.md): a bad league.jsonc refused at the
# start with FILE:LINE:COLUMN; entries added and retired mid-run; a new
# version NAME@2 linked to the one it replaces; a changed program held out
# with how to enter the new version; a bad edit refused while the league
# plays on with its last good settings; a bot that never starts suspended;
# kill -9 and the same command resuming with no finished game lost and every
# deal whole; a challenge recorded apart and never rated; status and report
# over the league's directory, and merge refusing it; the stop rule; a bot the sandbox
# cannot run suspended. Uses badbot and the bundled skipbo-medium.
#   test_e2e_league.sh ARENA BADBOT
set -euo pipefail
arena=$1 badbot=$2
work=$(mktemp -d /tmp/skipbo-league.XXXXXX)
chmod 755 "$work"
pid=
trap '[ -z "$pid" ] || kill -9 "$pid" 2>/dev/null; rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*" >&2; [ ! -e out.txt ] || tail -20 out.txt >&2; exit 1; }
# wait_for SECONDS COMMAND...: until the command succeeds, or fail
wait_for() {
	local limit=$(($1 * 10)); shift
	for ((i = 0; i < limit; i++)); do "$@" && return 0; sleep 0.1; done
	fail "waited in vain for: $*"
}
games() { cat L/games.jsonl 2>/dev/null | grep -c . || true; }
more_games_than() { [ "$(games)" -gt "$1" ]; }
played() { grep -q "\"bots\":\[[^]]*\"$1\"" L/games.jsonl; }
said() { grep -q -- "$1" out.txt; }
start() { "$arena" league -j 2 L >>out.txt 2>&1 & pid=$!; }
stop() { kill -TERM "$pid"; wait "$pid" || fail "league exit status $?"; pid=; }

mkdir L bin
cp "$badbot" bin/a
cp "$badbot" bin/c
cat >L/good.jsonc <<EOF
{
  "name": "e2e",
  "bots": [ { "name": "a", "command": ["$work/bin/a", "good"] },
            { "name": "b", "command": ["$badbot", "good"] } ],
  "players": 2,
  "rules": { "stock_size": 5 },
  "league": { "anchors": { "skipbo-medium": 0 }, "floor": 2, "stop_when_separated": false }
}
EOF
# A bad file at the start: every error at its FILE:LINE:COLUMN, nothing played.
sed 's/"floor": 2/"floor": "two"/; s/"players": 2,/"players": 2, "deals": 3,/' L/good.jsonc >L/league.jsonc
"$arena" league L 2>err.txt && fail "a bad league.jsonc ran"
grep -q 'league.jsonc:7:[0-9]*: league.floor: expected an integer' err.txt || fail "$(cat err.txt)"
grep -q 'league.jsonc:5:[0-9]*: deals: not a key of a league' err.txt || fail "$(cat err.txt)"
[ ! -e L/games.jsonl ] || fail "a refused league played"

cp L/good.jsonc L/league.jsonc
start
wait_for 20 more_games_than 10
played a && played b && played skipbo-medium || fail "the declared bots and the anchor do not all play"

# Added while it runs: plays; retired while it runs: no game after its in-flight ones and
# the other rotations of its deals of the current block (32 deals, arena/LEAGUE.md).
# Slips refused before anything is entered: a name twice in one command, an anchor's name.
"$arena" league add L "c=$work/bin/c good" "c=$work/bin/c good" 2>err.txt &&
	fail "a name twice in one command was entered"
grep -q '"c" is named twice in one command' err.txt || fail "$(cat err.txt)"
"$arena" league add L "skipbo-medium=$badbot good" 2>err.txt && fail "an anchor was replaced"
grep -q '"skipbo-medium" is an anchor of the league.*out of "anchors" first' err.txt ||
	fail "$(cat err.txt)"
grep -q '"name":"c"\|"name":"skipbo-medium","previous"' L/entries.jsonl &&
	fail "a refused add wrote an entry"
"$arena" league add L "c=$work/bin/c good" | grep -q 'entered "c"' || fail "league add c"
# The same command again (after a crash, say) finds its work done: exit 0, nothing new.
"$arena" league add L "c=$work/bin/c good" >again.txt || fail "league add c again: exit $?"
grep -q '"c" is entered already' again.txt || fail "league add c again: $(cat again.txt)"
wait_for 20 played c
"$arena" league retire L b | grep -q 'retired "b"' || fail "league retire b"
"$arena" league retire L b >again.txt || fail "league retire b again: exit $?"
grep -q '"b" is retired already (retired by `league retire`): nothing to do' again.txt ||
	fail "league retire b again: $(cat again.txt)"
n=$(games)
wait_for 30 more_games_than $((n + 100))
tail -n +$((n + 60)) L/games.jsonl | grep -q '"b"' && fail "b played after it was retired"
# A retire undone: b plays again.
"$arena" league return L b | grep -q '"b" is back in play' || fail "league return b"
n=$(games)
played_since() { tail -n +$(($1 + 1)) L/games.jsonl | grep -q "\"bots\":\[[^]]*\"$2\""; }
wait_for 30 played_since "$n" b

# A new version: NAME@2, linked to NAME, which retires and stays on the board.
cp "$badbot" bin/c.new && printf x >>bin/c.new && mv bin/c.new bin/c
wait_for 20 said 'held out of play'
said 'skipbo-arena league add .* c=COMMAND' || fail "the refusal does not say how to enter c@2"
"$arena" league add L "c=$work/bin/c good" | grep -q 'entered "c@2" (a new version of "c"' ||
	fail "no new version"
grep -q '"name":"c@2","previous":"c"' L/entries.jsonl || fail "c@2 not linked to c"
wait_for 20 played c@2

# A bad edit: refused once with its place; the league plays on.
sed 's/"players": 2/"players": "two"/' L/good.jsonc >L/league.jsonc
wait_for 20 said 'the edit is refused'
grep -q 'league.jsonc:5:.*players: expected an integer' out.txt || fail "bad edit not placed"
n=$(games)
wait_for 20 more_games_than $((n + 20))
[ "$(grep -c 'the edit is refused' out.txt)" = 1 ] || fail "the refusal said more than once"
cp L/good.jsonc L/league.jsonc

# A bot that never starts is suspended after suspend_after (3) games with a start fault.
"$arena" league add L "dead=$badbot exit-at-start" >/dev/null
wait_for 30 said '"dead" is suspended'

# kill -9 loses no finished game: the records before it stay, every deal ends whole.
kill -9 "$pid"; wait "$pid" 2>/dev/null || true; pid=
n=$(games)
head -n "$n" L/games.jsonl >before.jsonl
start
wait_for 20 more_games_than $((n + 20))
stop
cmp -s before.jsonl <(head -n "$n" L/games.jsonl) || fail "records before the kill changed"
[ -z "$(grep -o '"id":"[^"]*"' L/games.jsonl | sort | uniq -d)" ] || fail "a game recorded twice"
# the deals the kill left with a rotation missing are whole after the resume
deals() { grep -o '"id":"t[0-9]*-d0000' "$1" | sort | uniq -c; }
for deal in $(deals before.jsonl | awk '$1 == 1 { print $2 }'); do
	[ "$(grep -c -- "$deal-" L/games.jsonl)" = 2 ] || fail "$deal not whole after the resume"
done
[ -z "$(deals L/games.jsonl | awk '$1 > 2')" ] || fail "a deal with more than two games"

# status and report read the league's directory.
"$arena" status L >status.txt || fail "status: $(cat status.txt)"
grep -q "L: league: $(games) games recorded" status.txt || fail "status: $(cat status.txt)"
grep -q 'dead: suspended' status.txt || fail "status: no suspension: $(cat status.txt)"
grep -q 'c: retired (replaced by c@2)' status.txt || fail "status: $(cat status.txt)"
"$arena" report L >report.txt 2>&1 || fail "report: $(cat report.txt)"
grep -q 'c@2' L/report.md || fail "report.md without c@2"
# the league's section: its history, each entry's status, the versions
[ -s L/history.jsonl ] || fail "no history.jsonl"
grep -q '^## League' L/report.md || fail "report.md without the league's section"
grep -q 'c → c@2' L/report.md || fail "report.md without the lineage c → c@2"
grep -q 'suspended' L/report.md || fail "report.md does not say dead is suspended"
grep -q 'c &rarr; c@2' L/report.html || fail "report.html without the lineage"
grep -q 'Partial' report.txt && fail "a league's report called partial"
# the ranking holds the anchor at its league Elo, as the league rates it
python3 - L/ratings.json <<'PY' || fail "report's ranking does not fix the anchor at 0"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["fixed"] == {"skipbo-medium": 0}, r.get("fixed")
med = [b for b in r["bots"] if b["bot"] == "skipbo-medium"][0]
assert med["elo"] == 0 and med["ci95"] == 0, med
PY

# merge takes shards of one tournament: a league's directory is refused, saying so.
"$arena" merge merged L 2>err.txt && fail "merge of a league's directory succeeded"
grep -q "is a league's directory" err.txt || fail "merge: $(cat err.txt)"

# A challenge: its own directory, the league's games untouched, resumable.
n=$(games)
"$arena" league challenge --deals 2 L a c@2 >ch.txt || fail "challenge: $(cat ch.txt)"
grep -q 'of 4 games' ch.txt || fail "challenge: $(cat ch.txt)"
[ "$(games)" = "$n" ] || fail "a challenge's games went into the league's"
[ "$(grep -c . 'L/challenges/a-vs-c@2-2/games.jsonl')" = 4 ] || fail "challenge records"
"$arena" status 'L/challenges/a-vs-c@2-2' | grep -q complete || fail "challenge status"
# Too few entries to play: the league waits, and plays once one is added.
mkdir W
cat >W/league.jsonc <<EOF
{ "name": "w", "players": 2, "rules": { "stock_size": 5 },
  "bots": [ { "name": "a", "command": ["$badbot", "good"] } ],
  "league": { "anchors": {}, "max_games": 10 } }
EOF
"$arena" league W >w.txt 2>&1 & pid=$!
wait_for 20 grep -q 'waiting for `skipbo-arena league add`' w.txt
"$arena" league add W "b=$badbot good" >/dev/null
wait "$pid" || fail "league W: $(cat w.txt)"; pid=
grep -q 'max_games reached' w.txt || fail "league W: $(cat w.txt)"

# The stop rule: a first-legal-move bot against the medium reference bot is soon apart at 95%.
mkdir R
cat >R/league.jsonc <<EOF
{ "name": "r", "players": 2, "rules": { "stock_size": 5 },
  "bots": [ { "name": "a", "command": ["$badbot", "good"] },
            { "name": "m", "command": ["skipbo-medium"] } ],
  "league": { "anchors": {}, "floor": 2, "max_games": 2000 } }
EOF
"$arena" league -j 2 R >r.txt 2>&1 || fail "league R: $(cat r.txt)"
grep -q 'every adjacent pair is apart at 95%' r.txt || fail "no stop by the rule: $(tail -3 r.txt)"

# A bot the sandbox cannot run (as root: a file its uids cannot read) is suspended, saying
# why, and the league plays on without it (only where the league ran sandboxed, as root).
if [ "$(id -u)" = 0 ] && grep -Eq '"sandbox":[[:space:]]*"(on|sealed)"' L/tournament.json; then
	mkdir -m 700 hidden S
	cp "$badbot" hidden/bot
	cat >S/league.jsonc <<EOF
{ "name": "s", "players": 2, "rules": { "stock_size": 5 },
  "bots": [ { "name": "a", "command": ["$badbot", "good"] },
            { "name": "b", "command": ["$badbot", "good"] },
            { "name": "h", "command": ["$work/hidden/bot", "good"] } ],
  "league": { "anchors": {}, "max_games": 10 } }
EOF
	"$arena" league S >s.txt 2>&1 || fail "league S: $(cat s.txt)"
	grep -q '"h" is suspended: sandbox: bot "h"' s.txt || fail "$(cat s.txt)"
	grep -q 'max_games reached' s.txt || fail "$(cat s.txt)"
fi
[ ! -e S ] || echo "sandbox suspension checked"
echo ok
