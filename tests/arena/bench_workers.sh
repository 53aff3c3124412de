#!/usr/bin/env bash
# A league on workers against the same league in process (issue 37,
# arena/WORKERS.md), a benchmark run by hand for README.md, not a test.
#   bash tests/arena/bench_workers.sh BUILD [GAMES [STOCK [POLLERS [SECONDS]]]]
#
# (a) games/s of one league (skipbo-medium and skipbo-hard, the easy anchor,
#     2 players, stock STOCK (10), sandbox off, GAMES games (4000)) played
#     by `league -j 2` in process, then by `host -j 0` and two
#     `work -j 1` on trusted accounts, on this machine, in turn: each timed
#     from its start to "max_games reached";
# (b) the host's CPU (utime + stime of /proc/PID/stat) in run (a), per game
#     handed out and taken back;
# (c) POLLERS (200) simulated workers asking `POST /api/work/lease` for
#     SECONDS (30) s (bench_workers_poll.py): each asks once a second, and
#     gives back at once a lease it gets ("stopping"), so the host answers
#     both real leases and 204s; the latency of each ask (p50, p99, max) and
#     the host's CPU over the window.
set -euo pipefail
build=$(cd "$1" && pwd)
games=${2:-4000} stock=${3:-10} pollers=${4:-200} seconds=${5:-30}
arena=$build/arena/skipbo-arena
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/skipbo-bench-workers.XXXXXX)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null; rm -rf "$work"' EXIT
cd "$work"
export PATH=$build/bots:$PATH
tick=$(getconf CLK_TCK)

league() {
	mkdir "$1"
	cat >"$1/league.jsonc" <<JSON
{
  "name": "bench",
  "bots": [ { "name": "medium", "command": ["skipbo-medium"] },
            { "name": "hard", "command": ["skipbo-hard"] } ],
  "players": 2,
  "rules": { "stock_size": $stock },
  "sandbox": "off",
  "seed": "37",
  "league": { "anchors": { "skipbo-easy": 0 }, "floor": 2, "max_games": $2,
              "stop_when_separated": false }
}
JSON
	echo '{ "replay_sample": 0 }' >"$1/host.jsonc"
}
now() { date +%s.%N; }
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
games_in() { local n; n=$(grep -c . "$1/games.jsonl" 2>/dev/null) || true; echo "${n:-0}"; }
start_host() {
	"$arena" host --listen 127.0.0.1:0 -j 0 "$1" >"$1.out" 2>&1 &
	host=$!
	pids+=("$host")
	for ((i = 0; i < 300; i++)); do grep -qs "^hosting $1 at " "$1.out" && break; sleep 0.1; done
	url=$(sed -n "s/^hosting $1 at \([^ ]*\) .*/\1/p" "$1.out")
	[ -n "$url" ] || { cat "$1.out"; exit 1; }
}

# (a) in process
league one "$games"
t0=$(now)
"$arena" league -j 2 one >one.out 2>&1
t1=$(now)
inproc=$(echo "scale=1; $(games_in one) / ($t1 - $t0)" | bc)
echo "(a) league -j 2 in process: $(games_in one) games in $(echo "$t1 - $t0" | bc | cut -c1-6) s = $inproc games/s (load $(cut -d' ' -f1-3 /proc/loadavg))"

# (a), (b) on two workers of one CPU each
league two "$games"
for w in w1 w2; do "$arena" host account add --worker --trusted two $w >$w.token 2>/dev/null; done
t0=$(now)
start_host two
c0=$(cpu_ticks "$host")
for w in w1 w2; do
	"$arena" work --token-file $w.token -j 1 "$url" >$w.out 2>&1 &
	pids+=($!)
done
for ((i = 0; i < 36000; i++)); do
	grep -q "max_games reached" two.out && break
	sleep 0.1
done
t1=$(now)
c1=$(cpu_ticks "$host")
n=$(games_in two)
remote=$(echo "scale=1; $n / ($t1 - $t0)" | bc)
echo "(a) host -j 0 and 2 x work -j 1: $n games in $(echo "$t1 - $t0" | bc | cut -c1-6) s = $remote games/s: $(echo "scale=1; 100 * $remote / $inproc" | bc)% of in process"
echo "(b) the host's CPU: $(echo "scale=3; ($c1 - $c0) / $tick" | bc) s for $n games = $(echo "scale=1; 1000000 * ($c1 - $c0) / $tick / $n" | bc) us a game"
for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
wait 2>/dev/null || true
pids=()

# (c) simulated workers polling a host with work to hand out
league three 0
"$arena" host account add --worker --trusted three poller >poller.token 2>/dev/null
start_host three
python3 "$here/bench_workers_poll.py" "$url" "$(cat poller.token)" "$("$arena" --version | cut -d' ' -f2)" \
	"$pollers" "$seconds" "$host"
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
