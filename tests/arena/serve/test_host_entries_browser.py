"""test_host_entries_browser.py - the new parts of the author's page of
`skipbo-arena host` (/author) in headless Chromium (skipped without it), at
1280 and 390 px: an author's entry with its rating and its faults, the
reproduce line shown as text, its stderr opened; another author's entry
absent; the organiser's freeze from the page. Screenshots are left in SHOTS
for a person to look at.
    test_host_entries_browser.py ARENA BADBOT SHOTS"""
import os
import shutil
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "game"))
import cdp  # noqa: E402
from host_fixture import (Host, check, desk_and_phone, entered_bots, failures,  # noqa: E402
                          make_competition, wait_js)

def log_in(b, token, name):
    b.eval("document.querySelector('#token').value = %r" % token)
    b.eval("document.querySelector('#login-form').requestSubmit()")
    wait_js(b, name + " logged in", "document.querySelector('#name').textContent === %r" % name)


def main():
    chromium = cdp.find_chromium()
    if not chromium:
        print("skip: no chromium")
        return 77
    arena, badbot = (os.path.abspath(a) for a in sys.argv[1:3])
    shots = sys.argv[3]
    os.makedirs(shots, exist_ok=True)
    work = tempfile.mkdtemp(prefix="skipbo-host-entries.")
    d = os.path.join(work, "C")
    tokens = make_competition(arena, badbot, d, {}, {"alice": [], "bob": [],
                                                     "org": ["--organiser"]})
    entered_bots(d, {"a": ("alice", [badbot, "chatty"]), "b": ("bob", [badbot, "illegal"])})
    host = Host(arena, d, os.path.join(work, "host.out"))
    b = cdp.Browser(chromium, os.path.join(work, "profile"))
    try:
        b.open(host.url + "author", 1280)
        wait_js(b, "the login form", "!document.querySelector('#login').hidden")
        log_in(b, tokens["bob"], "bob")
        wait_js(b, "b's faults with a reproduce line",
                "[...document.querySelectorAll('#entries pre.reproduce')].some("
                "c => c.textContent.startsWith('skipbo-arena play --game-id '))", 120)
        check(b.eval("document.querySelectorAll('#entries div.entry').length") == 1,
              "bob sees an entry not his")
        check(b.eval("document.querySelector('#entries p.fault b').textContent") == "illegal",
              "the fault's kind is not shown")
        check(b.eval("document.querySelector('#organiser').hidden"),
              "the organiser's controls shown to an author")
        desk_and_phone(b, shots, "entries")
        b.eval("document.querySelector('#logout').click()")
        wait_js(b, "logged out", "!document.querySelector('#login').hidden")

        b.width(1280)
        log_in(b, tokens["alice"], "alice")
        wait_js(b, "alice's entry", "document.querySelector('#entries h3') && "
                "document.querySelector('#entries h3').textContent === 'a'")
        b.eval("document.querySelector('#entries div.entry button').click()")
        wait_js(b, "a's stderr", "document.querySelector('#log-text').textContent"
                ".includes('chatty: started')")
        b.screenshot(os.path.join(shots, "entries-stderr-1280.png"))
        b.eval("document.querySelector('#logout').click()")
        wait_js(b, "logged out", "!document.querySelector('#login').hidden")

        b.width(390)
        log_in(b, tokens["org"], "org")
        wait_js(b, "the organiser's controls", "!document.querySelector('#organiser').hidden")
        b.eval("document.querySelector('#freeze').click()")
        wait_js(b, "the freeze", "document.querySelector('#message').textContent === "
                "'submissions are frozen'")
        wide = b.eval("document.documentElement.scrollWidth")
        check(wide <= 390, "the organiser's page at 390 px is %s px wide" % wide)
        b.screenshot(os.path.join(shots, "organiser-390.png"))
        check(os.path.exists(os.path.join(d, "freeze.jsonl")), "no freeze.jsonl after the freeze")
    finally:
        b.close()
        status = host.stop()
        check(status == 0, "host: SIGTERM exit status %d" % status)
        if not failures:
            shutil.rmtree(work, ignore_errors=True)
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
