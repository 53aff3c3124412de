#!/usr/bin/env python3
"""`skipbo-arena work` against a fake host (fake_host.py): a lease of real
games played and sent back (each game once, with a replay that re-checks,
its bots told the lease's ids, rotation phases kept, a heartbeat), 204 and
Retry-After honoured, a 409 (or 404) on results drops the lease, a version refused,
and SIGTERM mid-lease releases it with no bot process left.

A bundled bot (made by make_bundle, as the host makes it) runs from the
cache, fetched once; a lease seating a bot whose program this machine lacks
is released saying so.

usage: test_work.py SKIPBO_ARENA SKIPBO_EASY SKIPBO_MEDIUM MAKE_BUNDLE"""

import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fake_host import FakeHost, make_lease  # noqa: E402

ARENA, EASY, MEDIUM, MAKE_BUNDLE = sys.argv[1:5]
HANG = 120  # far above what any step needs on a busy machine


def settings_of_a_run(tmp):
    """A real tournament.json, made by `run` of a tiny tournament, less what a lease leaves out."""
    spec = {"name": "tiny", "players": 2, "deals": 1, "duplicate": True,
            "rules": {"stock_size": 5}, "sandbox": "off",
            "bots": [{"name": "easy", "command": [EASY]}, {"name": "medium", "command": [MEDIUM]}]}
    path = os.path.join(tmp, "tiny.json")
    with open(path, "w") as f:
        json.dump(spec, f)
    out = os.path.join(tmp, "tiny-run")
    subprocess.run([ARENA, "run", "-q", "--no-report", "--output", out, path], check=True,
                   timeout=HANG, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "tournament.json")) as f:
        doc = json.load(f)
    for key in ("seed", "output", "bots"):
        doc.pop(key, None)
    return doc


def wrapped_bots(tmp, log, delay):
    """easy and medium behind a shell that logs its start ("spawn PID") and every line
    the bot is sent ("PID LINE": the told ids), each starting `delay` seconds late, so
    that a lease lasts a while."""
    bots = []
    for name, prog in (("easy", EASY), ("medium", MEDIUM)):
        script = ('echo "spawn $$" >> "$TOLD_LOG"; sleep "$DELAY"; '
                  'while IFS= read -r line; do printf "%%s %%s\\n" "$$" "$line" >> "$TOLD_LOG"; '
                  'printf "%%s\\n" "$line"; done | exec "%s"' % prog)
        bots.append({"name": name, "command": ["/bin/sh", "-c", script, name + "-" + MARK],
                     "cwd": tmp, "env": {"TOLD_LOG": log, "DELAY": str(delay)}, "bundle": None})
    return bots


def worker(host, tmp, *args, token="tok", once=True):
    env = dict(os.environ, SKIPBO_TOKEN=token, TMPDIR=os.path.join(tmp, "scratch"))
    os.makedirs(env["TMPDIR"], exist_ok=True)
    cmd = [ARENA, "work", "-j", "2", "--cache", os.path.join(tmp, "cache")]
    cmd += (["--once"] if once else []) + list(args) + [host.url]
    return subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def read(path):
    with open(path) as f:
        return f.read()


def finish(w):
    """The worker's output once it exits; killed when it hangs, so no test leaves it."""
    try:
        return w.communicate(timeout=HANG)
    except subprocess.TimeoutExpired:
        w.kill()
        w.communicate()
        raise


def bot_processes_left():
    left = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open("/proc/%s/cmdline" % pid, "rb") as f:
                    if MARK.encode() in f.read():
                        left.append(pid)
            except OSError:
                pass
    return left


def wait_for(pred, what):
    t = time.monotonic()
    while not pred():
        assert time.monotonic() - t < HANG, "no " + what
        time.sleep(0.05)


def test_https(tmp):
    """The host over HTTPS: its certificate checked against --cacert, refused without."""
    cert, key = os.path.join(tmp, "cert.pem"), os.path.join(tmp, "key.pem")
    made = subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                           "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=127.0.0.1",
                           "-addext", "subjectAltName=IP:127.0.0.1"], capture_output=True)
    assert made.returncode == 0, made.stderr
    sentence = "over https: this host runs another version"
    host = FakeHost("tok", [("refuse", 409, sentence)], tls=(cert, key))
    try:
        w = worker(host, tmp, "--cacert", cert)
        out, err = finish(w)
        assert w.returncode == 1 and sentence in err, err
        # the system's CAs do not know this certificate: the host is never heard
        asks = len(host.posts("/api/work/lease"))
        said = os.path.join(tmp, "unverified.err")
        with open(said, "w") as f:
            w = subprocess.Popen([ARENA, "work", "--once", "--cache", os.path.join(tmp, "cache"),
                                  host.url], env=dict(os.environ, SKIPBO_TOKEN="tok"),
                                 stdout=subprocess.DEVNULL, stderr=f)
        try:
            wait_for(lambda: "asking for work" in read(said), "a refused certificate")
        finally:
            w.send_signal(signal.SIGTERM)
            finish(w)
        err = read(said)
        assert w.returncode == 0 and "certificate" in err.lower(), err
        assert len(host.posts("/api/work/lease")) == asks
    finally:
        host.stop()


def test_lease_played(tmp, settings):
    log = os.path.join(tmp, "told.log")
    lease = make_lease("L1", settings, wrapped_bots(tmp, log, 1), deals=3, expires_in=3)
    host = FakeHost("tok", [("none", 2), ("lease", lease), ("none", 30)])
    try:
        w = worker(host, tmp)
        out, err = finish(w)
        assert w.returncode == 0, "exit %d: %s" % (w.returncode, err)
        asks = host.posts("/api/work/lease")
        assert len(asks) == 2, "asked %d times" % len(asks)
        ask = json.loads(asks[0][3])
        assert ask["jobs"] == 2 and ask["cpus"] >= 1 and ask["bundles"] == []
        assert re.fullmatch(r"\d+\.\d+\.\d+", ask["version"])
        # 2 s, a quarter more or less
        assert asks[1][0] - asks[0][0] >= 1.4, "Retry-After 2 not waited for"
        batches = host.batches()
        games = [g for b in batches for g in b[3]]
        ids = sorted(r["id"] for r, _ in games)
        assert ids == sorted(g["id"] for g in lease["games"]), (ids, err)
        assert batches[-1][2]["done"] is True
        assert all(not b[2]["done"] for b in batches[:-1])
        # a heartbeat: an empty batch while the bots were starting
        assert any(b[2]["games"] == 0 and not b[2]["done"] for b in batches), \
            [b[2] for b in batches]
        by_id = {g["id"]: g for g in lease["games"]}
        check = os.path.join(tmp, "replays")
        os.makedirs(check)
        for record, replay in games:
            g = by_id[record["id"]]
            assert record["bots"] == g["seats"], (record["bots"], g["seats"])
            assert record["seed"] in (g["seed"], int(g["seed"], 16)), record["seed"]
            assert replay["id"] == record["id"]
            with open(os.path.join(check, record["id"] + ".json"), "w") as f:
                json.dump(replay, f)
        files = sorted(os.path.join(check, n) for n in os.listdir(check))
        r = subprocess.run([ARENA, "replay", "-q"] + files, capture_output=True, text=True,
                           timeout=HANG)
        assert r.returncode == 0, r.stdout + r.stderr
        # the bots were told the lease's ids, and no other
        with open(log) as f:
            lines = [line.split(" ", 1) for line in f.read().splitlines()]
        told = {}
        for pid, text in lines:
            if pid != "spawn":
                told.setdefault(pid, set()).update(re.findall(r'"game":\s*"([^"]+)"', text))
        assert set().union(*told.values()) == {g["told"] for g in lease["games"]}
        # rotation phases: every process of rotation 1 started after the last line
        # a process of rotation 0 was sent
        r0 = {g["told"] for g in lease["games"] if g["rotation"] == 0}
        pids0 = {pid for pid, ids in told.items() if ids & r0}
        pids1 = {pid for pid, ids in told.items() if ids - r0}
        assert pids0 and pids1 and not pids0 & pids1
        last0 = max(i for i, (pid, _) in enumerate(lines) if pid in pids0)
        first1 = min(i for i, (word, pid) in enumerate(lines) if word == "spawn" and pid in pids1)
        assert last0 < first1, "a rotation-1 process started before rotation 0 ended"
        assert os.listdir(os.path.join(tmp, "scratch")) == [], "the lease's directory is left"
        assert "games/s" in err, err
        print("lease played: %d games in %d batches; %s" % (len(games), len(batches),
                                                           err.strip().splitlines()[-1]))
    finally:
        host.stop()


def test_results_ended(tmp, settings, status):
    log = os.path.join(tmp, "told-%s.log" % status)
    lease = make_lease("L2", settings, wrapped_bots(tmp, log, 1), deals=6)
    host = FakeHost("tok", [("lease", lease), ("none", 1)], results=status)
    try:
        w = worker(host, tmp, once=False)
        wait_for(lambda: len(host.posts("/api/work/lease")) >= 2, "second ask")
        w.send_signal(signal.SIGTERM)
        out, err = finish(w)
        assert w.returncode == 0, "exit %d: %s" % (w.returncode, err)
        results = host.posts("/results")
        assert len(results) == 1, "%d results posted after the 409" % len(results)
        assert host.posts("/release") == [], "a dropped lease released"
        assert results[0][0] < host.posts("/api/work/lease")[1][0]
        assert "dropped" in err, err
        assert not bot_processes_left()
    finally:
        host.stop()


def test_version_refused(tmp):
    sentence = "this host runs skipbo-arena 9.9.9 and this worker 0.0.0"
    host = FakeHost("tok", [("refuse", 409, sentence)])
    try:
        w = worker(host, tmp)
        out, err = finish(w)
        assert w.returncode == 1, "exit %d" % w.returncode
        assert sentence in err and "install the host's version" in err, err
        w = worker(host, tmp, token="wrong")
        out, err = finish(w)
        assert w.returncode == 1 and "does not know this token" in err, err
    finally:
        host.stop()


def test_sigterm(tmp, settings):
    log = os.path.join(tmp, "told-term.log")
    lease = make_lease("L3", settings, wrapped_bots(tmp, log, 2), deals=8)
    host = FakeHost("tok", [("lease", lease), ("none", 30)])
    try:
        w = worker(host, tmp)
        wait_for(lambda: os.path.exists(log), "bot started")
        w.send_signal(signal.SIGTERM)
        out, err = finish(w)
        assert w.returncode == 0, "exit %d: %s" % (w.returncode, err)
        releases = host.posts("/release")
        assert len(releases) == 1 and json.loads(releases[0][3]) == {"why": "stopping"}
        assert releases[0][2] == "/api/work/leases/L3/release"
        sent = [g for b in host.batches() for g in b[3]]
        assert len(sent) < len(lease["games"]), "the whole lease played after SIGTERM"
        assert all(not b[2]["done"] for b in host.batches())
        assert not bot_processes_left(), bot_processes_left()
        assert os.listdir(os.path.join(tmp, "scratch")) == []
    finally:
        host.stop()


def test_bundled(tmp, settings):
    alpha = os.path.join(tmp, "bundled", "alpha")
    os.makedirs(alpha)
    shutil.copy2(EASY, os.path.join(alpha, "bot"))
    os.makedirs(os.path.join(tmp, "host-cache"))
    made = subprocess.run([MAKE_BUNDLE, os.path.join(tmp, "host-cache"), alpha,
                           os.path.join(alpha, "bot")], capture_output=True, text=True,
                          timeout=HANG)
    assert made.returncode == 0, made.stderr
    sha = made.stdout.strip()
    with open(os.path.join(tmp, "host-cache", sha + ".tar"), "rb") as f:
        data = f.read()
    # only the cache can run it now
    shutil.rmtree(os.path.join(tmp, "bundled"))
    bots = [{"name": "alpha", "command": [os.path.join(alpha, "bot")], "cwd": alpha,
             "env": {}, "bundle": sha},
            {"name": "medium", "command": [MEDIUM], "cwd": tmp, "env": {}, "bundle": None}]
    for lease_id in ("L5", "L6"):
        lease = make_lease(lease_id, settings, bots, deals=2)
        host = FakeHost("tok", [("lease", lease), ("none", 30)], bundles={sha: data})
        try:
            w = worker(host, tmp)
            out, err = finish(w)
            assert w.returncode == 0, "exit %d: %s" % (w.returncode, err)
            fetched = [r for r in host.requests if r[1] == "GET"]
            held = json.loads(host.posts("/api/work/lease")[0][3])["bundles"]
            if lease_id == "L5":
                assert [r[2] for r in fetched] == ["/api/work/bundles/" + sha] and held == []
            else:
                assert fetched == [] and held == [sha], (fetched, held)
            games = [g for b in host.batches() for g in b[3]]
            assert sorted(r["id"] for r, _ in games) == sorted(g["id"] for g in lease["games"]), err
            assert all("alpha" in r["bots"] for r, _ in games)
            assert all(not r.get("faults") for r, _ in games), [r["faults"] for r, _ in games]
        finally:
            host.stop()
    assert os.path.isdir(os.path.join(tmp, "cache", sha))


def test_lacks_program(tmp, settings):
    missing = os.path.join(tmp, "no-jvm", "java")
    bots = [{"name": "javabot", "command": [missing, "-jar", "bot.jar"], "cwd": tmp,
             "bundle": None},
            {"name": "medium", "command": [MEDIUM], "cwd": tmp, "bundle": None}]
    host = FakeHost("tok", [("lease", make_lease("L7", settings, bots, deals=1)),
                            ("none", 30)])
    try:
        w = worker(host, tmp)
        out, err = finish(w)
        assert w.returncode == 0, "exit %d: %s" % (w.returncode, err)
        releases = host.posts("/release")
        assert len(releases) == 1 and releases[0][2] == "/api/work/leases/L7/release"
        assert json.loads(releases[0][3]) == {"why": "lacks " + missing}, releases[0][3]
        assert host.posts("/results") == []
    finally:
        host.stop()


MARK = "skipbo-work-test-" + secrets.token_hex(4)


def main():
    tmp = tempfile.mkdtemp(prefix="skipbo-test-work-")
    try:
        settings = settings_of_a_run(tmp)
        test_version_refused(tmp)
        if shutil.which("openssl"):
            test_https(tmp)
        else:
            print("no openssl: the HTTPS part is not tested")
        test_lease_played(tmp, settings)
        test_results_ended(tmp, settings, "409")
        test_results_ended(tmp, settings, "404")
        test_sigterm(tmp, settings)
        test_bundled(tmp, settings)
        test_lacks_program(tmp, settings)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("ok")


if __name__ == "__main__":
    main()
