#!/usr/bin/env python3
"""A worker that lies to the host (arena/WORKERS.md, "Trust"): a real
`skipbo-arena work --once` with an untrusted worker's token, through a proxy
that rewrites what it sends. The host must reject, each with its reason:
  - a forged winner: every record of the lease with its winners and placings
    turned around (the replay, re-checked, gives the true ones);
  - an invented game: a record and replay of a game no lease holds;
  - an old result sent again: a game this worker's earlier lease had taken;
  - a result for a game it was never leased: another worker's game, taken
    from that worker's output;
and none of these may reach games.jsonl or change the ranking.
  test_host_liars.py ARENA BOTS_DIR
BOTS_DIR holds the built skipbo-easy, skipbo-medium and skipbo-hard."""
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import urllib.error
import urllib.request

ARENA, BOTS = sys.argv[1], sys.argv[2]
HANG = 120  # seconds: a hang guard for one lease of stock-5 games, far above its time


def fail(why):
    print("FAIL:", why, file=sys.stderr)
    sys.exit(1)


def request(url, body=None, token=None, ctype="application/json"):
    """(status, body bytes) of a GET, or a POST when body is given."""
    req = urllib.request.Request(url, data=body, method="POST" if body is not None else "GET")
    if token:
        req.add_header("Authorization", "Bearer " + token)
    if body is not None:
        req.add_header("Content-Type", ctype)
    try:
        with urllib.request.urlopen(req, timeout=HANG) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


class Proxy(http.server.BaseHTTPRequestHandler):
    """Forwards a worker's requests to the host; in lying mode, turns the
    winners of what the worker sends around and slips the other lies into
    the same lease. Every results answer is kept in `answers`."""
    host = ""
    lying = False
    lies = []       # (what, results body) sent once, on the first batch with games
    answers = []    # (what, status, document)
    leases = []     # the lease documents handed through

    def log_message(self, *args):
        pass

    def forward(self, body):
        req = urllib.request.Request(self.host.rstrip("/") + self.path, data=body,
                                     method=self.command)
        for h in ("Authorization", "Content-Type"):
            if self.headers.get(h):
                req.add_header(h, self.headers[h])
        try:
            with urllib.request.urlopen(req, timeout=HANG) as r:
                return r.status, dict(r.headers), r.read()
        except urllib.error.HTTPError as e:
            return e.code, dict(e.headers), e.read()

    def answer(self, status, headers, data):
        self.send_response(status)
        for h in ("Content-Type", "Retry-After"):
            if h in headers:
                self.send_header(h, headers[h])
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self.answer(*self.forward(None))

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        results = re.fullmatch(r"/api/work/leases/[^/]+/results", self.path)
        if results and Proxy.lying:
            head_line, rest = body.split(b"\n", 1)
            head = json.loads(head_line)
            if head.get("games", 0) > 0:
                while Proxy.lies:
                    what, lie = Proxy.lies.pop(0)
                    st, _, doc = self.forward(lie)
                    Proxy.answers.append((what, st, doc))
                # the records forged, the worker's frame of replays kept as it is
                records = []
                for _ in range(head["games"]):
                    line, rest = rest.split(b"\n", 1)
                    records.append(forge(line.decode()).encode() + b"\n")
                body = head_line + b"\n" + b"".join(records) + rest
        status, headers, data = self.forward(body)
        if results:
            Proxy.answers.append(("worker" if not Proxy.lying else "forged", status, data))
        if self.path == "/api/work/lease" and status == 200:
            Proxy.leases.append(json.loads(data))
        self.answer(status, headers, data)


def forge(record_line):
    """The record with its winner turned around (placings reversed)."""
    r = json.loads(record_line)
    first = r["placings"].index(min(r["placings"]))
    r["placings"] = [1 if i != first else len(r["placings"]) for i in range(len(r["placings"]))]
    r["winners"] = [i for i in range(len(r["placings"])) if i != first][:1]
    return json.dumps(r, separators=(",", ":"))


def batch(pairs):
    """A results body (WORKERS.md): a head line, each game's record, then its replays
    as one zstd frame that says its size."""
    records = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r, _ in pairs)
    docs = "".join(replay.rstrip("\n") + "\n" for _, replay in pairs).encode()
    frame = subprocess.run(["zstd", "-q", "-c", "--stream-size=%d" % len(docs)], input=docs,
                           capture_output=True, check=True).stdout
    head = json.dumps({"done": False, "games": len(pairs), "replays": len(frame)})
    return (head + "\n" + records).encode() + frame


STARTED = []  # the hosts this test started, killed at its end if still there


def main():
    work = tempfile.mkdtemp(prefix="skipbo-liars.")
    try:
        run(work)
    finally:
        for p in STARTED:
            if p.poll() is None:
                p.kill()
                p.wait()
        shutil.rmtree(work, ignore_errors=True)


def start_host(d, log, env):
    """host -j 0 d, its output in log: (the process, its URL)."""
    log.seek(0)
    log.truncate()
    p = subprocess.Popen([ARENA, "host", "--listen", "127.0.0.1:0", "-j", "0", d],
                         stdout=log, stderr=subprocess.STDOUT, env=env)
    STARTED.append(p)
    return p, wait_url(log, p)


def games_of(d):
    with open(os.path.join(d, "games.jsonl"), encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def accepted_ids():
    """The ids of every game the host said it took."""
    ids = set()
    for _, st, doc in Proxy.answers:
        if st == 200:
            ids.update(json.loads(doc).get("accepted", []))
    return ids


def stop(host):
    host.terminate()
    if host.wait(timeout=HANG) != 0:
        fail(f"the host's exit status {host.returncode} on SIGTERM")


def ranking(work, d, name):
    out = os.path.join(work, name)
    subprocess.run([ARENA, "report", "-q", "-o", out, d], check=True,
                   stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "ratings.json"), encoding="utf-8") as f:
        return {b["bot"]: (b["elo"], b["games"]) for b in json.load(f)["bots"]}


def run(work):
    d = os.path.join(work, "L")
    os.mkdir(d)
    with open(os.path.join(d, "league.jsonc"), "w", encoding="utf-8") as f:
        json.dump({"name": "liars", "bots": [
            {"name": "medium", "command": [os.path.join(BOTS, "skipbo-medium")]},
            {"name": "hard", "command": [os.path.join(BOTS, "skipbo-hard")]}],
            "players": 2, "rules": {"stock_size": 5}, "sandbox": "off", "seed": "99",
            "league": {"anchors": {"skipbo-easy": 0}, "floor": 2,
                       "stop_when_separated": False}}, f)
    # every replay of an untrusted worker is re-checked; no re-play on the host (-j 0)
    with open(os.path.join(d, "host.jsonc"), "w", encoding="utf-8") as f:
        f.write('{ "lease_seconds": 5, "expire_seconds": 60, "replay_sample": 0 }\n')
    env = dict(os.environ, PATH=BOTS + ":" + os.environ["PATH"])
    tokens = {}
    for name, extra in (("honest", ["--trusted"]), ("liar", [])):
        tokens[name] = subprocess.run([ARENA, "host", "account", "add", "--worker", *extra, d,
                                       name], check=True, capture_output=True,
                                      text=True).stdout.strip()
        with open(os.path.join(work, name + ".token"), "w", encoding="utf-8") as f:
            f.write(tokens[name] + "\n")
    log = open(os.path.join(work, "host.out"), "w+", encoding="utf-8")
    host, url = start_host(d, log, env)

    proxy = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
    Proxy.host = url
    threading.Thread(target=proxy.serve_forever, daemon=True).start()
    proxy_url = "http://127.0.0.1:%d/" % proxy.server_address[1]

    def work_once(name, via):
        p = subprocess.run([ARENA, "work", "--once", "-j", "1", "--token-file",
                            os.path.join(work, name + ".token"), via], env=env,
                           capture_output=True, text=True, timeout=HANG)
        return p.returncode, p.stdout + p.stderr

    # Another worker's games, and this worker's own earlier ones, as the host took them.
    rc, out = work_once("honest", proxy_url)
    if rc != 0:
        fail(f"the honest worker: exit {rc}: {out[-2000:]}")
    honest_ids = accepted_ids()
    rc, out = work_once("liar", proxy_url)
    if rc != 0:
        fail(f"the liar's first, honest lease: exit {rc}: {out[-2000:]}")
    # The host stopped, so that every game it took is in games.jsonl (it groups
    # its commits), and started again for the lies.
    stop(host)
    taken_before = games_of(d)
    if {g["id"] for g in taken_before} != accepted_ids():
        fail(f"games.jsonl holds {[g['id'] for g in taken_before]}, the host took {accepted_ids()}")
    honest = [g for g in taken_before if g["id"] in honest_ids]
    own = [g for g in taken_before if g["id"] not in honest_ids]
    if not honest or not own:
        fail(f"no games to lie with: {len(honest)} of the honest worker, {len(own)} of its own")
    before = ranking(work, d, "before")
    host, url = start_host(d, log, env)
    Proxy.host = url

    # the replay of a game as the host serves it: by its place in games.jsonl
    index = {g["id"]: k for k, g in enumerate(taken_before)}

    def replay_of(g):
        st, doc = request(f"{url}api/t/0/game/{index[g['id']]}/replay")
        if st != 200:
            fail(f"the replay of {g['id']}: {st} {doc[:200]!r}")
        return json.dumps(json.loads(doc), separators=(",", ":"))

    invented = dict(own[0], id="t0999-d0999-r0", table=999, deal=999)
    Proxy.lies = [
        ("invented", batch([(invented, replay_of(own[0]))])),
        ("old", batch([(own[0], replay_of(own[0]))])),
        ("never leased", batch([(honest[0], replay_of(honest[0]))])),
    ]
    lies = {"invented": invented["id"], "old": own[0]["id"], "never leased": honest[0]["id"]}
    Proxy.lying = True
    rc, out = work_once("liar", proxy_url)
    proxy.shutdown()
    stop(host)

    said = {}
    for what, st, doc in Proxy.answers:
        if what == "worker":
            continue
        if st != 200:
            fail(f"{what}: the host answered {st} {doc[:300]!r}, not a document of rejections")
        a = json.loads(doc)
        rejected = {r["id"]: r["why"] for r in a.get("rejected", [])}
        if what == "forged":
            if a.get("accepted"):
                fail(f"forged winners accepted: {a['accepted']}")
            for gid, why in rejected.items():
                said.setdefault("forged", (gid, why))
        elif lies[what] not in rejected or lies[what] in a.get("accepted", []):
            fail(f"{what} ({lies[what]}): not rejected: {a}")
        else:
            said[what] = (lies[what], rejected[lies[what]])
    # each refused for what is wrong with it: the replay's result, or a game not of the lease
    for what, reason in (("forged", "replay"), ("invented", "lease"), ("old", "lease"),
                         ("never leased", "lease")):
        if what not in said or reason not in said[what][1]:
            fail(f"the {what} result not refused for its {reason}: {said.get(what)}")
        print(f"{what}: {said[what][0]} rejected: {said[what][1]}")

    after = games_of(d)
    if len(after) != len(taken_before):
        fail(f"games.jsonl went from {len(taken_before)} to {len(after)} games")
    ids = [g["id"] for g in after]
    if len(set(ids)) != len(ids) or invented["id"] in ids:
        fail("a lie reached games.jsonl")
    if ranking(work, d, "after") != before:
        fail("the ranking changed")
    print(f"a lying worker: 4 kinds of lie rejected, {len(after)} games and the ranking unchanged")


def wait_url(log, host):
    for _ in range(300):
        log.seek(0)
        m = re.search(r"^hosting \S+ at (\S+) ", log.read(), re.M)
        if m:
            return m.group(1)
        if host.poll() is not None:
            break
        threading.Event().wait(0.1)
    log.seek(0)
    fail("the host did not start: " + log.read()[-2000:])
    return ""


main()
