"""test_host_slow.py - slow and vanishing clients of `skipbo-arena host`: 40
connections that send half a request and wait, and 8 uploads that trickle a
byte at a time, do not keep the host from answering others; uploads cut off
by their client leave nothing in DIR/incoming/ and no submission.
    test_host_slow.py ARENA BADBOT"""
import http.client
import json
import os
import shutil
import socket
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from host_fixture import Host, make_competition  # noqa: E402

arena, badbot = (os.path.abspath(a) for a in sys.argv[1:3])
work = tempfile.mkdtemp(prefix="skipbo-host-slow.")
os.chmod(work, 0o755)
failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print("FAIL: " + msg, file=sys.stderr)


def get(port, path, headers=None):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    c.request("GET", path, headers=headers or {})
    r = c.getresponse()
    body = r.read()
    c.close()
    return r.status, body


C = os.path.join(work, "C")
tokens = make_competition(arena, badbot, C, {"upload_mb": 1}, {"alice": []})
auth = "Authorization: Bearer %s\r\n" % tokens["alice"]
host = Host(arena, C, os.path.join(work, "host.out"))
held = []
try:
    # half a request: a request line and no end of the headers
    for _ in range(40):
        s = socket.create_connection(("127.0.0.1", host.port), timeout=60)
        s.sendall(b"GET /api/ HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        held.append(s)
    # uploads that promise 100,000 bytes and send one
    for i in range(8):
        s = socket.create_connection(("127.0.0.1", host.port), timeout=60)
        s.sendall(("POST /api/bots/slow%d/submissions HTTP/1.1\r\nHost: 127.0.0.1\r\n%s"
                   "Content-Type: application/octet-stream\r\nContent-Length: 100000\r\n\r\n"
                   % (i, auth)).encode() + b"x")
        held.append(s)
    # others are answered all the same, at once: no worker waits on a slow client
    start = time.monotonic()
    status, body = get(host.port, "/api/me", {"Authorization": "Bearer " + tokens["alice"]})
    waited = time.monotonic() - start
    check(status == 200 and json.loads(body).get("account") == "alice",
          "/api/me beside slow clients: %d %r" % (status, body[:200]))
    # far above an answer on a busy machine, far below the 60 s a slow client is given
    check(waited < 20, "/api/me waited %.1f s behind slow clients" % waited)
    status, _ = get(host.port, "/")
    check(status == 200, "/ beside slow clients: %d" % status)
    # the trickling uploads are streamed to files of their own as their bytes come
    incoming = os.path.join(C, "incoming")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and len(os.listdir(incoming)) < 8:
        time.sleep(0.2)
    check(len(os.listdir(incoming)) == 8, "trickling uploads in incoming/: %s"
          % (os.listdir(incoming),))
    # they go away half sent
    for s in held:
        s.close()
    held = []
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and os.path.isdir(incoming) and os.listdir(incoming):
        time.sleep(0.2)
    check(not os.path.isdir(incoming) or os.listdir(incoming) == [],
          "uploads cut off left files: %s" % (os.listdir(incoming),))
    path = os.path.join(C, "submissions.jsonl")
    check(not os.path.exists(path) or os.path.getsize(path) == 0,
          "an upload cut off became a submission: %s" % (
              open(path).read() if os.path.exists(path) else ""))
    check(host.stop() == 0, "host's exit status after slow clients")
finally:
    for s in held:
        s.close()
    if host.p.poll() is None:
        host.p.kill()
    shutil.rmtree(work, ignore_errors=True)
if failures:
    sys.exit(1)
print("slow clients: ok")
