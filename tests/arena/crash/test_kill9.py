#!/usr/bin/env python3
"""kill -9 at random points of league, league add, merge and report, then the
same command run again to completion.

Each command runs three times without a kill, which gives its idle duration
(the shortest) and the reference result. Then, until --runs kills have landed
(a run may end before its kill), a fresh copy of its starting directory runs
it and SIGKILL comes after a delay drawn uniformly from 0 to that duration (a
seeded draw of the fraction: --seed replays a failure at the same points of
the command). Checked right after the kill and after the same command has run
again:

- the command run again succeeds with no hand edit (or, for league add,
  refuses the same entry as in already);
- no game id is twice in games.jsonl (its complete lines, as the readers
  take them), and every game the killed run had recorded is still there;
- league: the league ends, every deal whole;
- league add: the entry is in entries.jsonl at most once after the kill (once
  if the command had said "entered"), exactly once after the run again, and
  status reads the league;
- merge: the same game ids as the merge never killed, the same ranking
  lines from report, no OUT.merging left;
- report: a report file under its final name right after the kill is whole
  (the one the report never killed writes: json parsed, csv with its header
  and every row); all of them whole after the run again;
- no temporary file (NAME.tmp, NAME.tmp.PID, OUT.merging) stays;
- no process started by the command outlives it (bots die with the arena).

  test_kill9.py ARENA IOTRACE_SO EASY MEDIUM [--runs N] [--seconds S] [--seed N]
                [--only NAMES]

IOTRACE_SO is not used (the same arguments as the other crash tests).
--seconds bounds the time, each command its share. Prints the seed, and for
each command how many kills landed and at which delays.
"""

import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scenarios  # noqa: E402
from scenarios import run, lines  # noqa: E402

REPORT_FILES = ("ratings.json", "ratings.csv", "report.md", "report.html")
TEMPORARY = re.compile(r"\.tmp(\.\d+)?$|\.merging$")
STAMP = re.compile(rb"\d{4}-\d\d-\d\d \d\d:\d\d UTC")
# games in the league killed: enough for a kill to land between games and inside one
LEAGUE_GAMES = 12


class Kill:
    """name; setup(seed_dir); command (argv, run in the copy); check(work, ref, before, out)
    -> error or None, where before holds the game ids the kill left and out what the killed
    command printed; after_kill(work, ref, out) -> error or None, checked right after it."""

    def __init__(self, name, setup, command, check, after_kill=None):
        self.name, self.setup, self.command, self.check = name, setup, command, check
        self.after_kill = after_kill or (lambda work, ref, out: None)


def game_ids(work):
    """The ids of the lines of games.jsonl that end in a newline: a torn last line is not a
    record yet, for the readers as for a resume."""
    ids = []
    try:
        with open(os.path.join(work, "out", "games.jsonl"), "rb") as f:
            complete = f.read().split(b"\n")[:-1]
    except FileNotFoundError:
        return ids
    for line in complete:
        try:
            ids.append(json.loads(line)["id"])
        except (ValueError, KeyError):
            pass
    return ids


def games_kept(work, before):
    """Error if a game id is twice in games.jsonl or a game recorded before the kill is gone."""
    ids = game_ids(work)
    if len(ids) != len(set(ids)):
        return "a game recorded twice: %s" % sorted({i for i in ids if ids.count(i) > 1})[:5]
    lost = set(before) - set(ids)
    if lost:
        return "games recorded before the kill lost: %s" % sorted(lost)[:5]
    return None


def setup_league(work):
    scenarios.setup_league(work, LEAGUE_GAMES)


def league_check(work, ref, before, out):
    err = games_kept(work, before)
    if err:
        return err
    ids = game_ids(work)
    if len(ids) < LEAGUE_GAMES:
        return "the league ended with %d games, not %d" % (len(ids), LEAGUE_GAMES)
    # "t0001-d0002-r1": both rotations of a deal, like the league never killed
    deals = {}
    for i in ids:
        deals.setdefault(i.rsplit("-r", 1)[0], set()).add(i)
    torn = [d for d, g in deals.items() if len(g) != 2]
    return "deals not whole: %s" % torn[:5] if torn else None


def setup_league_add(work):
    setup_league(work)
    r = run([scenarios.tools.arena, "league", "-j", "1", "out"], work)
    if r.returncode:
        sys.exit("setup of league add: " + r.stdout.decode())


def entries_named(work, name):
    n = 0
    for line in lines(os.path.join(work, "out", "entries.jsonl")):
        try:
            n += json.loads(line).get("name") == name
        except ValueError:
            pass
    return n


def add_after_kill(work, ref, out):
    n = entries_named(work, "second")
    if n > 1:
        return "the entry is %d times in entries.jsonl" % n
    if b'entered "second"' in out and n == 0:
        return "the entry was acknowledged and is not in entries.jsonl"
    return None


def add_check(work, ref, before, out):
    n = entries_named(work, "second")
    if n != 1:
        return "the entry is %d times in entries.jsonl, not once" % n
    r = run([scenarios.tools.arena, "status", "out"], work)
    # the two entries of the league and this one, read back
    if r.returncode or b"entries: 3," not in r.stdout:
        return "status after the add: exit %d: %s" % (r.returncode, r.stdout[-300:])
    return games_kept(work, before)


def ranking(work):
    """The ranking lines report prints for OUT (bot, Elo, games ...)."""
    r = run([scenarios.tools.arena, "report", "out"], work)
    if r.returncode:
        return None
    return [l for l in r.stdout.decode().splitlines() if l.strip()[:1].isdigit()]


_ref_ranking = {}


def merge_check(work, ref, before, out):
    if os.path.exists(os.path.join(work, "out.merging")):
        return "out.merging left"
    err = games_kept(work, before)
    if err:
        return err
    if sorted(game_ids(work)) != sorted(game_ids(ref)):
        return "not the games of the merge never killed"
    if ref not in _ref_ranking:
        _ref_ranking[ref] = ranking(ref)
    mine, theirs = ranking(work), _ref_ranking[ref]
    if mine is None or mine != theirs:
        return "ranking %r, not %r" % (mine, theirs)
    return None


def report_file_whole(work, ref, name):
    """Error if work's report file does not parse or differs from the one the report never
    killed wrote (its time aside)."""
    path = os.path.join(work, "out", name)
    with open(path, "rb") as f:
        data = f.read()
    try:
        if name.endswith(".json"):
            json.loads(data)
        elif name.endswith(".csv"):
            rows = data.decode().splitlines()
            if not rows or not rows[0].startswith("rank,bot,"):
                return "%s has no header" % name
    except ValueError as e:
        return "%s does not parse: %s" % (name, e)
    with open(os.path.join(ref, "out", name), "rb") as f:
        # report.html says when it was made, to the minute
        if STAMP.sub(b"", f.read()) != STAMP.sub(b"", data):
            return "%s is not whole (%d bytes)" % (name, len(data))
    return None


def report_after_kill(work, ref, out):
    for name in REPORT_FILES:
        if os.path.exists(os.path.join(work, "out", name)):
            err = report_file_whole(work, ref, name)
            if err:
                return "right after the kill: " + err
    return None


def report_check(work, ref, before, out):
    for name in REPORT_FILES:
        if not os.path.exists(os.path.join(work, "out", name)):
            return "no %s" % name
        err = report_file_whole(work, ref, name)
        if err:
            return err
    return games_kept(work, before)


def leftovers(work):
    """Error naming the temporary files a killed command left that its run again kept."""
    left = []
    for d, subdirs, names in os.walk(work):
        left += [os.path.relpath(os.path.join(d, n), work) for n in subdirs + names
                 if TEMPORARY.search(n)]
    return "temporary files left: %s" % sorted(left)[:5] if left else None


def all_kills():
    a = scenarios.tools
    return [
        Kill("league", setup_league, [a.arena, "league", "-j", "1", "out"], league_check),
        Kill("league add", setup_league_add, [a.arena, "league", "add", "out", "second=" + a.medium],
             add_check, add_after_kill),
        Kill("merge", scenarios.setup_merge, [a.arena, "merge", "out", "s1", "s2"], merge_check),
        Kill("report", scenarios.setup_report, [a.arena, "report", "out"], report_check,
             report_after_kill),
    ]


def processes_in(base):
    """Pids of the processes whose working directory is under base (all of them ours)."""
    pids = []
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                cwd = os.readlink("/proc/%s/cwd" % p)
            except OSError:
                continue
            if cwd == base or cwd.startswith(base + "/"):
                pids.append(int(p))
    return pids


def outlived(base):
    """Error naming the processes left under base after their arena died; each killed."""
    left = []
    # a bot dies of its parent's death (PR_SET_PDEATHSIG) within moments, later on a loaded
    # machine: one still there after 5 s was left behind
    for _ in range(50):
        left = processes_in(base)
        if not left:
            return None
        time.sleep(0.1)
    names = []
    for pid in left:
        try:
            with open("/proc/%d/cmdline" % pid, "rb") as f:
                names.append(f.read().replace(b"\0", b" ").decode(errors="replace")[:80])
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    return "processes outlived the killed arena: %s" % names


def start(cmd, work, log):
    with open(log, "wb") as out:
        return subprocess.Popen(cmd, cwd=work, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def kill_runs(k, runs, budget, rng):
    """(kills landed, delays in ms, failures) for one command: runs kills, or as many as
    the time allows."""
    base = tempfile.mkdtemp(prefix="skipbo-kill9.")
    proc = None
    try:
        seed, ref, work = (os.path.join(base, d) for d in ("seed", "ref", "w"))
        os.makedirs(seed)
        k.setup(seed)
        # the reference at the same path as every try: files record the directory they ran in
        log = os.path.join(base, "out.txt")
        # three times, started as the killed ones are, the shortest kept: on a loaded
        # machine a run may take much longer than the next
        idle = None
        for _ in range(3):
            shutil.rmtree(work, ignore_errors=True)
            shutil.copytree(seed, work, symlinks=True)
            t0 = time.monotonic()
            proc = start(k.command, work, log)
            status = proc.wait(timeout=120)
            proc = None
            idle = min(idle or 1e9, time.monotonic() - t0)
            if status:
                return 0, [], ["%s: the run never killed failed: %s" % (k.name, read(log)[-600:])]
        os.rename(work, ref)
        landed, delays, failures = 0, [], []
        deadline = time.monotonic() + budget
        # a run that ends before its kill is tried again, up to 4 times the kills asked
        for _ in range(4 * runs):
            if landed == runs or time.monotonic() > deadline:
                break
            shutil.rmtree(work, ignore_errors=True)
            shutil.copytree(seed, work, symlinks=True)
            delay = rng.random() * idle
            proc = start(k.command, work, log)
            time.sleep(delay)
            proc.send_signal(signal.SIGKILL)
            status = proc.wait()
            proc = None
            killed = status == -signal.SIGKILL
            landed += killed
            delays.append("%d%s" % (delay * 1000, "" if killed else "(ended)"))
            where = "%s, SIGKILL after %.0f ms" % (k.name, delay * 1000)
            out = read(log)
            err = outlived(base) or k.after_kill(work, ref, out)
            before = game_ids(work)
            if not err:
                again = run(k.command, work)
                if again.returncode and not scenarios.done_already(k.command, again.stdout):
                    err = "run again: exit %d: %s" % (again.returncode, again.stdout[-600:])
                else:
                    err = k.check(work, ref, before, out)
            if not err:
                err = leftovers(work)
            if err:
                failures.append("%s: %s" % (where, err))
        return landed, delays, failures
    finally:
        if proc:
            proc.kill()
            proc.wait()
        outlived(base)
        shutil.rmtree(base, ignore_errors=True)


def main():
    args = scenarios.parse_args([("--runs", int, 5), ("--seed", int, None)])
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    print("seed %d (--seed %d replays these kills)" % (seed, seed))
    rng = random.Random(seed)
    kills = all_kills()
    if args.only:
        kills = [k for k in kills if k.name in args.only.split(",")]
    total, tries, failures = 0, 0, []
    for k in kills:
        t0 = time.monotonic()
        landed, delays, f = kill_runs(k, args.runs, args.seconds / len(kills), rng)
        print("%s: %d tries, %d killed, %d failed (%.1f s); delays in ms: %s"
              % (k.name, len(delays), landed, len(f), time.monotonic() - t0, " ".join(delays)))
        total += landed
        tries += len(delays)
        # a command that always ended before its kill (not one cut short by the time)
        if not landed and len(delays) == 4 * args.runs:
            f.append("%s: no kill landed in %d tries" % (k.name, len(delays)))
        failures += f
    print("kills: %d of %d tries" % (total, tries))
    for f in failures[:20]:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
