"""scenarios.py - the commands the crash and full-disk tests run, and their checks.

Each scenario sets up a working directory, runs its commands there, and
checks what they left: every game once, the tournament whole. Set tools
(arena, iotrace, easy, medium: paths) before use.
"""

import argparse
import json
import os
import subprocess
import sys

tools = None


def env_for(root, log):
    env = dict(os.environ)
    # the sanitizers' runtime must come first unless told that the library is fine
    env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0"
    env.update(LD_PRELOAD=tools.iotrace, SKIPBO_IOTRACE_ROOT=root, SKIPBO_IOTRACE_LOG=log)
    return env


def run(cmd, cwd, env=None):
    return subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=120)


def lines(path):
    try:
        with open(path, "rb") as f:
            return [l for l in f.read().split(b"\n") if l]
    except FileNotFoundError:
        return []


class Scenario:
    """name, setup(dir), commands; check(dir) -> error or None; the files whose fsync'd lines
    must stay; allowed(command, output): a refusal that means the work was done already."""

    def __init__(self, name, setup, commands, check, acked_files, allowed=None):
        self.name, self.setup, self.commands = name, setup, commands
        self.check, self.acked_files, self.allowed = check, acked_files, allowed or (lambda c, o: False)


def games_check(expected):
    def check(work):
        ids = []
        for line in lines(os.path.join(work, "out", "games.jsonl")):
            try:
                ids.append(json.loads(line)["id"])
            except (ValueError, KeyError):
                return "a line of games.jsonl is not a record: %r" % line[:120]
        if len(ids) != len(set(ids)):
            return "a game recorded twice"
        if expected is not None and len(ids) != expected:
            return "%d games recorded, not %d" % (len(ids), expected)
        return None
    return check


def setup_run(work):
    with open(os.path.join(work, "t.json"), "w") as f:
        json.dump({"name": "c", "bots": [{"name": "easy", "command": [tools.easy]},
                                         {"name": "medium", "command": [tools.medium]}],
                   "deals": 3, "seed": "5", "rules": {"stock_size": 3}, "output": "out"}, f)


def setup_league(work, max_games=6):
    os.makedirs(os.path.join(work, "out"))
    with open(os.path.join(work, "out", "league.jsonc"), "w") as f:
        json.dump({"name": "l", "seed": "7", "players": 2, "rules": {"stock_size": 3}, "sandbox": "off",
                   "bots": [{"name": "easy", "command": [tools.easy]},
                            {"name": "medium", "command": [tools.medium]}],
                   "league": {"anchors": {}, "floor": 1, "max_games": max_games,
                              "stop_when_separated": False}}, f)


def setup_merge(work):
    setup_run(work)
    for k in (1, 2):
        r = run([tools.arena, "run", "-q", "--sandbox", "off", "-j", "1", "--no-report",
                 "--shard", "%d/2" % k, "-o", "s%d" % k, "t.json"], work)
        if r.returncode:
            sys.exit("setup of merge: " + r.stdout.decode())


def done_already(cmd, out):
    """A command run again after its work was on the disk: refused, saying so, nothing lost.
    `league add` and `league retire` are not among them: run again, they exit 0."""
    if cmd[1] == "merge":
        return b"merge writes a new directory" in out
    return False



def setup_report(work):
    setup_run(work)
    r = run([tools.arena, "run", "-q", "--sandbox", "off", "-j", "1", "--no-report", "t.json"],
            work)
    if r.returncode:
        sys.exit("setup of report: " + r.stdout.decode())


def report_check(work):
    if not os.path.exists(os.path.join(work, "out", "report.md")):
        return "no report.md"
    return games_check(6)(work)


def all_scenarios():
    """run, league (with add and retire), merge, report."""
    a = tools.arena
    return [
        Scenario("run", setup_run, [[a, "run", "-q", "--sandbox", "off", "-j", "1", "t.json"]],
                 games_check(6), ["games.jsonl"]),
        Scenario("league", setup_league,
                 [[a, "league", "-j", "1", "out"],
                  [a, "league", "add", "out", "second=" + tools.medium],
                  [a, "league", "retire", "out", "easy"]],
                 games_check(None), ["games.jsonl", "entries.jsonl"], done_already),
        Scenario("merge", setup_merge, [[a, "merge", "out", "s1", "s2"]],
                 games_check(6), ["games.jsonl"], done_already),
        Scenario("report", setup_report, [[a, "report", "out"]], report_check, []),
    ]


def parse_args(extra=()):
    """ARENA IOTRACE_SO EASY MEDIUM [--seconds S] [--only NAMES] and extra options
    ((flag, type, default), ...), the four paths made absolute and kept in tools."""
    global tools
    p = argparse.ArgumentParser()
    for name in ("arena", "iotrace", "easy", "medium"):
        p.add_argument(name)
    p.add_argument("--seconds", type=float, default=45)
    p.add_argument("--only", default="")
    for flag, kind, default in extra:
        p.add_argument(flag, type=kind, default=default)
    tools = p.parse_args()
    for name in ("arena", "iotrace", "easy", "medium"):
        setattr(tools, name, os.path.abspath(getattr(tools, name)))
    return tools
