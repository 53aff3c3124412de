#!/usr/bin/env python3
"""test_viewer_browser.py ARENA VIEWER_STATES MEDIUM EASY BADBOT ARTEFACTS

The replay viewer in a real browser: play a 2-player game, a partnership
game, a match (R9), a game with a fault (R11), one whose bot never starts,
a stalemate with refills (R6) and one whose bot writes stderr, write their pages with
`skipbo-arena replay --html`, open each in headless Chromium and step through
it with the keyboard, forward over every decision to the end and back, by
turns, Home/End, game to game, the hands switch and the fault link. After
each step the table read from the page's DOM must equal the one the engine
computes for that step (viewer_states). At 400 and 1400 px wide nothing may
overflow the page sideways. The first wild played is described with what it
counted as and its time, its source and target marked in text as well; the
keys are listed; partners are named as teams; the end names its reason.
Beside each decision the page shows the lines
its bot wrote on stderr while deciding. Screenshots go to ARTEFACTS. Exit 77 (skipped)
without chromium."""
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402

# The table as the page shows it, in viewer_states' form.
READ_TABLE = r"""(function () {
  function t(e) { return e.textContent.trim(); }
  var st = t(document.getElementById('status'));
  var m = /game (\d+) of \d+ \u00B7 turn (\d+) \u00B7 move \d+ \u00B7 step (\d+) of/.exec(st);
  var tm = /to move: seat (\d+)/.exec(st);
  if (!m) return 'unreadable status: ' + st;
  var out = ['game ' + m[1] + ' step ' + m[3],
    'turn ' + m[2] + ' to_move ' + (tm ? tm[1] : -1) + ' draw ' + t(document.getElementById('draw')) +
    ' completed ' + t(document.getElementById('completed'))];
  var b = [];
  for (var i = 0; i < 4; i++) {
    var p = document.getElementById('building' + i), v = t(p.children[1]);
    v = v === 'empty' ? '0' : v.indexOf('SB=') === 0 ? v.slice(3) : v;
    b.push(v + '/' + parseInt(t(p.querySelector('.size')), 10));
  }
  out.push('building ' + b.join(' '));
  for (var s = 0; document.getElementById('seat' + s); s++) {
    var box = document.getElementById('seat' + s), top = box.querySelector('.stock .card');
    var hand = Array.prototype.map.call(box.querySelectorAll('.handpile .card'), t).join(',');
    var ds = Array.prototype.map.call(box.querySelectorAll('.discard'), function (d) {
      return Array.prototype.map.call(d.querySelectorAll('.card'), t).join(',');
    }).join('|');
    out.push('seat ' + s + ' stock ' + parseInt(t(box.querySelector('.stocksize')), 10) +
      ' top ' + (top ? t(top) : '-') + ' hand ' + hand + ' removed ' +
      (box.classList.contains('removed') ? 1 : 0) + ' discards ' + ds);
  }
  return out.join('\n');
})()"""

OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def engine_states(helper, replay):
    out = subprocess.run([helper, replay], check=True, capture_output=True, text=True).stdout
    games = {}
    for block in re.split(r"(?m)^(?=game \d+ step \d+$)", out):
        if block:
            g, k = map(int, re.match(r"game (\d+) step (\d+)", block).groups())
            games.setdefault(g, []).append(block.strip())
            assert len(games[g]) == k + 1, "viewer_states out of order"
    return games


def turn_of(state):
    return int(re.search(r"^turn (\d+)", state, re.M).group(1))


class Page:
    def __init__(self, browser, name, states):
        self.b, self.name, self.states = browser, name, states

    def where(self):
        got = self.b.eval(READ_TABLE)
        m = re.match(r"game (\d+) step (\d+)", got)
        if not m:
            fail("%s: %s" % (self.name, got))
            return None, None, got
        return int(m.group(1)), int(m.group(2)), got

    def expect(self, game, step, what):
        g, k, got = self.where()
        want = self.states[game][step]
        if (g, k) != (game, step):
            fail("%s: after %s the page is at game %s step %s, want game %d step %d" %
                 (self.name, what, g, k, game, step))
        elif got != want:
            fail("%s: after %s, game %d step %d: the page shows\n%s\nthe engine has\n%s" %
                 (self.name, what, game, step, got, want))

    def key(self, key, code, vk, shift=False):
        self.b.key(key, code, vk, shift)

    def right(self, shift=False):
        self.key("ArrowRight", "ArrowRight", 39, shift)

    def left(self, shift=False):
        self.key("ArrowLeft", "ArrowLeft", 37, shift)


def sweep(page):
    """Every step forward to the end of the last game, then back to the start."""
    order = [(g, k) for g in sorted(page.states) for k in range(len(page.states[g]))]
    page.expect(*order[0], "loading")
    for g, k in order[1:]:
        page.right()
        page.expect(g, k, "ArrowRight")
    page.right()
    page.expect(*order[-1], "ArrowRight at the very end")
    for g, k in reversed(order[:-1]):
        page.left()
        page.expect(g, k, "ArrowLeft")


def turns(page):
    """Shift+arrows move by turns; Home/End to the ends of the game; the move and
    turn boxes; play and pause."""
    steps = page.states[1]
    page.key("Home", "Home", 36)
    k = 0
    for _ in range(3):
        t = turn_of(steps[k])
        nxt = next((j for j in range(k, len(steps)) if turn_of(steps[j]) != t), len(steps) - 1)
        page.right(shift=True)
        page.expect(1, nxt, "Shift+ArrowRight from step %d" % k)
        k = nxt
    t = turn_of(steps[k - 1])
    first = k - 1
    while first > 0 and turn_of(steps[first - 1]) == t:
        first -= 1
    page.left(shift=True)
    page.expect(1, first, "Shift+ArrowLeft from step %d" % k)
    page.key("End", "End", 35)
    page.expect(1, len(steps) - 1, "End")
    page.key("Home", "Home", 36)
    page.expect(1, 0, "Home")
    if len(steps) < 20:
        return
    page.b.eval("var j = document.getElementById('jmove'); j.value = '4';"
                "j.dispatchEvent(new Event('change'))")
    page.expect(1, 4, "move 4 typed in the move box")
    want = next((k for k in range(len(steps)) if turn_of(steps[k]) >= 3), len(steps) - 1)
    page.b.eval("var j = document.getElementById('jturn'); j.value = '3';"
                "j.dispatchEvent(new Event('change'))")
    page.expect(1, want, "turn 3 typed in the turn box")
    # play at the fastest speed for a moment, then pause: it moved on, and shows
    # the engine's table wherever it stopped
    page.b.eval("document.getElementById('speed').value = '40'")
    page.key(" ", "Space", 32)
    time.sleep(0.3)
    page.key(" ", "Space", 32)
    g, k, _ = page.where()
    if (g, k) == (1, want) and want + 5 < len(steps):
        fail("%s: play did not move on from step %d" % (page.name, want))
    elif g is not None:
        page.expect(g, k, "play and pause")
    page.key("Home", "Home", 36)


def result_shown(page, replay, game):
    """At the end of a game the result table holds the replay's placings and scores."""
    with open(replay) as f:
        res = json.load(f)["games"][game - 1]["result"]
    rows = page.b.eval("Array.prototype.map.call(document.querySelectorAll('#result.on tr'),"
                       "function (r) { return Array.prototype.map.call(r.cells,"
                       "function (c) { return c.textContent; }); })")
    head = page.b.eval("document.querySelector('#result.on .name').textContent")
    if not head.startswith("Game %d over: %s" % (game, res["reason"].replace("_", " "))):
        fail("%s: the end of game %d reads %r, want its reason %s" % (page.name, game, head, res["reason"]))
    if not rows or len(rows) != len(res["scores"]) + 1:
        fail("%s: no result table at the end of game %d: %s" % (page.name, game, rows))
        return
    for s, row in enumerate(rows[1:]):
        if (int(row[2].split()[0]), int(row[3]), int(row[4])) != \
                (res["placings"][s], res["stock_left"][s], res["scores"][s]):
            fail("%s: game %d, seat %d: result row %s, replay has %s" % (page.name, game, s, row, res))


def hands_switch(page):
    """Seen as seat 0, every other hand is card backs of the right number."""
    page.b.eval("var v = document.getElementById('viewer'); v.value = '0';"
                "v.dispatchEvent(new Event('change'))")
    got = page.b.eval("Array.prototype.map.call(document.querySelectorAll('.seat'), function (s) {"
                      "return Array.prototype.map.call(s.querySelectorAll('.handpile .card'),"
                      "function (c) { return c.textContent; }).join(','); })")
    g, k, _ = page.where()
    for s, hand in enumerate(got):
        want = re.search(r"^seat %d .* hand (\S*) removed" % s, page.states[g][k], re.M).group(1)
        want = want if s == 0 else ",".join("?" for c in want.split(",") if c)
        if hand != want:
            fail("%s: seen as seat 0, seat %d's hand shows %r, want %r" % (page.name, s, hand, want))
    page.b.eval("var v = document.getElementById('viewer'); v.value = '-1';"
                "v.dispatchEvent(new Event('change'))")


FIRST_CHATTER = "chatty: request 1 of turn 1\nchatty: esc \x1b[2J bell \x07 tab \t end"


def stderr_shown(page, replay):
    """Beside each decision, what its bot wrote on stderr while deciding, as the
    replay recorded it: badbot chatty's two lines, the easy bot's nothing."""
    with open(replay) as f:
        doc = json.load(f)
    decisions = [e for e in doc["games"][0]["events"] if e["type"] in ("play", "discard", "pass")]
    if decisions[0].get("stderr") != FIRST_CHATTER:
        fail("stderr: the replay's first decision has stderr %r, want %r" %
             (decisions[0].get("stderr"), FIRST_CHATTER))
    page.key("Home", "Home", 36)
    seats = set()
    for k, e in enumerate(decisions[:16], start=1):
        page.right()
        got = page.b.eval("(function () { var b = document.getElementById('stderr'),"
                          "p = b.querySelector('pre'), n = b.querySelector('.none');"
                          "return [b.className, b.querySelector('.name').textContent,"
                          "p ? p.textContent : n ? n.textContent : '?']; })()")
        want = ["on", "stderr of seat %d (%s) during this decision:" % (e["seat"], doc["bots"][e["seat"]]),
                e.get("stderr", "nothing")]
        if got != want:
            fail("stderr: at decision %d the page shows %r, want %r" % (k, got, want))
        seats.add(e["seat"])
    if seats != {0, 1}:
        fail("stderr: the first 16 decisions are all seat %s's" % seats)
    page.key("Home", "Home", 36)


def last_move_marked(page, replay):
    """The first wild played: the last-move line says what it counted as and
    the decision's time, its source and building pile are marked with text
    ("from", "to") as well as an outline, and the pile reads SB=value."""
    with open(replay) as f:
        events = json.load(f)["games"][0]["events"]
    decisions = [e for e in events if e["type"] in ("play", "discard", "pass", "removed")]
    k, e = next(((k, e) for k, e in enumerate(decisions, start=1)
                 if e["type"] == "play" and e["card"] == 0), (None, None))
    if k is None:
        fail("%s: no wild card played in the first game" % page.name)
        return
    page.b.eval("var j = document.getElementById('jmove'); j.value = '%d';"
                "j.dispatchEvent(new Event('change'))" % k)
    text = page.b.eval("document.getElementById('lastmove').textContent")
    want = "plays SB (counts as %d) from " % e["value"]
    # piles numbered as in the protocol (0-3)
    if want not in text or "to building pile %d" % e["to"] not in text or \
            ("us" in e and not text.endswith(" \u2014 %d \u00B5s" % e["us"])):
        fail("%s: at the first wild (move %d) the last move reads %r, want %r, pile %d, %s us" %
             (page.name, k, text, want, e["to"], e.get("us")))
    if "us" not in e:
        fail("%s: the replay's decisions carry no time" % page.name)
    src = ("#seat%d .handpile" % e["seat"] if e["from"] == "hand" else
           "#seat%d .stock" % e["owner"] if e["from"] == "stock" else
           "#seat%d .discard:nth-child(%d)" % (e["owner"], e["pile"] + 1))
    marks = page.b.eval(
        "(function () { function m(q) { var x = document.querySelector(q);"
        " return x ? [x.classList.contains('from') ? 'from' : x.classList.contains('to') ? 'to' : '',"
        " getComputedStyle(x, '::before').content] : null; }"
        " var b = document.getElementById('building%d');"
        " return [m('%s'), m('#building%d'), b.children[1].textContent]; })()" % (e["to"], src, e["to"]))
    if marks != [["from", '"from \u2192"'], ["to", '"\u2192 to"'], "SB=%d" % e["value"]]:
        fail("%s: at the first wild the marks are %r" % (page.name, marks))
    numbering = page.b.eval(
        "[document.querySelector('#building%d .lbl').textContent,"
        " document.querySelector('#seat0 .discard .lbl').textContent,"
        " (document.querySelector('.legend') || {}).textContent]" % e["to"])
    if numbering[:2] != ["pile %d" % e["to"], "D0:"] or not numbering[2] or \
            "bottom \u2192 top" not in numbering[2] or '"to": 0 is building pile 0' not in numbering[2]:
        fail("%s: piles not numbered 0-3 as the protocol does, or no legend: %r" %
             (page.name, numbering))
    # the request that decision answered: its legal moves, the one played marked
    req = page.b.eval(
        "[document.getElementById('request').style.display,"
        " document.querySelectorAll('#legal li').length,"
        " (document.querySelector('#legal li.chosen') || {}).textContent,"
        " document.getElementById('reqsum').textContent]")
    want = '"card":0,"to":%d}' % e["to"]
    if req[0] == "none" or req[1] < 1 or not req[2] or want not in req[2] or \
            "answered: %d legal move" % req[1] not in req[3]:
        fail("%s: at the first wild the request shown is %r, want the answer ending %r" %
             (page.name, req, want))
    page.key("Home", "Home", 36)


def slider(page):
    """The timeline slider spans the game and moves the table to any step; the keys move it."""
    last = len(page.states[1]) - 1
    mid = last // 2
    page.b.eval("var s = document.getElementById('slider'); s.value = '%d';"
                "s.dispatchEvent(new Event('input'))" % mid)
    page.expect(1, mid, "the slider at %d" % mid)
    page.right()
    got = page.b.eval("[document.getElementById('slider').value, document.getElementById('slider').max]")
    if got != [str(mid + 1), str(last)]:
        fail("%s: after ArrowRight the slider reads %r, want [%d, %d]" % (page.name, got, mid + 1, last))
    page.key("Home", "Home", 36)


def keys_and_teams(page, partnership):
    """The shortcuts are written on the page; partners are named as teams (R10)."""
    keys = page.b.eval("document.getElementById('keys').textContent")
    for want in ("\u2190", "\u2192", "Shift", "Space", "Home", "End", "play/pause"):
        if want not in keys:
            fail("%s: the keys line lacks %r: %r" % (page.name, want, keys))
    # the seat to move is told in text as well as by its frame
    page.key("Home", "Home", 36)
    mover = page.b.eval("(function () { var n = document.querySelector('.seat.tomove .name');"
                        " return n ? getComputedStyle(n, '::after').content : null; })()")
    if mover != '"  \u25C0 to move"':
        fail("%s: the seat to move is labelled %r" % (page.name, mover))
    names = page.b.eval("Array.prototype.map.call(document.querySelectorAll('.seat > .name'),"
                        "function (n) { return n.textContent; })")
    n = len(names)
    for s, name in enumerate(names):
        team = " \u2014 team %d with seat %d" % (min(s, (s + n // 2) % n), (s + n // 2) % n)
        if partnership and not name.endswith(team):
            fail("%s: seat %d is named %r, want it to end with %r" % (page.name, s, name, team))
        if not partnership and "team" in name:
            fail("%s: seat %d is named %r, with a team outside a partnership" % (page.name, s, name))


def widths(page, shots, label):
    for w in (400, 1400):
        page.b.width(w)
        over = page.b.eval(OVERFLOW)
        if over > 0:
            fail("%s: %d px wide, the page overflows sideways by %d px (%s)" % (page.name, w, over, label))
        page.b.screenshot(os.path.join(shots, "%s-%s-%d.png" % (page.name, label, w)))
    page.b.width(1400)


def main():
    arena, helper, medium, easy, badbot, shots = sys.argv[1:7]
    browser_path = cdp.find_chromium()
    if not browser_path:
        print("chromium not installed (setup.sh test installs it): skipped")
        return 77
    signal.alarm(240)
    os.makedirs(shots, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="viewer-test-") as tmp:
        return check_pages(arena, helper, medium, easy, badbot, shots, browser_path, tmp)


def check_pages(arena, helper, medium, easy, badbot, shots, browser_path, tmp):
    slow = ["--move-ms", "20000", "--game-ms", "600000", "--sandbox", "off"]
    games = {
        "two": ["--stock", "4", "--seed", "7", medium, easy],
        "partners": ["--stock", "3", "--seed", "11", "--partnership", medium, easy, medium, easy],
        "match": ["--stock", "3", "--seed", "5", "--match", medium, easy],
        "fault": ["--stock", "5", "--seed", "3", badbot + " die-midgame 6", easy],
        # a bot that never starts: removed before the first move
        "start": ["--stock", "3", "--seed", "2", badbot + " exit-at-start", easy],
        # a stalemate with passes and draw piles rebuilt from both sources (R5.4, R6)
        "refills": ["--stock", "20", "--seed", "1", easy, easy],
        # a bot that writes stderr before each answer
        "stderr": ["--stock", "3", "--seed", "4", badbot + " chatty", easy],
    }
    replays = {}
    for name, args in games.items():
        replays[name] = os.path.join(tmp, name + ".json")
        subprocess.run([arena, "play", "--replay", replays[name]] + slow + args, check=True,
                       stdout=subprocess.DEVNULL)
    pages = os.path.join(tmp, "pages")
    subprocess.run([arena, "replay", "--html", "-o", pages] + list(replays.values()), check=True,
                   stdout=subprocess.DEVNULL)
    b = cdp.Browser(browser_path, os.path.join(tmp, "profile"))
    try:
        for name, replay in replays.items():
            states = engine_states(helper, replay)
            page = Page(b, name, states)
            b.open("file://" + os.path.join(pages, name + ".html"), 1400)
            if b.eval("document.querySelector('script[src], link[href]') !== null"):
                fail("%s: the page loads something from outside" % name)
            sweep(page)
            widths(page, shots, "start")
            turns(page)
            hands_switch(page)
            keys_and_teams(page, name == "partners")
            slider(page)
            if name in ("two", "partners"):
                last_move_marked(page, replay)
            page.key("End", "End", 35)
            result_shown(page, replay, 1)
            widths(page, shots, "end")
            if name == "match":
                page.key("]", "BracketRight", 221)
                page.expect(2, 0, "] (next game)")
                with open(replay) as f:
                    doc = json.load(f)
                first = doc["games"][0]["result"]["scores"]
                # the bots as the replay names them: by their hellos (medium, easy)
                want = "match totals before this game (R9, to 500): seat 0 (%s) %d, seat 1 (%s) %d" % (
                    doc["bots"][0], first[0], doc["bots"][1], first[1])
                before = b.eval("document.getElementById('totals').textContent")
                if before != want:
                    fail("match: game 2 starts with %r, want %r" % (before, want))
                page.key("End", "End", 35)
                totals = b.eval("Array.prototype.map.call(document.querySelectorAll('#result tr'),"
                                "function (r) { return r.cells[5].textContent; })")
                with open(replay) as f:
                    doc = json.load(f)
                want = [str(doc["games"][0]["result"]["scores"][s] + doc["games"][1]["result"]["scores"][s])
                        for s in range(2)]
                if totals[1:] != want:
                    fail("match: running totals after game 2 %s, want %s" % (totals[1:], want))
            if name == "stderr":
                stderr_shown(page, replay)
                widths(page, shots, "stderr")
            if name == "start":
                text = b.eval("document.getElementById('faults').textContent")
                if "start" not in text or "before its hello" not in text:
                    fail("start: the faults list reads %r" % text)
            if name == "fault":
                b.eval("document.querySelector('#faults a').click()")
                g, k, _ = page.where()
                removal = next(i for i in range(1, len(states[1]))
                               if " removed 1 " in states[1][i] and " removed 1 " not in states[1][i - 1])
                page.expect(1, removal, "clicking the fault")
                text = b.eval("document.getElementById('fault').className + ': ' +"
                              "getComputedStyle(document.getElementById('fault'), '::before').content +"
                              "document.getElementById('fault').textContent")
                if not text.startswith('on: "\u26A0 FAULT  "') or "exit" not in text or "exited with status 3" not in text:
                    fail("fault: at the removal the fault box reads %r" % text)
                widths(page, shots, "fault")
            print("%s: %d games, %d steps checked against the engine" %
                  (name, len(states), sum(len(v) for v in states.values())))
    finally:
        b.close()
    if failures:
        print("%d failures" % len(failures))
        return 1
    print("viewer pages show the engine's table at every step")
    return 0


if __name__ == "__main__":
    sys.exit(main())
