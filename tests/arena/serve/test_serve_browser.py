#!/usr/bin/env python3
"""test_serve_browser.py ARENA EASY MEDIUM BADBOT ARTEFACTS

`skipbo-arena serve` in headless Chromium over the DevTools protocol:
- while `run --serve` plays a tournament, its page shows each record within
  2 s of the record's line being whole in games.jsonl, and the ranking
  table changes, without a reload;
- a game of the game list opens the replay viewer;
- the index, tournament and bot pages do not overflow sideways at 400 and
  1400 px;
- a bot name made of markup is shown as text (no element made of it);
- a league's page (serve_fixture.make_league) shows its entries with their
  states, its ranking, the verdict and the chart, no end and no percentage, a
  refused edit of league.jsonc until it is fixed, and does not overflow
  sideways at 400 and 1400 px.
Screenshots go to ARTEFACTS. Exit 77 (skipped) without chromium."""
import os
import re
import shutil
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "game"))
import cdp  # noqa: E402
import serve_fixture as fx  # noqa: E402

failures = fx.Failures()


def fail(msg):
    failures.check(False, msg)


def wait_js(b, what, expr, timeout=120.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = b.eval(expr)
        if got:
            return got
        time.sleep(0.05)
    fail("timed out waiting for " + what)
    return None


SHOWN = r"""(function () {
  var p = document.getElementById('progress-text');
  var m = p && p.textContent.match(/(\d+) of (\d+) games/);
  return m ? +m[1] : -1;
})()"""
RANKING = r"""(function () {
  return Array.prototype.map.call(document.querySelectorAll('#ranking tbody tr'),
    function (tr) { return tr.textContent; }).join('|');
})()"""


def complete_lines(path):
    try:
        with open(path, "rb") as f:
            return f.read().count(b"\n")
    except FileNotFoundError:
        return 0


def live(b, arena, tmp, shots):
    """The page of a running tournament keeps up with its games.jsonl."""
    out = os.path.join(tmp, "live")
    proc = arena.run(out, 400, "--serve", "127.0.0.1:0", wait=False,
                     bots=["easy=" + arena.easy, "medium=" + arena.medium,
                           "bad=" + arena.badbot + " late 2"])
    try:
        url = fx.url_of_run(proc)
        fx.wait_for("the running tournament", lambda: fx.get_json(
            url + "/api/tournaments")["tournaments"])
        b.open(url + "/t/0", 1400)
        wait_js(b, "the ranking", "document.querySelector('#ranking tbody tr') !== null")
        first_ranking = b.eval(RANKING)
        first_seen, worst, shown_before = {}, 0.0, b.eval(SHOWN)
        journal = os.path.join(out, "games.jsonl")
        end = time.monotonic() + 6
        while time.monotonic() < end:
            now = time.monotonic()
            n = complete_lines(journal)
            for k in range(len(first_seen) + 1, n + 1):
                first_seen.setdefault(k, now)
            shown = b.eval(SHOWN)
            for k in [k for k in first_seen if k <= shown]:
                worst = max(worst, now - first_seen.pop(k))
            time.sleep(0.05)
        now = time.monotonic()
        late = [now - t for t in first_seen.values() if now - t > 2.0]
        if late:
            fail("records whole in games.jsonl for over 2 s but not on the page: %d" % len(late))
        if worst > 2.0:
            fail("a record reached the page %.2f s after its line was whole" % worst)
        if b.eval(SHOWN) <= shown_before:
            fail("the page's game count did not move (%d)" % shown_before)
        if b.eval(RANKING) == first_ranking:
            fail("the ranking table did not change while the tournament ran")
        if not re.search(r"running", b.eval("document.getElementById('progress-text')"
                                            ".textContent") or ""):
            fail("the tournament is not shown running")
        b.screenshot(os.path.join(shots, "live-1400.png"))
        print("live: worst delay %.2f s" % worst)
    finally:
        proc.terminate()
        proc.wait(timeout=60)


OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


def pages(b, arena, tmp, shots):
    a = os.path.join(tmp, "a")
    t1 = os.path.join(a, "t1")
    arena.run(t1, 6)
    fx.hostile_copy(t1, os.path.join(a, "hostile"))
    server = fx.Server(arena.arena, [a])
    try:
        ids = {os.path.basename(t["dirs"][0]): t["id"]
               for t in fx.get_json(server.url + "/api/tournaments")["tournaments"]}
        t = ids["t1"]
        for path, ready, name in [
                ("/", "#tournaments tbody tr", "index"),
                ("/t/%d" % t, "#games tbody tr", "tournament"),
                ("/t/%d/bot/0" % t, "#opponents tbody tr", "bot")]:
            for width in (400, 1400):
                b.open(server.url + path, width)
                wait_js(b, "%s at %d px" % (name, width),
                        "document.querySelector('%s') !== null" % ready)
                over = b.eval(OVERFLOW)
                if over > 0:
                    fail("%s at %d px overflows sideways by %d px" % (name, width, over))
                b.screenshot(os.path.join(shots, "%s-%d.png" % (name, width)))
        # a game of the list opens the viewer
        b.open(server.url + "/t/%d" % t, 1400)
        href = wait_js(b, "a game link", "(function () { var a = document.querySelector("
                       "'#games tbody a'); if (!a) return null; a.click(); return "
                       "a.getAttribute('href'); })()")
        wait_js(b, "the viewer", "location.pathname === %r && document.readyState === "
                "'complete' && document.getElementById('replay') !== null && "
                "document.querySelector('#table .seat .name') !== null" % href)
        if not re.match(r"^/t/\d+/game/\d+$", href or ""):
            fail("the game link is %r" % href)
        b.screenshot(os.path.join(shots, "viewer-1400.png"))
        # markup in a bot name stays text
        b.open(server.url + "/t/%d" % ids["hostile"], 1400)
        wait_js(b, "the hostile ranking", "document.querySelector('#ranking tbody tr') !== null")
        got = b.eval("(function () { var n = 0; document.querySelectorAll('#ranking td')"
                     ".forEach(function (td) { if (td.textContent === %r) n++; }); return "
                     "{cells: n, imgs: document.getElementsByTagName('img').length, "
                     "title: document.title}; })()" % fx.HOSTILE)
        if got["cells"] != 1 or got["imgs"] != 0 or got["title"] == "owned":
            fail("a bot name of markup: %s" % got)
    finally:
        server.stop()


LEAGUE = r"""(function () {
  function texts(sel) {
    return Array.prototype.map.call(document.querySelectorAll(sel), function (n) {
      return n.textContent; });
  }
  var states = Array.prototype.map.call(document.querySelectorAll('#entries td.st'),
    function (n) { return n.firstChild.nodeValue; });
  return {states: states, ranked_states: texts('#ranking span.st'), ranked: texts('#ranking tbody tr').length,
          lines: document.querySelectorAll('#chart-box svg polyline').length,
          progress: document.getElementById('progress-text').textContent,
          verdict: document.getElementById('verdict').textContent};
})()"""


def league_page(b, arena, tmp, shots):
    """A league shown as a league, at desk and phone width."""
    root = os.path.join(tmp, "leagues")
    fx.make_league(arena, os.path.join(root, "club"))
    server = fx.Server(arena.arena, [root])
    try:
        for width in (400, 1400):
            b.open(server.url + "/", width)
            wait_js(b, "the index of a league", "document.querySelector('#tournaments tbody tr')"
                    " !== null")
            row = b.eval("Array.prototype.map.call(document.querySelectorAll("
                         "'#tournaments tbody td'), function (n) { return n.textContent; })"
                         ".join(' ')")
            if not re.search(r"league .*\d+ games, \d+ today", row) or "%" in row:
                fail("the index row of a league: %r" % row)
            b.open(server.url + "/t/0", width)
            wait_js(b, "the league at %d px" % width, "document.querySelector('#entries td.st')"
                    " !== null && document.querySelector('#ranking tbody tr') !== null && "
                    "document.querySelector('#chart-box svg polyline') !== null")
            got = b.eval(LEAGUE)
            want = fx.get_json(server.url + "/api/t/0/ranking")["verdict"] or ""
            if got["verdict"] != want:
                fail("the verdict at %d px: %r, the API's %r" % (width, got["verdict"], want))
            if sorted(set(got["states"])) != ["held", "playing", "retired", "suspended"]:
                fail("the entries' states at %d px: %s" % (width, got["states"]))
            if got["ranked"] < 4 or got["lines"] < 3 or "suspended" not in got["ranked_states"]:
                fail("the ranking or the chart at %d px: %s" % (width, got))
            if "%" in got["progress"] or " of " in got["progress"] or \
                    not re.search(r"games/s", got["progress"]) or "today" not in got["progress"]:
                fail("the league's progress at %d px: %r" % (width, got["progress"]))
            over = b.eval(OVERFLOW)
            if over > 0:
                fail("the league at %d px overflows sideways by %d px" % (width, over))
            b.screenshot(os.path.join(shots, "league-%d.png" % width))
        # a refused edit of league.jsonc, shown with its errors until the file loads
        path = os.path.join(root, "club", "league.jsonc")
        with open(path) as f:
            good = f.read()
        with open(path, "w") as f:
            f.write(good.replace('"floor": 2', '"floor": "two"'))
        b.open(server.url + "/t/0", 400)
        wait_js(b, "the refused edit", "(document.querySelector('#refused pre') || {})"
                ".textContent !== undefined")
        shown = b.eval("document.querySelector('#refused pre').textContent")
        if "league.floor" not in shown:
            fail("the refused edit's errors: %r" % shown)
        over = b.eval(OVERFLOW)
        if over > 0:
            fail("the refused edit at 400 px overflows sideways by %d px" % over)
        b.screenshot(os.path.join(shots, "league-refused-400.png"))
        with open(path, "w") as f:
            f.write(good)
        wait_js(b, "the refused edit gone", "document.querySelector('#refused') === null")
    finally:
        server.stop()


def main():
    chromium = cdp.find_chromium()
    if not chromium:
        print("skip: no chromium")
        return 77
    arena = fx.Arena(*sys.argv[1:5])
    shots = sys.argv[5]
    os.makedirs(shots, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="serve-browser-")
    b = cdp.Browser(chromium, os.path.join(tmp, "profile"))
    try:
        pages(b, arena, tmp, shots)
        league_page(b, arena, tmp, shots)
        live(b, arena, tmp, shots)
    finally:
        b.close()
        shutil.rmtree(tmp, ignore_errors=True)
    return failures.status()


if __name__ == "__main__":
    sys.exit(main())
