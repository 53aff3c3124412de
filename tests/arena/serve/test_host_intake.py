"""test_host_intake.py - `skipbo-arena host DIR` over real HTTP (port 0):
every refusal of the write routes with its status and sentence (no token, a
wrong one, another author's bot, an upload over the limit by its
Content-Length and chunked, per-day 429 with Retry-After, failed tokens 429
with Retry-After, a cross-site post, frozen), the 202 only once the upload
and its "received" are on disk, the session cookie, private submissions and
logs, the organiser's disable, `submit` of a folder and of an archive and
the curl recipe of arena/HOSTING.md as printed; kill -9 of the host and the
same command: the acknowledged submission still there.
    test_host_intake.py ARENA BADBOT STARTER_PY"""
import http.client
import json
import os
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from host_fixture import Host, check, failures, make_competition, valid  # noqa: E402

arena, badbot, starter = (os.path.abspath(a) for a in sys.argv[1:4])
work = tempfile.mkdtemp(prefix="skipbo-host.")
os.chmod(work, 0o755)  # the sandbox's uids reach the builds' trees


def req(host, method, path, body=None, headers=None, source="127.0.0.1"):
    """One request on a new connection: (status, headers, body as text)."""
    c = http.client.HTTPConnection("127.0.0.1", host.port, timeout=60,
                                   source_address=(source, 0))
    c.request(method, path, body=body, headers=headers or {})
    r = c.getresponse()
    data = r.read().decode("utf-8", "replace")
    c.close()
    if r.headers.get("Content-Type") == "application/json":
        doc = json.loads(data)
        valid(doc, "error" if r.status >= 400 else "received" if r.status == 202 else
              "login" if path == "/login" else "me" if path == "/api/me" else
              "submission" if path.startswith("/api/submissions/") else None)
    return r.status, r.headers, data


def bearer(token):
    return {"Authorization": "Bearer " + token, "Content-Type": "application/octet-stream"}


def error_of(text):
    try:
        return json.loads(text)["error"]
    except (ValueError, KeyError):
        return ""


C = os.path.join(work, "C")
settings = {"per_day": 2, "upload_mb": 1, "login_failures": 3}
tokens = make_competition(arena, badbot, C, settings,
                          {"alice": [], "bob": [], "org": ["--organiser"]})
alice, bob, org = tokens["alice"], tokens["bob"], tokens["org"]
kit = os.path.join(work, "kit")
shutil.copytree(starter, kit)
# a build that lasts: every submission stays on its way while the test runs, so each counts
# against per_day whatever the pipeline would make of it
with open(os.path.join(kit, "skipbo.json"), "w") as f:
    json.dump({"language": "python", "build": "sleep 600"}, f)
os.makedirs(os.path.join(kit, ".git"))
with open(os.path.join(kit, ".git", "config"), "w") as f:
    f.write("secret\n")
archive = os.path.join(work, "kit.tar.gz")
with tarfile.open(archive, "w:gz") as t:
    t.add(kit, arcname=".", filter=lambda i: None if ".git" in i.name else i)
with open(archive, "rb") as f:
    archive_bytes = f.read()
token_file = os.path.join(work, "alice.token")
with open(token_file, "w") as f:
    f.write(alice + "\n")

host = Host(arena, C, os.path.join(work, "host.out"))
try:
    # the 202 comes once the upload and its event are on disk
    s, h, t = req(host, "POST", "/api/bots/fast/submissions", archive_bytes, bearer(alice))
    check(s == 202, "a good upload: %d %s" % (s, t))
    doc = json.loads(t) if s == 202 else {}
    check(doc.get("state") == "received" and doc.get("url") == "/api/submissions/1",
          "the acknowledgement: %s" % t)
    with open(os.path.join(C, "submissions.jsonl")) as f:
        events = [json.loads(line) for line in f]
    check(any(e["event"] == "received" and e["id"] == 1 and e["author"] == "alice"
              for e in events), "no received event on disk after the 202: %s" % events)
    with open(os.path.join(C, "submissions", "1", "upload"), "rb") as f:
        check(f.read() == archive_bytes, "the upload on disk is not the archive sent")
    check(os.listdir(os.path.join(C, "incoming")) == [], "incoming/ not empty after a 202")

    # who may submit what
    s, h, t = req(host, "POST", "/api/bots/x/submissions", b"x",
                  {"Content-Type": "application/octet-stream"})
    check(s == 401 and "no token" in error_of(t), "no token: %d %s" % (s, t))
    s, h, t = req(host, "POST", "/api/bots/x/submissions", b"x", bearer("sbt_" + "0" * 64),
                  source="127.0.0.3")
    check(s == 401 and "not a live author" in error_of(t), "a wrong token: %d %s" % (s, t))
    s, h, t = req(host, "POST", "/api/bots/fast/submissions", archive_bytes, bearer(bob))
    check(s == 403 and "alice's" in error_of(t), "another author's bot: %d %s" % (s, t))
    s, h, t = req(host, "POST", "/api/bots/fast/submissions", archive_bytes,
                  dict(bearer(alice), Origin="http://evil.example"))
    check(s == 403 and "another site" in error_of(t), "a cross-site Origin: %d %s" % (s, t))
    s, h, t = req(host, "POST", "/login", "token=" + alice,
                  {"Sec-Fetch-Site": "cross-site",
                   "Content-Type": "application/x-www-form-urlencoded"})
    check(s == 403 and "another site" in error_of(t), "a cross-site login: %d %s" % (s, t))

    # too big: by its Content-Length before reading, and counted when chunked
    c = http.client.HTTPConnection("127.0.0.1", host.port, timeout=60)
    c.putrequest("POST", "/api/bots/big/submissions")
    for k, v in bearer(alice).items():
        c.putheader(k, v)
    c.putheader("Content-Length", str(2 << 20))
    c.endheaders()
    r = c.getresponse()
    t = r.read().decode()
    c.close()
    check(r.status == 413 and "limit of 1 MiB" in error_of(t), "Content-Length over: %d %s"
          % (r.status, t))
    s, h, t = req(host, "POST", "/api/bots/big/submissions",
                  iter([b"z" * 65536] * 24), bearer(alice))  # no length: chunked
    check(s == 413 and "limit of 1 MiB" in error_of(t), "chunked over: %d %s" % (s, t))
    check(os.listdir(os.path.join(C, "incoming")) == [], "a refused upload left a file")

    # `submit` of a folder (.git left out) and of an archive
    r = subprocess.run([arena, "submit", "--token-file", token_file, host.url, "slow", kit],
                       capture_output=True, text=True, timeout=120)
    check(r.returncode == 0 and "submission 2, " + host.url + "api/submissions/2" in r.stdout,
          "submit of a folder: %d %s %s" % (r.returncode, r.stdout, r.stderr))
    if r.returncode == 0:
        with tarfile.open(os.path.join(C, "submissions", "2", "upload")) as t:
            names = t.getnames()
        check("bot.py" in names and not any(".git" in n for n in names),
              "the folder packed: %s" % names)
    # per day: a third in 24 hours is refused with Retry-After
    r = subprocess.run([arena, "submit", host.url, "fast", archive], capture_output=True,
                       text=True, timeout=120, env=dict(os.environ, SKIPBO_TOKEN=alice))
    check(r.returncode == 1 and "refused (429)" in r.stderr,
          "submit of an archive over per_day: %d %s" % (r.returncode, r.stderr))
    s, h, t = req(host, "POST", "/api/bots/fast/submissions", archive_bytes, bearer(alice))
    check(s == 429 and int(h.get("Retry-After", "0")) > 0, "per_day: %d %s %s"
          % (s, h.get("Retry-After"), t))
    r = subprocess.run([arena, "submit", host.url, "fast", archive], capture_output=True,
                       text=True, env={k: v for k, v in os.environ.items()
                                       if k != "SKIPBO_TOKEN"})
    check(r.returncode == 2 and "no token" in r.stderr, "submit without a token: %s"
          % r.stderr)

    # the curl recipe of HOSTING.md, as printed there
    r = subprocess.run(["curl", "-sS", "-H", "Authorization: Bearer " + bob,
                        "-H", "Content-Type: application/octet-stream",
                        "--data-binary", "@" + archive,
                        host.url + "api/bots/bobs-bot/submissions"],
                       capture_output=True, text=True, timeout=60)
    check('"id":3' in r.stdout and '"state":"received"' in r.stdout, "curl: %s %s"
          % (r.stdout, r.stderr))

    # private: bob sees none of alice's, the organiser all; logs the same
    s, h, t = req(host, "GET", "/api/submissions/1", headers=bearer(bob))
    check(s == 404, "bob reads alice's submission: %d %s" % (s, t))
    log = os.path.join(C, "submissions", "1", "build.log")
    if not os.path.exists(log):  # a pipeline that has not built it yet
        with open(log, "w") as f:
            f.write("alice's build\n")
    s, h, t = req(host, "GET", "/api/submissions/1/build.log", headers=bearer(bob))
    check(s == 404, "bob reads alice's build.log: %d %s" % (s, t))
    s, h, t = req(host, "GET", "/api/submissions/1/build.log", headers=bearer(alice))
    check(s == 200 and h.get("Content-Type", "").startswith("text/plain"),
          "alice reads her build.log: %d %s" % (s, t))
    s, h, t = req(host, "GET", "/api/submissions/1", headers=bearer(org))
    check(s == 200 and json.loads(t)["author"] == "alice", "the organiser: %d %s" % (s, t))
    s, h, t = req(host, "GET", "/api/me", headers=bearer(alice))
    me = json.loads(t) if s == 200 else {}
    check(me.get("bots") == ["fast", "slow"] and
          [x["id"] for x in me.get("submissions", [])] == [2, 1], "alice's /api/me: %s" % t)

    # the session cookie of /login
    s, h, t = req(host, "POST", "/login", "token=" + alice,
                  {"Content-Type": "application/x-www-form-urlencoded"})
    cookie = h.get("Set-Cookie", "")
    check(s == 200 and "HttpOnly" in cookie and "SameSite=Strict" in cookie,
          "login: %d %s %s" % (s, cookie, t))
    session = cookie.split(";")[0]
    s, h, t = req(host, "GET", "/api/me", headers={"Cookie": session})
    check(s == 200 and json.loads(t)["account"] == "alice", "me by cookie: %d %s" % (s, t))
    req(host, "POST", "/logout", headers={"Cookie": session})
    s, h, t = req(host, "GET", "/api/me", headers={"Cookie": session})
    check(s == 401, "a session after its logout: %d %s" % (s, t))

    # the organiser's disable
    s, h, t = req(host, "POST", "/api/submissions/1/disable", headers=bearer(alice))
    check(s == 403 and "organiser" in error_of(t), "an author disables: %d %s" % (s, t))
    s, h, t = req(host, "POST", "/api/submissions/1/disable", headers=bearer(org))
    check(s == 200 and json.loads(t)["disabled"] is True, "disable: %d %s" % (s, t))

    # failed tokens per address: login_failures, then 429 even for a right one
    for i in range(3):
        s, h, t = req(host, "POST", "/login", "token=sbt_wrong",
                      {"Content-Type": "application/x-www-form-urlencoded"},
                      source="127.0.0.2")
        check(s == 401, "wrong token %d: %d %s" % (i, s, t))
    s, h, t = req(host, "GET", "/api/me", headers=bearer(alice), source="127.0.0.2")
    check(s == 429 and int(h.get("Retry-After", "0")) > 0 and "login_failures" in error_of(t),
          "after login_failures: %d %s %s" % (s, h.get("Retry-After"), t))
    s, h, t = req(host, "GET", "/api/me", headers=bearer(alice))
    check(s == 200, "another address is not blocked: %d %s" % (s, t))

    # read-only routes keep refusing writes
    s, h, t = req(host, "POST", "/api/tournaments", b"", bearer(alice))
    check(s in (404, 405), "a POST to a read-only route: %d" % s)

    # kill -9, then the same command: acknowledged submissions are there; frozen refuses
    check(host.stop(signal.SIGKILL) == -9, "kill -9")
    settings["frozen"] = True
    with open(os.path.join(C, "host.jsonc"), "w") as f:
        json.dump(settings, f)
    host = Host(arena, C, os.path.join(work, "host.out"))
    s, h, t = req(host, "GET", "/api/me", headers=bearer(alice))
    check(s == 200 and [x["id"] for x in json.loads(t)["submissions"]] == [2, 1],
          "after kill -9: %d %s" % (s, t))
    s, h, t = req(host, "POST", "/api/bots/fast/submissions", archive_bytes, bearer(alice))
    check(s == 403 and "frozen" in error_of(t), "frozen: %d %s" % (s, t))
    status = host.stop()
    check(status == 0, "SIGTERM: exit status %s" % status)

    # HTTPS with a certificate and key; the cookie is then Secure
    cert, key = os.path.join(work, "cert.pem"), os.path.join(work, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=localhost", "-keyout", key, "-out", cert],
                   check=True, capture_output=True)
    host = Host(arena, C, os.path.join(work, "host.out"), "--cert", cert, "--key", key)
    check(host.url.startswith("https://"), "the URL of HTTPS: %s" % host.url)
    r = subprocess.run(["curl", "-sS", "-i", "--cacert", cert, "--data", "token=" + alice,
                        host.url.replace("127.0.0.1", "localhost") + "login"],
                       capture_output=True, text=True, timeout=60)
    check("HTTP/1.1 200" in r.stdout and "Secure" in r.stdout and "HttpOnly" in r.stdout,
          "login over HTTPS: %s %s" % (r.stdout, r.stderr))
    check(host.stop() == 0, "SIGTERM over HTTPS: exit status 0")
finally:
    if host.p.poll() is None:
        host.p.kill()
    print(open(os.path.join(work, "host.out")).read()[-3000:])
    shutil.rmtree(work, ignore_errors=True)

print("%d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
