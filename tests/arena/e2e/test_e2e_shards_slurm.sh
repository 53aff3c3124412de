#!/usr/bin/env bash
# A tournament split into 4 shards run as a Slurm job array (the recipe of
# arena/CLUSTER.md) on a single-node Slurm cluster that this test starts on
# this machine: munged with its own key and socket, slurmctld and slurmd on
# localhost with a generated slurm.conf, all under a temporary directory. The
# array's shards are merged and compared with the same tournament run on one
# machine; then the daemons are stopped.
#   test_e2e_shards_slurm.sh ARENA BADBOT EASY MEDIUM HARD
# Exit 77 (skipped), saying exactly why, when Slurm or munge is not installed
# or the daemons do not start here; never a pass without the job array.
set -euo pipefail
arena=$1 badbot=$2 easy=$3 medium=$4 hard=$5
here=$(cd "$(dirname "$0")" && pwd)

skip() { echo "SKIPPED: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
for tool in munged slurmctld slurmd sbatch squeue sinfo scontrol; do
	command -v "$tool" >/dev/null ||
		skip "$tool is not installed (Debian packages \"slurm-wlm\" and \"munge\"; ./setup.sh test installs them)"
done

work=$(mktemp -d /tmp/skipbo-shards-slurm.XXXXXX)
chmod 755 "$work"
export SLURM_CONF=$work/slurm.conf
stop_daemons() {
	# only the daemons this test started, by the pids they wrote
	scontrol shutdown >/dev/null 2>&1 || true
	for pidfile in "$work/slurmctld.pid" "$work/slurmd.pid" "$work/munge/munged.pid"; do
		# the daemon removes its file as it stops: gone between test and read is gone
		pid=$(cat "$pidfile" 2>/dev/null) && [ -n "$pid" ] || continue
		for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		kill "$pid" 2>/dev/null || true
	done
}
trap 'stop_daemons; rm -rf "$work"' EXIT
cd "$work"
mkdir -p munge state spool log
chmod 700 munge

# munge, private: its own key and socket, so nothing of the machine's is used or changed.
head -c 1024 /dev/urandom >munge/munge.key
chmod 600 munge/munge.key
munged_force=()
[ "$(id -u)" -eq 0 ] && munged_force=(--force) # munged refuses root without it
if ! munged "${munged_force[@]}" --key-file="$work/munge/munge.key" \
	--socket="$work/munge/munge.sock" --pid-file="$work/munge/munged.pid" \
	--log-file="$work/munge/munged.log" --seed-file="$work/munge/munged.seed" 2>munge/start.err; then
	skip "munged did not start: $(cat munge/start.err munge/munged.log 2>/dev/null | tail -3)"
fi

# Free TCP ports for slurmctld and slurmd.
port=$(python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))')
read -r ctld_port slurmd_port <<<"$port"
user=$(id -un)
cat >slurm.conf <<EOF
ClusterName=skipbo-test
SlurmctldHost=localhost
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$work/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
NodeName=localhost NodeHostname=localhost CPUs=2 State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -f "$SLURM_CONF" 2>log/slurmctld.err ||
	skip "slurmctld did not start: $(tail -3 log/slurmctld.err log/slurmctld.log 2>/dev/null)"
slurmd -f "$SLURM_CONF" -N localhost 2>log/slurmd.err ||
	skip "slurmd did not start: $(tail -3 log/slurmd.err log/slurmd.log 2>/dev/null)"
state=""
for _ in $(seq 600); do
	state=$(sinfo -h -n localhost -o %T 2>/dev/null || true)
	[ "$state" = idle ] && break
	sleep 0.2
done
[ "$state" = idle ] || skip "the Slurm node did not become idle in 120 s (state \"$state\"): \
$(tail -2 log/slurmctld.log log/slurmd.log 2>/dev/null)"

cat >t.json <<EOF
{ "name": "shards", "bots": [
  { "name": "easy", "command": ["$easy"] },
  { "name": "medium", "command": ["$medium"] },
  { "name": "hard", "command": ["$hard"] },
  { "name": "good", "command": ["$badbot", "good"] } ],
  "players": 2, "deals": 8, "duplicate": true, "rules": { "stock_size": 5 }, "seed": "77" }
EOF
# -j 1: the records in schedule order, as merge writes them (a report's intervals depend on the order)
"$arena" run -q -j 1 --no-pin -o whole t.json

cat >shard.sbatch <<EOF
#!/bin/bash
#SBATCH --array=1-4
#SBATCH --cpus-per-task=1
#SBATCH --output=$work/slurm-%a.out
exec "$arena" run --quiet --no-report --no-pin -j 1 \\
	--shard "\$SLURM_ARRAY_TASK_ID/\$SLURM_ARRAY_TASK_COUNT" t.json
EOF
job=$(sbatch --parsable -D "$work" shard.sbatch) || fail "sbatch refused the job array"
# a hang guard, far above the 10-20 s the array takes at idle
for _ in $(seq 2400); do
	[ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break
	sleep 0.2
done
[ -z "$(squeue -h -j "$job")" ] || fail "the job array did not finish in 480 s (it hung, or the machine is very loaded): $(squeue -j "$job")"
tasks=$(scontrol show job "$job" | grep -c "JobState=COMPLETED .*" || true)
[ "$tasks" = 4 ] || fail "$tasks of 4 array tasks completed: $(scontrol show job "$job" |
	grep -E 'ArrayTaskId|JobState'; cat slurm-*.out)"

"$arena" status results/shards/shard-*-of-4 >status.out || fail "status: $(cat status.out)"
games=$(grep -c . whole/games.jsonl)
grep -q "total: $games of $games games" status.out || fail "status: $(cat status.out)"
"$arena" merge merged results/shards/shard-*-of-4 >/dev/null
"$arena" report -q merged
"$arena" report -q whole
python3 "$here/compare_results.py" whole merged
echo "PASS: a Slurm job array of 4 shards, merged = one machine ($games games)"
