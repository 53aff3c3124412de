#!/usr/bin/env bash
# A hosted competition's builds beside its games (issue 36): does a build
# starve the league? And how long from `submit --wait` to entered?
#   bash tests/arena/bench_host.sh BUILD [WINDOW_S]
#
# 1. A league in a fresh directory: the easy and medium bots as anchors,
#    stock 5, sandbox "auto", run by `skipbo-arena host -j 2` with builds 4.
# 2. Its games/s over WINDOW_S (default 60) with no build, then over the same
#    window while 4 builds run, one per author. Each build is an honest C kit
#    (bots/starter/c) whose build compiles bot.c with cc -O2 again and again
#    until WINDOW_S + 20 s have passed since it began, then builds the kit as
#    usual: CPU-heavy for the whole window, whatever its priority.
# 3. From `submit --wait` to entered: the C starter kit, then the Python one,
#    once the heavy builds have ended (the league still playing).
# Prints the figures and the load average.
set -euo pipefail
build=$(cd "$1" && pwd)
window=${2:-60}
arena=$build/arena/skipbo-arena
src=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/skipbo-bench-host.XXXXXX)
chmod 755 "$work"
pid=
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
cd "$work"
export PATH=$build/bots:$PATH

games() { local n; n=$(grep -c . L/games.jsonl 2>/dev/null) || true; echo "${n:-0}"; }
count() { grep -c "\"state\":\"$1\"" L/submissions.jsonl 2>/dev/null || true; }
# games/s over the window
rate() {
	local g0 g1
	g0=$(games)
	sleep "$window"
	g1=$(games)
	echo "scale=2; ($g1 - $g0) / $window" | bc
}

mkdir L
cp "$src/tests/arena/bench_league.jsonc" L/league.jsonc
echo '{ "per_day": 50, "builds": 4, "check_games": 2 }' >L/host.jsonc
for a in a1 a2 a3 a4 c py; do "$arena" host account add L $a >$a.token 2>/dev/null; done

for k in 1 2 3 4; do
	mkdir heavy$k
	cp "$src/bots/starter/c/bot.c" heavy$k/
	cat >heavy$k/skipbo.json <<EOF
{"language": "c", "build": "end=\$((\$(date +%s) + $window + 20)); n=0; while [ \$(date +%s) -lt \$end ]; do cc -std=c11 -O2 \$CFLAGS -c bot.c -o /tmp/bot.o; n=\$((n+1)); done; echo \$n compilations; cc -std=c11 -O2 \$CFLAGS bot.c \$LDLIBS -o bot"}
EOF
done

"$arena" host --listen 127.0.0.1:0 -j 2 L >host.out 2>&1 & pid=$!
for ((i = 0; i < 300; i++)); do grep -qs "^hosting L at " host.out && break; sleep 0.1; done
url=$(sed -n 's/^hosting L at \([^ ]*\) .*/\1/p' host.out)
[ -n "$url" ] || { cat host.out; exit 1; }

# the league warmed up: its bots started, its first games recorded
for ((i = 0; i < 600 && $(games) < 20; i++)); do sleep 0.1; done
sleep 5
none=$(rate)
echo "league alone: $none games/s over $window s (load $(cut -d' ' -f1-3 /proc/loadavg))"

for k in 1 2 3 4; do
	"$arena" submit --token-file a$k.token "$url" heavy$k heavy$k >/dev/null
done
for ((i = 0; i < 600 && $(count building) < 4; i++)); do sleep 0.1; done
[ "$(count building)" -ge 4 ] || { echo "the 4 builds did not start"; exit 1; }
with=$(rate)
echo "league with 4 builds: $with games/s over $window s (load $(cut -d' ' -f1-3 /proc/loadavg))"
echo "ratio: $(echo "scale=0; 100 * $with / $none" | bc)%"

# the heavy builds ended (entered, or failed) before the kits' times
for ((i = 0; i < 3000 && $(($(count entered) + $(count failed))) < 4; i++)); do sleep 0.1; done
echo "the builds' work: $(cat L/submissions/*/build.log 2>/dev/null | grep -h ' compilations$' |
	tr '\n' ' ')(cc -O2 of bot.c, each build)"
for kit in c python; do
	author=${kit:0:2}
	start=$(date +%s.%N)
	"$arena" submit --wait --token-file $author.token "$url" kit-$kit \
		"$src/bots/starter/$kit" >submit-$kit.out 2>&1 || { cat submit-$kit.out; exit 1; }
	echo "$kit kit, submit --wait to entered: $(echo "$(date +%s.%N) - $start" | bc) s"
done
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
