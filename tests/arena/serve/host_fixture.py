"""host_fixture.py - a hosted competition for the tests of `skipbo-arena host`:
its directory with a league of badbot and the anchor skipbo-medium, its
accounts, and the host started on it (port 0), with nothing but the standard
library; and the checks its tests share."""
import json
import os
import re
import signal
import subprocess
import time

failures = []  # what check() found wrong, for the test's exit status
try:
    import jsonschema
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                           "arena", "schema", "serve-api.schema.json")) as f:
        API = json.load(f)
except ImportError:
    jsonschema = None


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print("FAIL: " + msg, flush=True)


def valid(doc, name):
    """Check doc against serve-api.schema.json's $defs/name (with python3-jsonschema)."""
    if jsonschema is None or name is None:
        return
    schema = dict(API, **{"$ref": "#/$defs/" + name})
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(doc))
    check(not errors, "%s against the schema: %s" % (name, [e.message for e in errors]))


def wait_js(b, what, expression, seconds=30):
    """Wait until expression is true in the page of browser b (cdp.py)."""
    for _ in range(seconds * 10):
        if b.eval(expression):
            return True
        time.sleep(0.1)
    check(False, "waited in vain for " + what)
    return False


def desk_and_phone(b, shots, name):
    """A screenshot of browser b's page at desk width (SHOTS/name-1280.png), then at a
    phone's 390 px (name-390.png), checked no wider than the phone; b stays at 390 px."""
    b.screenshot(os.path.join(shots, name + "-1280.png"))
    b.width(390)
    time.sleep(0.3)
    wide = b.eval("document.documentElement.scrollWidth")
    check(wide <= 390, "%s: the page at 390 px is %s px wide" % (name, wide))
    b.screenshot(os.path.join(shots, name + "-390.png"))


def make_competition(arena, badbot, d, settings, accounts):
    """d with league.jsonc and host.jsonc (settings); accounts: name -> options of
    `host account add`. Returns name -> token."""
    os.makedirs(d)
    with open(os.path.join(d, "league.jsonc"), "w") as f:
        json.dump({"name": "hosted", "bots": [{"name": "a", "command": [badbot, "good"]}],
                   "players": 2, "rules": {"stock_size": 5},
                   "league": {"anchors": {"skipbo-medium": 0}, "floor": 2,
                              "stop_when_separated": False}}, f)
    with open(os.path.join(d, "host.jsonc"), "w") as f:
        json.dump(settings, f)
    tokens = {}
    for name, opts in accounts.items():
        r = subprocess.run([arena, "host", "account", "add", *opts, d, name],
                           capture_output=True, text=True, check=True)
        tokens[name] = r.stdout.strip()
    return tokens


def entered_bots(d, bots):
    """Make the league in d play bots (name -> (author, argv)) from its start, each
    as if its author's submission had become that entry."""
    with open(os.path.join(d, "league.jsonc")) as f:
        league = json.load(f)
    league["bots"] = [{"name": name, "command": argv} for name, (_, argv) in bots.items()]
    with open(os.path.join(d, "league.jsonc"), "w") as f:
        json.dump(league, f)
    stamp = "2026-12-07T06:00:00Z"
    with open(os.path.join(d, "submissions.jsonl"), "w") as f:
        for i, (name, (author, _)) in enumerate(bots.items(), 1):
            f.write(json.dumps({"event": "received", "id": i, "author": author, "bot": name,
                                "sha256": "0" * 64, "bytes": 1, "time": stamp}) + "\n")
            f.write(json.dumps({"event": "state", "id": i, "state": "entered", "entry": name,
                                "time": stamp}) + "\n")


class Host:
    """`skipbo-arena host` on d, port 0; the URL it prints. Its stderr goes to log."""

    def __init__(self, arena, d, log, *options):
        self.log = log
        self.out = open(log, "a")
        self.p = subprocess.Popen([arena, "host", "--listen", "127.0.0.1:0", "-j", "1",
                                   *options, d],
                                  stdout=subprocess.PIPE, stderr=self.out, text=True)
        line = self.p.stdout.readline()
        m = re.search(r"at (https?)://127\.0\.0\.1:(\d+)/", line)
        if not m:
            self.p.kill()
            self.out.close()
            raise RuntimeError("host printed no URL: %r; %s" % (
                line, open(log).read()[-2000:]))
        self.port = int(m.group(2))
        self.url = "%s://127.0.0.1:%d/" % (m.group(1), self.port)

    def stop(self, sig=signal.SIGTERM):
        """Send sig and wait: the exit status (negative: killed by a signal)."""
        self.p.send_signal(sig)
        status = self.p.wait(timeout=120)
        self.p.stdout.close()
        self.out.close()
        return status
