# A single-node Slurm cluster on this machine, for the tests that run real
# job arrays (test_e2e_shards_slurm.sh, test_e2e_workers_slurm.sh): munged
# with its own key and socket, slurmctld and slurmd on localhost with a
# generated slurm.conf, all under the test's directory, so nothing of the
# machine's is used or changed.
#   . slurm_cluster.sh; slurm_cluster_start WORK CPUS; ...; slurm_cluster_stop
# The caller defines skip (exit 77 with the reason) and fail. WORK must exist;
# CPUS is what the node says it has (more than the machine's: slurmd is told
# to take the file's word), so that CPUS one-CPU tasks run at once.

# Every daemon this file started, by the pid it wrote.
slurm_cluster_stop() {
	scontrol shutdown >/dev/null 2>&1 || true
	local w=${slurm_work:-/nonexistent} pidfile pid
	for pidfile in "$w/slurmctld.pid" "$w/slurmd.pid" \
		"$w/munge/munged.pid"; do
		# the daemon removes its file as it stops: gone between test and read is gone
		pid=$(cat "$pidfile" 2>/dev/null) && [ -n "$pid" ] || continue
		for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		kill "$pid" 2>/dev/null || true
	done
}

slurm_cluster_start() {
	slurm_work=$1
	local cpus=$2 tool port ctld_port slurmd_port user state=""
	for tool in munged slurmctld slurmd sbatch squeue sinfo scontrol; do
		command -v "$tool" >/dev/null ||
			skip "$tool is not installed (Debian packages \"slurm-wlm\" and \"munge\"; ./setup.sh test installs them)"
	done
	export SLURM_CONF=$slurm_work/slurm.conf
	mkdir -p "$slurm_work"/{munge,state,spool,log}
	chmod 700 "$slurm_work/munge"

	head -c 1024 /dev/urandom >"$slurm_work/munge/munge.key"
	chmod 600 "$slurm_work/munge/munge.key"
	local munged_force=()
	[ "$(id -u)" -eq 0 ] && munged_force=(--force) # munged refuses root without it
	if ! munged "${munged_force[@]}" --key-file="$slurm_work/munge/munge.key" \
		--socket="$slurm_work/munge/munge.sock" --pid-file="$slurm_work/munge/munged.pid" \
		--log-file="$slurm_work/munge/munged.log" --seed-file="$slurm_work/munge/munged.seed" \
		2>"$slurm_work/munge/start.err"; then
		skip "munged did not start: $(cat "$slurm_work"/munge/start.err "$slurm_work"/munge/munged.log 2>/dev/null | tail -3)"
	fi

	# Free TCP ports for slurmctld and slurmd.
	port=$(python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))')
	read -r ctld_port slurmd_port <<<"$port"
	user=$(id -un)
	cat >"$SLURM_CONF" <<EOF2
ClusterName=skipbo-test
SlurmctldHost=localhost
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$slurm_work/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$slurm_work/state
SlurmdSpoolDir=$slurm_work/spool
SlurmctldPidFile=$slurm_work/slurmctld.pid
SlurmdPidFile=$slurm_work/slurmd.pid
SlurmctldLogFile=$slurm_work/log/slurmctld.log
SlurmdLogFile=$slurm_work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
MpiDefault=none
ReturnToService=2
NodeName=localhost NodeHostname=localhost CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF2
	slurmctld -f "$SLURM_CONF" 2>"$slurm_work/log/slurmctld.err" ||
		skip "slurmctld did not start: $(tail -3 "$slurm_work"/log/slurmctld.err "$slurm_work"/log/slurmctld.log 2>/dev/null)"
	slurmd -f "$SLURM_CONF" -N localhost 2>"$slurm_work/log/slurmd.err" ||
		skip "slurmd did not start: $(tail -3 "$slurm_work"/log/slurmd.err "$slurm_work"/log/slurmd.log 2>/dev/null)"
	for _ in $(seq 600); do
		state=$(sinfo -h -n localhost -o %T 2>/dev/null || true)
		[ "$state" = idle ] && break
		sleep 0.2
	done
	[ "$state" = idle ] || skip "the Slurm node did not become idle in 120 s (state \"$state\"): \
$(tail -2 "$slurm_work"/log/slurmctld.log "$slurm_work"/log/slurmd.log 2>/dev/null)"
}

# Wait until job JOB has left the queue, at most SECONDS; 0, or 1 if it is still there.
slurm_wait_job() {
	local job=$1 limit=$(($2 * 5))
	for ((i = 0; i < limit; i++)); do
		[ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && return 0
		sleep 0.2
	done
	[ -z "$(squeue -h -j "$job" 2>/dev/null)" ]
}
