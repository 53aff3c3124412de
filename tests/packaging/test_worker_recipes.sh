#!/usr/bin/env bash
# The recipes that place workers (packaging/workers/, arena/WORKERS.md,
# "Placing workers"), each checked by the tool that runs it:
#   test_worker_recipes.sh systemd ARENA RECIPES  systemd-analyze verify of an
#       instance of skipbo-work@.service (its ExecStart pointed at ARENA), no
#       warning, and the settings a clean stop needs;
#   test_worker_recipes.sh kubernetes ARENA RECIPES  the YAML (check_worker_manifests.py);
#   test_worker_recipes.sh scripts ARENA RECIPES  bash -n and sh -n of the
#       scripts, each Slurm script's signal before its time limit, and the
#       command each would run accepted by ARENA's `work --help`.
# Exit 77 (skipped), saying why, when the tool is not installed.
# The Slurm job array runs for real in tests/arena/e2e/test_e2e_workers_slurm.sh.
set -euo pipefail
what=$1 arena=$2 recipes=$3
here=$(cd "$(dirname "$0")" && pwd)
skip() { echo "SKIPPED: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }

case $what in
systemd)
	command -v systemd-analyze >/dev/null || skip "systemd-analyze is not installed (Debian package \"systemd\")"
	work=$(mktemp -d /tmp/skipbo-recipes.XXXXXX)
	trap 'rm -rf "$work"' EXIT
	unit=$recipes/skipbo-work@.service
	sed "s#/usr/bin/skipbo-arena#$arena#" "$unit" >"$work/skipbo-work@.service"
	ln -s skipbo-work@.service "$work/skipbo-work@box.service"
	# verify exits 0 on a key it does not know: any word from it is a failure
	out=$(systemd-analyze verify --man=no "$work/skipbo-work@box.service" 2>&1) ||
		fail "systemd-analyze verify: $out"
	[ -z "$out" ] || fail "systemd-analyze verify of $unit: $out"
	for setting in 'Restart=on-failure' 'KillSignal=SIGTERM' 'TimeoutStopSec=' \
		'DynamicUser=yes' 'LoadCredential=token:' 'ExecStart=.* work --token-file %d/token '; do
		grep -q "^$setting" "$unit" || fail "$unit has no $setting"
	done
	echo "skipbo-work@.service: verified"
	;;
kubernetes)
	command -v python3 >/dev/null || skip "python3 is not installed"
	exec python3 "$here/check_worker_manifests.py" "$recipes"
	;;
scripts)
	for s in "$recipes"/*.sbatch; do
		bash -n "$s" || fail "bash -n $s"
		grep -Eq '^#SBATCH --signal=B:TERM@[0-9]+$' "$s" ||
			fail "$s: no #SBATCH --signal=B:TERM@SECONDS, so the worker is killed with its lease"
	done
	grep -q '^#SBATCH hetjob$' "$recipes/league.sbatch" || fail "league.sbatch is no heterogeneous job"
	sh -n "$recipes/parallel-workers.sh" || fail "sh -n parallel-workers.sh"
	# the options the recipes give `work` are options it has
	help=$("$arena" work --help 2>&1) || fail "skipbo-arena work --help: $help"
	for opt in --token-file --cache -j; do
		grep -qE -- "(^|[ [])$opt([ =,]|]|$)" <<<"$help" || fail "the recipes give work $opt, which work --help does not name: $help"
	done
	echo "the scripts: parsed"
	;;
*) fail "unknown check $what" ;;
esac
