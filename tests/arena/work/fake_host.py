"""A fake host of a league on many machines (arena/WORKERS.md), for the worker's
tests: it answers POST /api/work/lease from a script of answers, serves bundles,
and records every request a worker makes."""

import json
import secrets
import ssl
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def split_results(body):
    """A results body (WORKERS.md): its head, its records (parsed) and its replays (the
    frame decompressed by zstd(1), parsed); the frame must hold a replay a record."""
    head_line, rest = body.split(b"\n", 1)
    head = json.loads(head_line)
    records = []
    for _ in range(head["games"]):
        line, rest = rest.split(b"\n", 1)
        records.append(json.loads(line))
    assert len(rest) == head["replays"], "bytes beyond the batch's frame"
    docs = b""
    if rest:
        docs = subprocess.run(["zstd", "-q", "-d", "-c"], input=rest, capture_output=True,
                              check=True).stdout
    replays = [json.loads(line) for line in docs.decode().splitlines()]
    assert len(replays) == len(records), "a replay a record"
    return head, records, replays


class FakeHost:
    """answers: what POST /api/work/lease gives, in turn (the last one repeats):
    ("lease", doc), ("none", retry_after), ("refuse", status, sentence).
    results: "ok", or a status ("409": the lease has ended, "404": no such lease)
    that every results post gets."""

    def __init__(self, token, answers, results="ok", bundles=None, tls=None):
        self.token = token
        self.answers = list(answers)
        self.results = results
        self.bundles = bundles or {}
        self.lock = threading.Lock()
        self.requests = []  # (time, method, path, body bytes, answer status)
        host = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def reply(self, status, doc=None, headers=(), raw=None, kind="application/json"):
                body = raw if raw is not None else (json.dumps(doc).encode() if doc is not None else b"")
                self.send_response(status)
                for k, v in headers:
                    self.send_header(k, v)
                if body:
                    self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return status

            def handle_one(self, method):
                n = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(n) if n else b""
                if self.headers.get("Authorization") != "Bearer " + host.token:
                    status = self.reply(401, {"error": "no such token"})
                else:
                    status = host.route(self, method, self.path, body)
                with host.lock:
                    host.requests.append((time.monotonic(), method, self.path, body, status))

            def do_GET(self):
                self.handle_one("GET")

            def do_POST(self):
                self.handle_one("POST")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        scheme = "http"
        if tls:
            # tls: (certificate file, key file)
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(*tls)
            self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
            scheme = "https"
        self.url = "%s://127.0.0.1:%d" % (scheme, self.server.server_address[1])
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def route(self, h, method, path, body):
        if method == "POST" and path == "/api/work/lease":
            with self.lock:
                answer = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
            if answer[0] == "lease":
                return h.reply(200, answer[1])
            if answer[0] == "none":
                return h.reply(204, headers=[("Retry-After", str(answer[1]))])
            return h.reply(answer[1], {"error": answer[2]})
        if method == "GET" and path.startswith("/api/work/bundles/"):
            data = self.bundles.get(path.rsplit("/", 1)[1])
            if data is None:
                return h.reply(404, {"error": "no such bundle"})
            return h.reply(200, raw=data, kind="application/x-tar")
        if method == "POST" and path.endswith("/results"):
            if self.results != "ok":
                return h.reply(int(self.results), {"error": "the lease has ended"})
            _, records, _ = split_results(body)
            ids = [r["id"] for r in records]
            return h.reply(200, {"accepted": ids, "rejected": [], "expires_in": 3})
        if method == "POST" and path.endswith("/release"):
            return h.reply(200, {})
        return h.reply(404, {"error": "no such route"})

    def posts(self, suffix):
        with self.lock:
            return [r for r in self.requests if r[1] == "POST" and r[2].endswith(suffix)]

    def batches(self):
        """Each results batch: (time, lease, head, [(record, replay)])."""
        out = []
        for t, _, path, body, status in self.posts("/results"):
            head, records, replays = split_results(body)
            games = list(zip(records, replays))
            out.append((t, path.split("/")[4], head, games, status))
        return out

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def make_lease(lease_id, settings, bots, deals, expires_in=60, first_index=100):
    """A lease of `deals` deals of table 0, every rotation, for two bots."""
    games = []
    for d in range(deals):
        seed = secrets.token_hex(8)
        for r in range(2):
            games.append({"index": first_index + 2 * d + r, "id": "t0000-d%04d-r%d" % (d, r),
                          "told": "g" + secrets.token_hex(8), "seed": seed, "table": 0,
                          "deal": d, "rotation": r,
                          "seats": [bots[r % 2]["name"], bots[(r + 1) % 2]["name"]]})
    return {"lease": lease_id, "expires_in": expires_in, "tournament": settings,
            "bots": bots, "games": games}
