#!/usr/bin/env python3
"""Every state a power cut can leave, resumed with the same command.

Each scenario runs its commands once under iotrace.so (iotrace.c), which logs
the writes, fsyncs, renames and the rest under the output directory. For each
prefix of that log and each way the unsynced part may be lost (crashfs.py),
the state is written to a fresh directory and the command that was running
is run again there, then the commands after it. Checked in every state:

- every command exits 0 (`league add` and `league retire` too, finding their
  work done; `merge` may refuse an output it wrote already), with no hand edit;
- every line the first run had fsync'd to games.jsonl or entries.jsonl (it
  had acknowledged them) is in the final file;
- no game id is twice in games.jsonl, and a tournament ends with all its games.

  test_crash_states.py ARENA IOTRACE_SO EASY MEDIUM [--seconds S] [--every N]
                       [--subsets N] [--seed N]

--seconds bounds the time (the crash points are taken spread over the log,
each scenario its share); --every 1 with a large --seconds tries every
prefix (tests/arena/bench_crash.sh). At each crash point the variants all,
none, prefix and torn are tried, then reorder with --subsets (4) sets of
files and directories whose unsynced part is lost, drawn from --seed (1)
(crashfs.py). Prints how many states were tried, and how many of them
reordered.
"""

import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import crashfs  # noqa: E402
import scenarios  # noqa: E402
from scenarios import env_for, run, lines  # noqa: E402

VARIANTS = ("all", "none", "prefix", "torn")


def coarse_to_fine(points):
    """points without repeats, every 2^n-th first: a sweep cut short by its time is spread
    over the whole run."""
    order, seen, step = [], set(), 1
    while step * 2 < len(points):
        step *= 2
    while step >= 1:
        for p in points[::step]:
            if p not in seen:
                seen.add(p)
                order.append(p)
        step //= 2
    return order


def tried_states(sc, budget):
    """Run the scenario once traced, then its crash states; (states, failures)."""
    base = tempfile.mkdtemp(prefix="skipbo-crash.")
    try:
        work = os.path.join(base, "w")
        os.makedirs(work)
        sc.setup(work)
        # the whole working directory is watched: merge writes "out.merging" beside "out"
        root = work
        pre_files, pre_dirs = crashfs.snapshot(root)
        log = os.path.join(base, "log")
        starts = []
        for cmd in sc.commands:
            starts.append(len(crashfs.read_log(log)) if os.path.exists(log) else 0)
            r = run(cmd, work, env_for(root, log))
            if r.returncode:
                return {}, ["%s: the traced run failed: %s" % (sc.name, r.stdout.decode()[-2000:])]
        ops = crashfs.read_log(log)
        final_expected = sc.check(work)
        if final_expected:
            return {}, ["%s: the traced run itself: %s" % (sc.name, final_expected)]
        every = args.every or max(1, len(ops) // 40)
        points = coarse_to_fine(list(range(0, len(ops) + 1, every)) + [len(ops)])
        seen, failures, tried = set(), [], {}
        deadline = time.monotonic() + budget
        for k in points:
            if time.monotonic() > deadline:
                break
            first = max(i for i, s in enumerate(starts) if s <= k) if k else 0
            units, names = crashfs.unsynced_units(pre_files, ops, k)
            for variant, drop in variants_at(sc, units, k):
                if time.monotonic() > deadline:
                    break
                files, dirs = crashfs.crash_state(pre_files, pre_dirs, ops, k, variant, drop)
                key = (first, tuple(sorted((p, hash(b)) for p, b in files.items())),
                       tuple(sorted(dirs)))
                if key in seen:
                    continue
                seen.add(key)
                tried[variant] = tried.get(variant, 0) + 1
                err = resume(sc, work, base, files, dirs, ops, k, first)
                if err:
                    failures.append("%s, after operation %d of %d, %s: %s"
                                    % (sc.name, k, len(ops), describe(variant, drop, names, work),
                                       err))
        return tried, failures
    finally:
        shutil.rmtree(base, ignore_errors=True)


def variants_at(sc, units, k):
    """(variant, units lost) to try after operation k: the ordered ones, then reorder's."""
    for variant in VARIANTS:
        yield variant, frozenset()
    seed = "%d:%s:%d" % (args.seed, sc.name, k)
    for drop in crashfs.reorder_drops(units, args.subsets, seed):
        yield "reorder", drop


def describe(variant, drop, names, work):
    """The variant, and for reorder what it lost, by paths under the working directory."""
    if variant != "reorder":
        return variant
    lost = sorted(os.path.relpath(names[u], work) + ("/" if u[0] == "dir" else "")
                  for u in drop)
    return "reorder (unsynced part lost: %s)" % (", ".join(lost) or "none")


def resume(sc, work, base, files, dirs, ops, k, first):
    # at the traced run's own path: tournament.json records the bots' directories
    state = work
    shutil.rmtree(work)
    crashfs.materialize(files, dirs, work, work)
    for cmd in sc.commands[first:]:
        r = run(cmd, state)
        if r.returncode and not sc.allowed(cmd, r.stdout):
            return "%s: exit %d: %s" % (" ".join(cmd[1:]), r.returncode,
                                        r.stdout.decode(errors="replace")[-600:])
    for name in sc.acked_files:
        final = set(lines(os.path.join(state, "out", name)))
        for line in crashfs.acknowledged_lines(ops, k, name):
            if line not in final:
                return "an acknowledged line of %s lost: %s" % (name, line[:80])
    return sc.check(state)


def main():
    global args
    args = scenarios.parse_args([("--every", int, 0), ("--subsets", int, 4), ("--seed", int, 1)])
    # report only reads what is recorded: its crash leaves the records as they were
    scenarios_tried = [s for s in scenarios.all_scenarios() if s.name != "report"]
    if args.only:
        scenarios_tried = [s for s in scenarios_tried if s.name in args.only.split(",")]
    total, reordered, failures = 0, 0, []
    for sc in scenarios_tried:
        t0 = time.monotonic()
        tried, f = tried_states(sc, args.seconds / len(scenarios_tried))
        n = sum(tried.values())
        print("%s: %d crash states resumed (%d reordered), %d failed (%.1f s)"
              % (sc.name, n, tried.get("reorder", 0), len(f), time.monotonic() - t0))
        total += n
        reordered += tried.get("reorder", 0)
        failures += f or ([] if n else ["%s: no crash state tried" % sc.name])
    print("crash states tried: %d, %d of them reordered across files (seed %d)"
          % (total, reordered, args.seed))
    for f in failures[:20]:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
