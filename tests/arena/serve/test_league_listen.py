"""test_league_listen.py - `skipbo-arena league --listen 127.0.0.1:0 -j 0 DIR`
(arena/WORKERS.md): a plain league (no host.jsonc's authors, sandbox off, the
two bundled anchors, stock 5, max_games 8) that plays nothing itself, served to
real `skipbo-arena work --once` workers with a token of `host account add
--worker DIR NAME`. Checked: the usage refusals (--serve with --listen, -j 0
without it), a bad token refused (401, and `work` exits 1 naming it), the
author routes absent, the read-only pages and /api/workers served, the league
reaching max_games with every game taken from the worker, and `status DIR`
after the league has exited listing the worker with its games and re-plays, as
read back from workers.jsonl.
    test_league_listen.py ARENA"""
import http.client
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

ARENA = os.path.abspath(sys.argv[1])
HANG = 300  # seconds: far above a league of 8 stock-5 games with its re-plays
GAMES = 8
failed = []


def check(ok, what):
    if not ok:
        failed.append(what)
        print("FAIL:", what, file=sys.stderr)


def request(port, method, path, token=None, body=None):
    """(status, body as text) of one request on a new connection."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    c.request(method, path, body=body, headers=headers)
    r = c.getresponse()
    data = r.read().decode("utf-8", "replace")
    c.close()
    return r.status, data


def work(url, token, cache, league=None):
    """One `work --once`: (exit status, stderr). Stopped by SIGTERM (a release) once the
    league has exited, as it then asks a host that is gone."""
    env = dict(os.environ, SKIPBO_TOKEN=token)
    w = subprocess.Popen([ARENA, "work", "--once", "-j", "2", "--cache", cache, url], env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    t = time.monotonic()
    while w.poll() is None and time.monotonic() - t < HANG:
        if league is not None and league.poll() is not None:
            w.send_signal(signal.SIGTERM)
            break
        time.sleep(0.05)
    try:
        _, err = w.communicate(timeout=HANG)
    except subprocess.TimeoutExpired:
        w.kill()
        _, err = w.communicate()
    return w.returncode, err


top = tempfile.mkdtemp(prefix="skipbo-league-listen.")
L = os.path.join(top, "L")
os.makedirs(L)
with open(os.path.join(L, "league.jsonc"), "w") as f:
    json.dump({"name": "listened", "bots": [], "players": 2, "rules": {"stock_size": 5},
               "sandbox": "off",
               "league": {"anchors": {"skipbo-easy": 0, "skipbo-medium": 100}, "floor": 2,
                          "max_games": GAMES, "stop_when_separated": False}}, f)
# none of the untrusted worker's games re-played: a game held for a re-play when the
# league ends is dropped (desk.h), and max_games would be short of it
with open(os.path.join(L, "host.jsonc"), "w") as f:
    json.dump({"replay_sample": 0}, f)
token = subprocess.run([ARENA, "host", "account", "add", "--worker", L, "box"],
                       capture_output=True, text=True, check=True).stdout.strip()

for args, words in ((["--serve", "127.0.0.1:0", "--listen", "127.0.0.1:0"], "give --listen"),
                    (["-j", "0"], "goes with --listen"),
                    (["--cert", "c.pem", "--listen", "127.0.0.1:0"], "go together")):
    r = subprocess.run([ARENA, "league", *args, L], capture_output=True, text=True,
                       timeout=HANG)
    check(r.returncode == 2 and words in r.stderr,
          "league %s: exit 2 saying %r, got %d %s" % (args, words, r.returncode, r.stderr))

log = open(os.path.join(top, "league.err"), "w")
league = subprocess.Popen([ARENA, "league", "--listen", "127.0.0.1:0", "-j", "0", L],
                          stdout=subprocess.PIPE, stderr=log, text=True)
try:
    line = league.stdout.readline()
    m = re.search(r"at (http://127\.0\.0\.1:(\d+)/)", line)
    if not m:
        raise SystemExit("FAIL: the league printed no URL: %r" % line)
    url, port = m.group(1), int(m.group(2))
    cache = os.path.join(top, "cache")

    status, data = request(port, "POST", "/api/work/lease", "sbt_" + "0" * 64,
                           json.dumps({"version": "0", "cpus": 1, "jobs": 1, "bundles": []}))
    check(status == 401 and "not a live worker's" in data,
          "a wrong token: 401, got %d %s" % (status, data))
    rc, err = work(url, "sbt_" + "1" * 64, cache)
    check(rc == 1 and "token" in err, "work with a wrong token: exit 1 naming the token, "
          "got %d %s" % (rc, err[-500:]))
    status, data = request(port, "POST", "/api/bots/x/submissions", token, "x")
    check(status in (404, 405), "no author routes on a league: got %d %s" % (status, data))
    status, data = request(port, "GET", "/")
    check(status == 200, "the league's page: got %d" % status)
    status, data = request(port, "GET", "/api/workers")
    check(status == 200 and "workers" in json.loads(data), "/api/workers: %d %s" % (status, data))

    # leases until the league has its games: the ask after the last one ends it
    for _ in range(GAMES + 2):
        if league.poll() is not None:
            break
        rc, err = work(url, token, cache, league)
        check(rc == 0, "work --once: exit 0, got %d %s" % (rc, err[-500:]))
    try:
        out, _ = league.communicate(timeout=HANG)
    except subprocess.TimeoutExpired:
        out = ""
        check(False, "the league did not stop at max_games")
    check(league.returncode == 0 and "max_games reached" in out,
          "the league stopped at max_games: %s %s" % (league.returncode, out))
finally:
    if league.poll() is None:
        league.kill()
        league.wait()
    log.close()

with open(os.path.join(L, "games.jsonl")) as f:
    records = [json.loads(x) for x in f if x.strip()]
check(len(records) == GAMES, "%d games recorded, expected %d" % (len(records), GAMES))
taken = 0
with open(os.path.join(L, "workers.jsonl")) as f:
    for x in f:
        e = json.loads(x)
        if e["event"] == "taken" and e["worker"] == "box":
            taken += e["games"]
check(taken == len(records), "every game from the worker: %d taken of %d" % (taken,
                                                                           len(records)))
r = subprocess.run([ARENA, "status", L], capture_output=True, text=True, timeout=HANG)
line = [x for x in r.stdout.splitlines() if x.strip().startswith("box")]
check(len(line) == 1 and ", %d games," % GAMES in line[0] and
      "0 re-played, 0 mismatches, 0 re-plays failed" in line[0],
      "status lists the worker with its games and re-plays: %s" % r.stdout)
with open(os.path.join(top, "league.err")) as f:
    said = f.read()
if failed:
    print("league.err:", said[-3000:], file=sys.stderr)
    sys.exit(1)
subprocess.run(["rm", "-rf", top], check=True)
print("league --listen: %d games, all from the worker" % GAMES)
