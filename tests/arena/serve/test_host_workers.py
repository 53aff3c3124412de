"""test_host_workers.py - `skipbo-arena host -j 0 DIR` and its workers' routes
over real HTTP (port 0), acting as a worker by hand (arena/WORKERS.md): the
refusals (no token 401, an author's and an organiser's token 403, a revoked
worker 401, wrong tokens counted to a 429 with the authors', another version 409 naming both, an unknown lease 404, results
for a released lease 409, a bundle of an unknown hash 404, a bad ask 400), a
lease of whole deal groups for the league that plays nothing itself, a private
entry's deals and bundle kept from the untrusted worker and given to the trusted
one, the workers' document with names for an organiser only (checked against
serve-api.schema.json), the dashboard's Workers panel in headless Chromium at
1280 and 390 px (that part skipped without it; screenshots in SHOTS), and
`status DIR` listing the workers.
    test_host_workers.py ARENA BADBOT SHOTS"""
import http.client
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "game"))
import cdp  # noqa: E402
from host_fixture import (Host, check, desk_and_phone, entered_bots,  # noqa: E402
                          failures, make_competition, valid, wait_js)

arena, badbot, shots = (os.path.abspath(a) for a in sys.argv[1:4])
work = tempfile.mkdtemp(prefix="skipbo-workers.")
os.chmod(work, 0o755)  # the sandbox's uids reach the league's directory
version = subprocess.run([arena, "--version"], capture_output=True, text=True,
                         check=True).stdout.split()[-1]


def req(host, method, path, doc=None, token=None):
    """One request on a new connection: (status, headers, body as text)."""
    c = http.client.HTTPConnection("127.0.0.1", host.port, timeout=60)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    c.request(method, path, body=None if doc is None else
              doc if isinstance(doc, str) else json.dumps(doc), headers=headers)
    r = c.getresponse()
    data = r.read().decode("utf-8", "replace")
    c.close()
    if r.status >= 400:
        valid(json.loads(data), "error")
    return r.status, r.headers, data


def refused(host, method, path, doc, token, status, words):
    got, _, data = req(host, method, path, doc, token)
    check(got == status and words in data,
          "%s %s: expected %d with %r, got %d %s" % (method, path, status, words, got, data))


def ask(n_bundles=0):
    return {"version": version, "cpus": 2, "jobs": 1, "bundles": ["0" * 64] * n_bundles}


C = os.path.join(work, "C")
tokens = make_competition(arena, badbot, C, {"lease_seconds": 5, "expire_seconds": 60,
                                             "login_failures": 6},
                          {"alice": [], "org": ["--organiser"], "box1": ["--worker"],
                           "box2": ["--worker", "--trusted"], "gone": ["--worker"]})
listing = subprocess.run([arena, "host", "account", "list", C], capture_output=True,
                         text=True, check=True).stdout
check(any(line.split()[:2] == ["box2", "worker+"] for line in listing.splitlines()),
      "account list shows the trusted worker as worker+: " + listing)
check(any(line.split()[:2] == ["box1", "worker"] for line in listing.splitlines()),
      "account list shows the untrusted worker as worker: " + listing)
r = subprocess.run([arena, "host", "account", "add", "--trusted", C, "carol"],
                   capture_output=True, text=True)
check(r.returncode == 2 and "--trusted goes with" in r.stderr,
      "--trusted without --worker: usage error 2: %d %s" % (r.returncode, r.stderr))
subprocess.run([arena, "host", "account", "revoke", C, "gone"], capture_output=True, check=True)
# two entries from submissions: "priv" private (its manifest), "pub" not; priv's program a
# copy of badbot of its own, so that its bundle is not pub's
os.makedirs(os.path.join(work, "priv"))
shutil.copy(badbot, os.path.join(work, "priv", "badbot"))
entered_bots(C, {"pub": ("alice", [badbot, "good"]),
                 "priv": ("alice", [os.path.join(work, "priv", "badbot"), "good"])})
for sid, private in ((1, False), (2, True)):
    tree = os.path.join(C, "submissions", str(sid), "tree")
    os.makedirs(tree)
    with open(os.path.join(tree, "skipbo.json"), "w") as f:
        json.dump({"language": "c", "private": private}, f)

host = Host(arena, C, os.path.join(work, "host.log"), "-j", "0")
try:
    lease_path = "/api/work/lease"
    refused(host, "POST", lease_path, ask(), None, 401, "no token")
    refused(host, "POST", lease_path, ask(), "sbt_" + "0" * 64, 401, "not a live worker's")
    refused(host, "POST", lease_path, ask(), tokens["gone"], 401, "not a live worker's")
    refused(host, "POST", lease_path, ask(), tokens["alice"], 403, "not a worker's")
    refused(host, "POST", lease_path, ask(), tokens["org"], 403, "not a worker's")
    old = dict(ask(), version="0.0.1")
    refused(host, "POST", lease_path, old, tokens["box1"], 409, "0.0.1")
    refused(host, "POST", lease_path, old, tokens["box1"], 409, version)
    refused(host, "POST", lease_path, {"cpus": 1}, tokens["box1"], 400, "version")
    refused(host, "POST", lease_path, "not json", tokens["box1"], 400, "not JSON")
    refused(host, "POST", "/api/work/leases/L999999/results",
            '{"done": false, "games": 0, "replays": 0}\n', tokens["box1"], 404, "")
    refused(host, "GET", "/api/work/bundles/" + "c" * 64, None, tokens["box1"], 404,
            "no such bundle")

    # a lease: the league plays nothing itself (-j 0), so the worker gets the first deals
    lease = None
    for _ in range(600):
        status, headers, data = req(host, "POST", lease_path, ask(), tokens["box1"])
        if status == 200:
            lease = json.loads(data)
            break
        check(status == 204 and headers.get("Retry-After"),
              "no work yet: 204 with Retry-After, got %d %s" % (status, data))
        time.sleep(0.1)
    check(lease is not None, "a lease within a minute of the host's start")
    if lease:
        groups = {}
        for g in lease["games"]:
            groups.setdefault((g["table"], g["deal"]), set()).add(g["rotation"])
        rotations = set(map(frozenset, groups.values()))
        check(len(rotations) == 1 and 0 in next(iter(rotations)),
              "a lease holds every rotation of each of its deals: %s" % groups)
        check(all(len(g["seed"]) == 16 for g in lease["games"]), "each game carries its seed")
        check("seed" not in lease["tournament"], "the league's seed is never sent")
        # released: its results are refused as those of an ended lease
        lid = lease["lease"]
        status, _, data = req(host, "POST", "/api/work/leases/%s/release" % lid,
                              {"why": "stopping"}, tokens["box1"])
        check(status == 200, "release: 200, got %d %s" % (status, data))
        refused(host, "POST", "/api/work/leases/%s/results" % lid,
                '{"done": false, "games": 0, "replays": 0}\n', tokens["box1"], 409, "")
        refused(host, "POST", "/api/work/leases/%s/results" % lid,
                '{"done": false, "games": 0, "replays": 0}\n', tokens["box2"], 404, "")

    # the untrusted worker, holding its leases, is leased no deal seating the private
    # entry; those wait for the trusted one, which gets them and priv's bundle
    held = []
    for _ in range(12):
        status, _, data = req(host, "POST", lease_path, ask(), tokens["box1"])
        if status == 200:
            got = json.loads(data)
            held.append((got["lease"], "box1"))
            check(all(b["name"] != "priv" for b in got["bots"]) and
                  all("priv" not in g["seats"] for g in got["games"]),
                  "no private bot for an untrusted worker: %s" % data)
    status, _, data = req(host, "POST", lease_path, dict(ask(), jobs=16), tokens["box2"])
    check(status == 200, "a lease for the trusted worker: %d %s" % (status, data))
    if status == 200:
        got = json.loads(data)
        priv = [b for b in got["bots"] if b["name"] == "priv"]
        check(priv and priv[0]["bundle"] and any("priv" in g["seats"] for g in got["games"]),
              "the private entry's deals for the trusted worker: %s" % data)
        if priv and priv[0]["bundle"]:
            path = "/api/work/bundles/" + priv[0]["bundle"]
            refused(host, "GET", path, None, tokens["box1"], 403, "private")
            status, headers, _ = req(host, "GET", path, token=tokens["box2"])
            check(status == 200, "the private bundle to the trusted worker: %d" % status)
        held.append((got["lease"], "box2"))
    for lid, who in held:
        req(host, "POST", "/api/work/leases/%s/release" % lid, {"why": "stopping"}, tokens[who])

    # a whole exchange with the real worker: it leases, plays and sends back; the host
    # takes the games into its own games.jsonl
    env = dict(os.environ, SKIPBO_TOKEN=tokens["box2"], TMPDIR=os.path.join(work, "scratch"))
    os.makedirs(env["TMPDIR"], exist_ok=True)
    w = subprocess.run([arena, "work", "--once", "-j", "2", "--cache",
                        os.path.join(work, "cache"), host.url], env=env, capture_output=True,
                       text=True, timeout=300)
    check(w.returncode == 0, "the worker's lease played: %d %s" % (w.returncode, w.stderr))

    # the workers: names for an organiser only
    status, _, data = req(host, "GET", "/api/workers")
    check(status == 200, "GET /api/workers: 200, got %d %s" % (status, data))
    if status == 200:
        valid(json.loads(data), "workers")
        check("box1" not in data and "box2" not in data, "a visitor sees no worker's name: " + data)
        check(len(json.loads(data)["workers"]) >= 2, "a visitor sees both workers counted")
    status, _, data = req(host, "GET", "/api/workers", token=tokens["org"])
    check(status == 200 and "box1" in data and "box2" in data,
          "an organiser sees the names: %s" % data)
    if status == 200:
        box2 = [x for x in json.loads(data)["workers"] if x.get("name") == "box2"]
        check(box2 and box2[0]["games"] >= 2 and box2[0]["trusted"],
              "the trusted worker's games counted: %s" % box2)
    if status == 200:
        valid(json.loads(data), "workers")
    refused(host, "GET", "/api/workers", None, tokens["box1"], 401, "")

    # the dashboard's Workers panel, as a visitor sees it: no names
    chromium = cdp.find_chromium()
    if not chromium:
        print("the dashboard's part skipped: no chromium")
    else:
        os.makedirs(shots, exist_ok=True)
        b = cdp.Browser(chromium, os.path.join(work, "profile"))
        try:
            b.open(host.url + "t/0", 1280)
            if wait_js(b, "the Workers panel", "!!document.querySelector('#workers tbody tr')"):
                row = b.eval("document.querySelector('#workers tbody tr').textContent")
                check("worker 1" in row and "box1" not in row,
                      "the panel names no worker to a visitor: " + row)
                check(any(w in row for w in ("alive", "silent")), "the panel says alive: " + row)
            desk_and_phone(b, shots, "host-workers")
        finally:
            b.close()

    # wrong tokens are counted as the authors' are: then every token of the address is 429
    for _ in range(10):
        status, headers, data = req(host, "POST", lease_path, ask(), "sbt_wrong")
        if status != 401:
            break
    check(status == 429 and headers.get("Retry-After") and "login_failures" in data,
          "too many wrong workers' tokens: 429 with Retry-After, got %d %s" % (status, data))
    refused(host, "POST", lease_path, ask(), tokens["box1"], 429, "too many wrong tokens")
finally:
    check(host.stop() == 0, "host exits 0 on SIGTERM")

# the worker's games, taken by the desk, are the league's own once it has stopped
games = os.path.join(C, "games.jsonl")
recorded = [json.loads(line) for line in open(games)] if os.path.exists(games) else []
check(len(recorded) >= 2, "the worker's games recorded by the host: %d" % len(recorded))
check(all(g["bots"] and g["replay"] for g in recorded),
      "records as the league writes them, each with its replay: %s" % recorded)
out = subprocess.run([arena, "status", C], capture_output=True, text=True)
check("workers: " in out.stdout and "box1" in out.stdout and "box2 (trusted)" in out.stdout,
      "status lists the workers: %s %s" % (out.stdout, out.stderr))
if failures:
    print("host.log:\n" + open(os.path.join(work, "host.log")).read()[-3000:])
    print("%d failure(s); left %s" % (len(failures), work))
    sys.exit(1)
shutil.rmtree(work)
print("ok")
