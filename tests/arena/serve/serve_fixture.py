"""serve_fixture.py - tournaments for the tests of `skipbo-arena serve`, and
the server started on them, with nothing but the standard library."""
import json
import os
import re
import shutil
import subprocess
import time
import urllib.error
import urllib.request

# A bot name no page may take for markup.
HOSTILE = "<img src=x onerror=\"document.title='owned'\">&amp;"


class Arena:
    def __init__(self, arena, easy, medium, badbot):
        self.arena, self.easy, self.medium, self.badbot = arena, easy, medium, badbot

    def run(self, out, deals, *extra, wait=True, bots=None, ok=(0,)):
        """Run a round robin of easy, medium and `badbot good` into out."""
        bots = bots or ["easy=" + self.easy, "medium=" + self.medium,
                        "bad=" + self.badbot + " good"]
        args = [self.arena, "run", "--deals", str(deals), "--stock", "5", "-j", "1",
                "-o", out, "--quiet", "--no-report", "--sandbox", "off"]
        for b in bots:
            args += ["--bot", b]
        args += list(extra)
        if not wait:
            return subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    text=True)
        status = subprocess.run(args, timeout=120, stdout=subprocess.DEVNULL).returncode
        if status not in ok:
            raise RuntimeError("%s: exit status %d" % (" ".join(args), status))
        return None


class Failures(list):
    """The failed checks of a test, printed as they come."""

    def check(self, cond, msg):
        if not cond:
            self.append(msg)
            print("FAIL: " + msg)

    def status(self):
        """Print the count; the exit status."""
        print("%d failure(s)" % len(self))
        return 1 if self else 0


def hostile_copy(src, dst):
    """A copy of tournament src whose records name the bot "easy" HOSTILE."""
    os.makedirs(dst)
    shutil.copy(os.path.join(src, "tournament.json"), dst)
    with open(os.path.join(src, "games.jsonl")) as f, \
            open(os.path.join(dst, "games.jsonl"), "w") as g:
        for line in f:
            rec = json.loads(line)
            rec["bots"] = [HOSTILE if b == "easy" else b for b in rec["bots"]]
            for fault in rec["faults"]:
                fault["bot"] = HOSTILE if fault["bot"] == "easy" else fault["bot"]
            g.write(json.dumps(rec, separators=(",", ":")) + "\n")


class Server:
    """skipbo-arena serve --listen 127.0.0.1:0 DIRS..., its URL read from its first line."""

    def __init__(self, arena, dirs):
        self.proc = subprocess.Popen([arena, "serve", "--listen", "127.0.0.1:0"] + dirs,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        m = re.search(r"(http://127\.0\.0\.1:\d+)/", line)
        if not m:
            self.proc.kill()
            raise RuntimeError("serve printed no URL: %r %s" % (line, self.proc.stderr.read()))
        self.url = m.group(1)
        self.port = int(self.url.rsplit(":", 1)[1])

    def stop(self):
        self.proc.terminate()
        try:
            return self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()


def url_of_run(proc, timeout=120):
    """The URL `run --serve` prints first."""
    line = proc.stdout.readline()
    m = re.search(r"(http://127\.0\.0\.1:\d+)/", line)
    if not m:
        raise RuntimeError("run --serve printed no URL: %r" % line)
    return m.group(1)


def get(url, timeout=60):
    """(status, headers, body) of a GET."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def get_json(url, timeout=60):
    status, _, body = get(url, timeout)
    if status != 200:
        raise RuntimeError("%s: HTTP %d %r" % (url, status, body[:200]))
    return json.loads(body)


# Waits are hang guards, far above what anything takes at idle: a loaded machine
# must not fail a test (speed is the benchmarks' business, tests/arena/bench_serve.py).
def wait_for(what, cond, timeout=120.0, step=0.05):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = cond()
        if got:
            return got
        time.sleep(step)
    raise RuntimeError("timed out waiting for " + what)


def league_file(bins, max_games, floor="2"):
    """league.jsonc of the club league of make_league (floor: its text, to break it)."""
    return """{
  "name": "club",
  "bots": [ { "name": "a", "command": ["%(bin)s/a"] },
            { "name": "b", "command": ["%(bin)s/b", "good"] },
            { "name": "h", "command": ["%(bin)s/h"] },
            { "name": "z", "command": ["/bin/false"] } ],
  "players": 2,
  "rules": { "stock_size": 5 },
  "sandbox": "off",
  "league": { "anchors": { "skipbo-medium": 0, "skipbo-easy": -1000 }, "floor": %(floor)s,
              "max_games": %(max)d, "suspend_after": 1, "stop_when_separated": false }
}
""" % {"bin": bins, "max": max_games, "floor": floor}


def make_league(arena, path):
    """A league played in two runs, whose entries hold every state: "a" retired, "b"
    replaced by "b@2" (a new version), "h" held (its program changed since it was
    entered), "z" suspended (/bin/false never starts), the anchors skipbo-medium and
    skipbo-easy playing. Returns the folder of its bots."""
    bins = path + "-bin"
    os.makedirs(path)
    os.makedirs(bins)
    for name, src in (("a", arena.easy), ("b", arena.badbot), ("h", arena.easy)):
        shutil.copy(src, os.path.join(bins, name))

    def league(*args):
        subprocess.run([arena.arena, "league"] + list(args), timeout=120, check=True,
                       stdout=subprocess.DEVNULL)

    def write(max_games):
        with open(os.path.join(path, "league.jsonc"), "w") as f:
            f.write(league_file(bins, max_games))

    write(40)
    league("-j", "2", path)
    league("add", path, "b=" + arena.medium)
    league("retire", path, "a")
    write(100)
    league("-j", "2", path)
    os.remove(os.path.join(bins, "h"))
    shutil.copy(arena.medium, os.path.join(bins, "h"))
    return bins
