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
. "$here/slurm_cluster.sh"

work=$(mktemp -d /tmp/skipbo-shards-slurm.XXXXXX)
chmod 755 "$work"
trap 'slurm_cluster_stop; rm -rf "$work"' EXIT
cd "$work"
slurm_cluster_start "$work" 2

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
slurm_wait_job "$job" 480 ||
	fail "the job array did not finish in 480 s (it hung, or the machine is very loaded): $(squeue -j "$job")"
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
