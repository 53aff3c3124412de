#!/usr/bin/env bash
# A league played by workers on other machines (arena/WORKERS.md): `host -j 0`
# plays nothing itself; three workers come from a Slurm job array of the
# recipe packaging/workers/workers.sbatch, on a single-node Slurm cluster the
# test starts (slurm_cluster.sh). Mid-way one worker is killed with SIGKILL
# while it plays a lease (the lease expires and its games are handed out
# again), and the host is stopped with SIGTERM and started again on the same
# port. At the end:
# - nothing lost: every deal has all its rotations, or is parked;
# - nothing counted twice: no game id twice in games.jsonl;
# - every game's replay re-checks (`replay -q DIR`);
# - each entry's 95% interval meets its interval in the same league
#   (same seed, same max_games) played on one machine by `league -j 2`.
#   test_e2e_workers_slurm.sh ARENA BOTS_DIR RECIPES_DIR
# BOTS_DIR holds the built skipbo-easy, skipbo-medium and skipbo-hard.
# Exit 77 (skipped), saying why, when Slurm or munge is not installed or the
# daemons do not start here; never a pass without the job array.
set -euo pipefail
arena=$1 bots=$2 recipes=$3
here=$(cd "$(dirname "$0")" && pwd)

skip() { echo "SKIPPED: $*"; exit 77; }
fail() {
	echo "FAIL: $*" >&2
	tail -n 15 "$work"/host*.out "$work"/work-*.out >&2 2>/dev/null || true
	exit 1
}
. "$here/slurm_cluster.sh"

work=$(mktemp -d /tmp/skipbo-workers-slurm.XXXXXX)
chmod 755 "$work"
job= host_pid=
cleanup() {
	[ -z "$job" ] || scancel "$job" 2>/dev/null || true
	[ -z "$job" ] || slurm_wait_job "$job" 60 || true
	[ -z "$host_pid" ] || kill -9 "$host_pid" 2>/dev/null || true
	slurm_cluster_stop
	rm -rf "$work"
}
trap cleanup EXIT
cd "$work"
slurm_cluster_start "$work/slurm" 4

# wait_for SECONDS COMMAND...: until the command succeeds, or fail
# (by the clock: a look through /proc takes a while on a busy machine)
wait_for() {
	local end=$((SECONDS + $1)); shift
	while ((SECONDS < end)); do "$@" && return 0; sleep 0.1; done
	fail "waited in vain for: $*"
}
games() { local n; n=$(grep -c . L/games.jsonl 2>/dev/null) || true; echo "${n:-0}"; }
more_games_than() { [ "$(games)" -gt "$1" ]; }

export PATH=$bots:$PATH
max=600
mkdir L one
cat >L/league.jsonc <<JSON
{
  "name": "workers",
  "bots": [ { "name": "medium", "command": ["$bots/skipbo-medium"] },
            { "name": "hard", "command": ["$bots/skipbo-hard"] } ],
  "players": 2,
  "rules": { "stock_size": 30 },
  "sandbox": "off",
  "seed": "4242",
  "league": { "anchors": { "skipbo-easy": 0 }, "floor": 2, "max_games": $max,
              "stop_when_separated": false }
}
JSON
cp L/league.jsonc one/
# small leases that expire soon, so that the killed worker's lease comes back in seconds
echo '{ "lease_seconds": 5, "expire_seconds": 10 }' >L/host.jsonc
"$arena" host account add --worker --trusted L box >worker.token 2>/dev/null ||
	fail "host account add --worker --trusted"

starts=0
start_host() {
	starts=$((starts + 1))
	"$arena" host --listen "127.0.0.1:$1" -j 0 L >host$starts.out 2>&1 &
	host_pid=$!
	for ((i = 0; i < 300; i++)); do
		grep -q "^hosting L at " host$starts.out && break
		kill -0 "$host_pid" 2>/dev/null || { host_pid=; return 1; }
		sleep 0.1
	done
	url=$(sed -n 's/^hosting L at \([^ ]*\) .*/\1/p' host$starts.out)
	[ -n "$url" ]
}
# SIGTERM to the host, and its exit status 0 within 120 s (it waits for the leases out)
stop_host() {
	kill -TERM "$host_pid"
	for ((i = 0; i < 1200; i++)); do
		kill -0 "$host_pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$host_pid" 2>/dev/null && fail "the host did not stop in 120 s after SIGTERM"
	wait "$host_pid" || fail "the host's exit status $? on SIGTERM"
	host_pid=
}
start_host 0 || fail "the host did not start"
port=$(sed 's#.*:\([0-9]*\)/$#\1#' <<<"$url")

# The recipe as a user runs it, with a CPU per worker.
export SKIPBO_ARENA=$arena SKIPBO_TOKEN_FILE=$work/worker.token
job=$(sbatch --parsable -D "$work" --array=1-3 --cpus-per-task=1 --output="$work/work-%a.out" \
	"$recipes/workers.sbatch" "$url") || fail "sbatch refused the recipe's job array"

# The workers: the array's `work` processes (by their Slurm environment).
worker_pids() {
	local p
	for p in /proc/[0-9]*; do
		# processes come and go while this reads them: an error is one gone
		{ tr '\0' '\n' <"$p/environ"; } 2>/dev/null | grep -qx "SLURM_ARRAY_JOB_ID=$job" || continue
		{ tr '\0' ' ' <"$p/cmdline"; } 2>/dev/null | grep -q "^$arena work " || continue
		echo "${p#/proc/}"
	done
}
# A worker playing a lease: one with a bot of the league as its child.
victim=
busy_worker() {
	local p c
	for p in $(worker_pids); do
		for c in $(cat /proc/"$p"/task/*/children 2>/dev/null); do
			case $(readlink /proc/"$c"/exe 2>/dev/null) in
			# the build's bot, or its copy from a bundle in the worker's cache
			*/skipbo-easy | */skipbo-medium | */skipbo-hard) victim=$p && return 0 ;;
			esac
		done
	done
	return 1
}
wait_for 240 more_games_than 20
wait_for 120 busy_worker
before_kill=$(games)
kill -9 "$victim"
echo "killed worker $victim mid-lease after $before_kill games"

# the other two play on, and the dead worker's lease expires and is handed out again
# (long games, stock 30, so that the league is far from its end when it does)
expired() { grep -q '"event":"expired"' L/workers.jsonl; }
wait_for 240 expired
over() { grep -q "the league has stopped (max_games reached)" host$starts.out; }
! over || fail "the league ended before the killed worker's lease expired: nothing to restart"
wait_for 240 more_games_than "$before_kill"
stop_host
echo "host stopped after $(games) games"
sleep 2
# the same port, so that the workers find it again; a moment's wait if the port lingers
for ((tries = 0; tries < 30; tries++)); do
	start_host "$port" && break
	sleep 1
done
[ -n "$host_pid" ] || fail "the host did not start again on port $port"

wait_for 480 over
stop_host
scancel --signal=TERM --batch "$job" 2>/dev/null || true
slurm_wait_job "$job" 120 || fail "the workers did not stop on SIGTERM in 120 s: $(squeue -j "$job")"
job=

total=$(games)
[ "$total" -ge "$max" ] || fail "$total games of $max"
twice=$(grep -o '"id":"[^"]*"' L/games.jsonl | sort | uniq -d | head -3)
[ -z "$twice" ] || fail "games recorded twice: $twice"
python3 "$here/workers_check.py" deals L || fail "a deal lost"
"$arena" replay -q L >replay.out 2>&1 ||
	fail "a replay does not re-check: $(grep -v ': ok$' replay.out | head -5)"
[ "$(grep -c . replay.out)" -ge "$total" ] || fail "replay -q L checked fewer than $total games"

# The same league on one machine, ranked against the workers'.
"$arena" league -j 2 one >one.out 2>&1 || fail "the league on one machine: $(tail -5 one.out)"
"$arena" report -q L >/dev/null && "$arena" report -q one >/dev/null || fail "report"
python3 "$here/workers_check.py" ranking L one || fail "the rankings disagree"
echo "PASS: a league of $total games by 3 Slurm workers, one killed mid-lease and the host restarted"
