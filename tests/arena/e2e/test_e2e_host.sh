#!/usr/bin/env bash
# A competition day (issue 36): `skipbo-arena host` started, 11 authors added,
# bots submitted with `submit` in four kit languages (python, javascript, c,
# cpp): unchanged starter kits, one that does not build, one that crashes at
# start, one that makes an illegal move, one that times out. Each ends in its
# state with its reason; the good ones are ranked (`status`, `report`). The host
# is killed with -9 in the middle of a build and again in the middle of play,
# and the same command resumes: no acknowledged submission lost, no game lost
# or recorded twice. `submit --wait` follows a new version until it is entered
# and a broken one until it fails, with its log's end; the organiser's disable
# retires the entry. An eleventh author's bot reads what the host keeps (tokens,
# records, another author's upload and tree) and gets nothing, in the check and in play.
#   test_e2e_host.sh ARENA STARTER_DIR
set -euo pipefail
arena=$1 starter=$2
work=$(mktemp -d /tmp/skipbo-host-day.XXXXXX)
chmod 755 "$work"
pid=
trap '[ -z "$pid" ] || kill -9 "$pid" 2>/dev/null; rm -rf "$work"' EXIT
cd "$work"
starts=0
fail() { echo "FAIL: $*" >&2; [ ! -e host$starts.out ] || tail -30 host$starts.out >&2; exit 1; }
wait_for() {
	local limit=$(($1 * 10)); shift
	for ((i = 0; i < limit; i++)); do "$@" && return 0; sleep 0.1; done
	fail "waited in vain for: $*"
}
start() {
	starts=$((starts + 1))
	"$arena" host --listen 127.0.0.1:0 -j 2 C >host$starts.out 2>&1 & pid=$!
	wait_for 30 grep -q "^hosting C at " host$starts.out
	url=$(grep "^hosting C at " host$starts.out | sed 's/^hosting C at \([^ ]*\) .*/\1/')
}
kill9() { kill -9 "$pid"; wait "$pid" 2>/dev/null || true; pid=; }
state_is() { grep -q "\"id\":$1,\"state\":\"$2\"" C/submissions.jsonl; }
any_state() { grep -q "\"state\":\"$1\"" C/submissions.jsonl 2>/dev/null; }
# the last state of submission N, from the API as its author sees it
api_state() {
	curl -sS -H "Authorization: Bearer $(cat "$1.token")" "${url}api/submissions/$2"
}
games() { grep -c . C/games.jsonl 2>/dev/null || true; }
more_games_than() { [ "$(games)" -gt "$1" ]; }

mkdir C
# The league's bots sandboxed, sealed, where the machine allows it: each sees its own tree
# in DIR/submissions/ID/tree and nothing else of DIR (league_hide.h); the check plays sealed
# too, as the league will.
sandbox=off
! bwrap --ro-bind / / true 2>/dev/null || sandbox=on
[ $sandbox = off ] || [ "$(stat -f -c %T /dev/shm)" != tmpfs ] || sandbox=sealed
cat >C/league.jsonc <<EOF
{
  "name": "day",
  "bots": [],
  "players": 2,
  "rules": { "stock_size": 5 },
  "time": { "move_ms": 5000, "game_ms": 60000 },
  "sandbox": "$sandbox",
  "league": { "anchors": { "skipbo-medium": 0 }, "floor": 2, "stop_when_separated": false }
}
EOF
echo '{ "per_day": 5, "builds": 2, "check_games": 2 }' >C/host.jsonc
for a in a1 a2 a3 a4 a5 a6 a7 a8 a9 a10 a11; do
	"$arena" host account add C $a >$a.token 2>/dev/null || fail "account $a"
done
"$arena" host account add --organiser C org >org.token 2>/dev/null || fail "account org"

# the bots: kits as they are, and kits spoilt
cp -r "$starter/python" py-kit
cp -r "$starter/javascript" js-kit
cp -r "$starter/c" c-kit
cp -r "$starter/cpp" cpp-kit
cp -r "$starter/c" c-broken
echo 'this is not C' >>c-broken/bot.c
mkdir py-crash
printf 'import sys\nsys.exit(3)\n' >py-crash/bot.py
cp -r "$starter/python" py-illegal
sed -i 's/^def choose(view, legal):$/&\n    return {"action": "nonsense"}/' py-illegal/bot.py
cp -r "$starter/python" py-slow
sed -i 's/^def choose(view, legal):$/&\n    import time; time.sleep(600)/' py-slow/bot.py
grep -q nonsense py-illegal/bot.py && grep -q sleep py-slow/bot.py || fail "the spoilt kits"
tar -czf js-kit.tar.gz -C js-kit .
# a bot that reads what the host keeps: every line of its log says what it got
cp -r "$starter/python" snoop
{
	head -1 "$starter/python/bot.py"
	cat <<EOF
import os as _os, sys as _sys
for _p in ["$work/C/accounts.jsonl", "$work/C/games.jsonl", "$work/C/entries.jsonl",
           "$work/C/league.jsonc", "$work/C/submissions.jsonl", "$work/C/submissions/1/upload",
           "$work/C/submissions/1/tree/bot.py", "../upload", "../build.log",
           "../../1/tree/bot.py", "$work/a1.token"]:
    try:
        with open(_p, "rb") as _f:
            print("snoop: READ %d bytes of %s" % (len(_f.read(64)), _p), file=_sys.stderr, flush=True)
    except OSError as _e:
        print("snoop: cannot read %s: %s" % (_p, _e.strerror), file=_sys.stderr, flush=True)
for _d in ["$work/C", "$work/C/submissions", ".."]:
    try:
        print("snoop: LISTED %s: %s" % (_d, _os.listdir(_d)), file=_sys.stderr, flush=True)
    except OSError as _e:
        print("snoop: cannot list %s: %s" % (_d, _e.strerror), file=_sys.stderr, flush=True)
EOF
	tail -n +2 "$starter/python/bot.py"
} >snoop/bot.py

start
submit() {
	local author=$1; shift
	"$arena" submit --token-file $author.token "$url" "$@" >>submit.out 2>&1 ||
		fail "submit $*: $(tail -3 submit.out)"
}
submit a1 py-kit py-kit
submit a2 js-kit js-kit.tar.gz
submit a3 c-kit c-kit
submit a4 cpp-kit cpp-kit
submit a5 c-broken c-broken
submit a6 py-crash py-crash
submit a7 py-illegal py-illegal
submit a8 py-slow py-slow
submit a9 py-kit-2 py-kit
submit a10 js-kit-2 js-kit.tar.gz
submit a11 snoop snoop
[ "$(grep -c '"event":"received"' C/submissions.jsonl)" -eq 11 ] || fail "not 11 received"

# kill -9 in the middle of a build; the same command takes it again
wait_for 120 any_state building
kill9
start
for n in 1 2 3 4 5 6 7 8 9 10; do
	api_state a$n $n | grep -q "\"id\":$n," || fail "submission $n lost after kill -9"
done

# each ends where it should, with its reason
ended() { grep -q "\"id\":$1,\"state\":\"\(entered\|failed\)\"" C/submissions.jsonl; }
all_ended() { for n in 1 2 3 4 5 6 7 8 9 10 11; do ended $n || return 1; done; }
# one wait for all: builds run at SCHED_IDLE, two at a time, and beside a second suite
# they get a CPU only when the league's games leave one idle
for ((i = 0; i < 9000; i++)); do all_ended && break; sleep 0.1; done
all_ended || fail "not ended after 900 s: submissions $(for n in 1 2 3 4 5 6 7 8 9 10 11; do
	ended $n || echo -n "$n "; done)(C/submissions.jsonl: $(tail -3 C/submissions.jsonl))"
for n in 1 2 3 4 9 10 11; do state_is $n entered || fail "submission $n: $(api_state a$n $n)"; done
for n in 5 6 7 8; do state_is $n failed || fail "submission $n: $(api_state a$n $n)"; done
api_state a5 5 | grep -q '"stage":"building"' || fail "the broken C: $(api_state a5 5)"
for n in 6 7 8; do
	api_state a$n $n | grep -q '"stage":"checking"' || fail "submission $n: $(api_state a$n $n)"
done
api_state a6 6 | grep -qi 'start\|exit' || fail "the crash's reason: $(api_state a6 6)"
api_state a7 7 | grep -qi 'illegal\|move' || fail "the illegal move's reason: $(api_state a7 7)"
api_state a8 8 | grep -qi 'time' || fail "the timeout's reason: $(api_state a8 8)"
curl -sS -H "Authorization: Bearer $(cat a5.token)" "${url}api/submissions/5/build.log" |
	grep -q 'error' || fail "the broken C's build.log"

# play: kill -9 in the middle of it; no game lost or recorded twice
wait_for 120 more_games_than 20
before=$(games)
kill9
after_kill=$(games)
[ "$after_kill" -ge "$before" ] || fail "games lost at kill -9"
start
wait_for 120 more_games_than $((after_kill + 20))
ids=$(grep -o '"id":"[^"]*"' C/games.jsonl | sort | uniq -d | head -3)
[ -z "$ids" ] || fail "games recorded twice: $ids"

# --wait: a new version followed until entered; a broken one until it fails, with its log
"$arena" submit --wait --token-file a3.token "$url" c-kit c-kit >wait.out 2>&1 ||
	fail "submit --wait of a good version: $(cat wait.out)"
grep -q "^entered as c-kit@2$" wait.out || fail "submit --wait: $(cat wait.out)"
"$arena" submit --wait --token-file a5.token "$url" c-broken c-broken >wait.out 2>&1 &&
	fail "submit --wait of a broken build exited 0"
grep -q "^failed at building: " wait.out && grep -q "the end of build.log" wait.out ||
	fail "submit --wait of a broken build: $(cat wait.out)"
# the organiser disables the new version: its entry retired from the league
n=$(sed -n 's/^{"event":"received","id":\([0-9]*\),"author":"a3".*/\1/p' C/submissions.jsonl |
	tail -1)
curl -sS -X POST -H "Authorization: Bearer $(cat org.token)" \
	"${url}api/submissions/$n/disable" | grep -q '"disabled":true' || fail "disable"
grep -q '"event":"retire","name":"c-kit@2"' C/entries.jsonl || fail "c-kit@2 not retired"

kill -TERM "$pid"
wait "$pid" || fail "host exit status $?"
pid=

# the good ones are ranked, having played without a fault of theirs
"$arena" report C >report.out 2>&1 || fail "report: $(tail -5 report.out)"
for bot in py-kit js-kit cpp-kit py-kit-2 js-kit-2; do
	grep -qE "^ *[0-9]+ +$bot +-?[0-9].* -$" report.out ||
		fail "$bot not ranked without faults: $(cat report.out)
$(grep -o '"reason":"[^"]*"' C/games.jsonl | sort | uniq -c)"
	! grep -q "\"$bot\" is suspended" host*.out || fail "$bot suspended: $(grep -h "$bot" host*.out)"
done
for bot in c-broken py-crash py-illegal py-slow; do
	! grep -q " $bot " report.out || fail "$bot ranked"
done
grep -q "\"sandbox\":[[:space:]]*\"$sandbox\"" C/tournament.json ||
	fail "the league did not run $sandbox: $(grep sandbox C/tournament.json)"
# the snooping bot played (in the check and in the league) and got nothing of the host's
[ $sandbox != off ] || { echo "host day: ok (the snooping bot not judged: no sandbox here)"; exit 0; }
snooped=$(cat C/submissions/11/check.log C/logs/snoop*.stderr 2>/dev/null | grep "snoop: " || true)
[ "$(grep -c "snoop: cannot read $work/a1.token" <<<"$snooped")" -ge 2 ] ||
	fail "the snooping bot's log, in the check and the league: $snooped"
! grep -q "snoop: READ" <<<"$snooped" ||
	fail "a bot read what the host keeps: $(grep "READ" <<<"$snooped" | sort -u)"
# what it can list is the way down to its own folder, which it knows, and nothing beside it
listed=$(grep -o "snoop: LISTED .*" <<<"$snooped" | sort -u |
	grep -vxF -e "snoop: LISTED ..: ['tree']" -e "snoop: LISTED $work/C/submissions: ['11']" \
		-e "snoop: LISTED $work/C: ['submissions']" || true)
[ -z "$listed" ] || fail "a bot listed what the host keeps: $listed"
echo "host day: ok"
