#!/usr/bin/env python3
"""Every write of run, league add, merge and report made to fail, as a full or
broken disk fails it, then the same command run again once the fault is gone.

Each command runs once under iotrace.so to count its writes under the working
directory. Then, for each N (spread over them while the time lasts), a fresh
copy runs it with the Nth write failing with ENOSPC (and every later one: the
disk stays full), or EIO for every second N. Checked each time:

- exit status 1 (an arena error, as the README says of each command);
- the message names the file whose write failed, and a full disk says to free
  space and run the same command again;
- the same command, run again without the fault, finishes the work: every
  game once, the tournament whole, the entry added (or refused as being in
  already), the report written.

  test_full_disk.py ARENA IOTRACE_SO EASY MEDIUM [--seconds S]
"""

import os
import re
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import crashfs  # noqa: E402
import scenarios  # noqa: E402
from scenarios import env_for, run  # noqa: E402


def named(path, out):
    """Whether out names the file at path (by its name, its temporary suffix aside)."""
    name = re.sub(r"\.tmp(\.\d+)?$", "", os.path.basename(path))
    if name.endswith(".merging"):
        name = name[: -len(".merging")]
    return name.encode() in out


def faults_of(sc, last, budget):
    """(tried, failures) for the scenario whose last command is the one made to fail."""
    base = tempfile.mkdtemp(prefix="skipbo-full.")
    try:
        seed = os.path.join(base, "seed")
        work = os.path.join(base, "w")
        os.makedirs(seed)
        sc.setup(seed)
        for cmd in sc.commands[:last]:
            if run(cmd, seed).returncode:
                return 0, ["%s: setup failed" % sc.name]
        shutil.copytree(seed, work, symlinks=True)
        log = os.path.join(base, "log")
        cmd = sc.commands[last]
        if run(cmd, work, env_for(work, log)).returncode:
            return 0, ["%s: the run without a fault failed" % sc.name]
        writes = sum(1 for op in crashfs.read_log(log) if op.kind == "write")
        tried, failures = 0, []
        deadline = time.monotonic() + budget
        for n in range(1, writes + 1):
            if time.monotonic() > deadline:
                break
            shutil.rmtree(work)
            shutil.copytree(seed, work, symlinks=True)
            os.unlink(log)
            errno = "EIO" if n % 2 == 0 else "ENOSPC"
            env = env_for(work, log)
            env.update(SKIPBO_IOTRACE_FAIL=str(n), SKIPBO_IOTRACE_ERRNO=errno,
                       SKIPBO_IOTRACE_STICKY="1")
            r = run(cmd, work, env)
            where = "%s, write %d of %d failing with %s" % (" ".join(cmd[1:]), n, writes, errno)
            faults = [op for op in crashfs.read_log(log) if op.kind == "fault"]
            out = r.stdout
            if not faults:
                # fewer writes this time (the bots' stderr lines vary): nothing failed
                continue
            tried += 1
            if r.returncode != 1:
                failures.append("%s: exit %d, not 1: %s" % (where, r.returncode, out[-300:]))
            elif faults and not named(faults[0].args[0], out):
                failures.append("%s: %s not named: %s" % (where, faults[0].args[0], out[-300:]))
            elif errno == "ENOSPC" and b"free space" not in out:
                failures.append("%s: no word of freeing space: %s" % (where, out[-300:]))
            again = run(cmd, work)
            if again.returncode and not sc.allowed(cmd, again.stdout):
                failures.append("%s: run again: exit %d: %s"
                                % (where, again.returncode, again.stdout[-300:]))
                continue
            err = sc.check(work)
            if err:
                failures.append("%s: after running again: %s" % (where, err))
        return tried, failures
    finally:
        shutil.rmtree(base, ignore_errors=True)


def main():
    args = scenarios.parse_args()
    # the command made to fail in each: run, league add (after a league played), merge, report
    chosen = [(sc, 1 if sc.name == "league" else 0) for sc in scenarios.all_scenarios()]
    if args.only:
        chosen = [c for c in chosen if c[0].name in args.only.split(",")]
    total, failures = 0, []
    for sc, last in chosen:
        t0 = time.monotonic()
        n, f = faults_of(sc, last, args.seconds / len(chosen))
        print("%s: %d failed writes, %d wrong (%.1f s)" % (sc.name, n, len(f), time.monotonic() - t0))
        total += n
        failures += f
    print("failed writes tried: %d" % total)
    for f in failures[:20]:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
