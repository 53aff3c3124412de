#!/usr/bin/env bash
# A hosted build on a machine saturated by other work (arena/HOSTING.md, "The floor
# of a starved build"): does it end?
#   bash tests/arena/bench_floor.sh BUILD [LIMIT_S [COMPILES]]
#
# 1. A host in a fresh directory: a league of the easy and medium bots as
#    anchors, stock 5, sandbox "auto", `host -j 1`, builds 1.
# 2. One CPU hog per CPU (a shell loop at the normal priority), started by
#    this script: in the host's session, so in its autogroup, as a test
#    suite run beside the host from the same shell would be.
# 3. The C starter kit through `submit --wait`, its build compiling bot.c
#    with cc -O2 COMPILES times (default 10, about 0.1 s of CPU each here)
#    before it builds the kit: a fixed amount of work. It is given LIMIT_S
#    (default 400) to be entered. Prints the time, or that it was not
#    entered, its states' times, and what the build's log says of its
#    priority.
set -euo pipefail
build=$(cd "$1" && pwd)
limit=${2:-400}
compiles=${3:-10}
arena=$build/arena/skipbo-arena
src=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/skipbo-bench-floor.XXXXXX)
chmod 755 "$work"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$work"' EXIT
cd "$work"
export PATH=$build/bots:$PATH

mkdir L
cp "$src/tests/arena/bench_league.jsonc" L/league.jsonc
echo '{ "per_day": 50, "builds": 1, "check_games": 2 }' >L/host.jsonc
"$arena" host account add L c >c.token 2>/dev/null
mkdir kit
cp "$src/bots/starter/c/bot.c" kit/
cat >kit/skipbo.json <<EOF2
{"language": "c", "build": "for i in \$(seq $compiles); do cc -std=c11 -O2 \$CFLAGS -c bot.c -o /tmp/bot.o; done; cc -std=c11 -O2 \$CFLAGS bot.c \$LDLIBS -o bot"}
EOF2

"$arena" host --listen 127.0.0.1:0 -j 1 L >host.out 2>&1 &
pids+=($!)
for ((i = 0; i < 300; i++)); do grep -qs "^hosting L at " host.out && break; sleep 0.1; done
url=$(sed -n 's/^hosting L at \([^ ]*\) .*/\1/p' host.out)
[ -n "$url" ] || { cat host.out; exit 1; }

for ((k = 0; k < $(nproc); k++)); do
	bash -c 'while :; do :; done' &
	pids+=($!)
done
sleep 5
start=$(date +%s.%N)
if timeout "$limit" "$arena" submit --wait --token-file c.token "$url" kit-c kit \
	>submit.out 2>&1; then
	echo "c kit ($compiles compiles) beside $(nproc) hogs, submit --wait to entered: $(echo "$(date +%s.%N) - $start" | bc) s"
else
	echo "c kit ($compiles compiles) beside $(nproc) hogs: not entered within $limit s"
	tail -3 submit.out
fi
echo "its states: $(sed -n 's/.*"state":"\([a-z]*\)".*"time":"\([^"]*\)".*/\1 \2/p' \
	L/submissions.jsonl | tr '\n' ' ')"
echo "its build log: $(grep -h 'lowest priority' L/submissions/*/build.log 2>/dev/null || echo 'no floor')"
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
