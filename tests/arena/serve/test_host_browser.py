"""test_host_browser.py - the author's page of `skipbo-arena host` (/author) in
headless Chromium (skipped without it), at 1280 and 390 px: logged out it asks
for the token; a wrong token is refused with the host's sentence; the token
logs in; an archive uploaded through the form is listed with its state and
queue, updated by the page's own polling; a refusal (another author's bot) is
shown as text; nothing wider than a phone; log out. Screenshots are left in
SHOTS for a person to look at.
    test_host_browser.py ARENA BADBOT STARTER_PY SHOTS"""
import os
import shutil
import sys
import tarfile
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "game"))
import cdp  # noqa: E402
from host_fixture import (Host, check, desk_and_phone, failures,  # noqa: E402
                          make_competition, wait_js)

def set_value(b, selector, value):
    b.eval("document.querySelector(%r).value = %r" % (selector, value))


def upload(b, bot, archive):
    """The upload form filled with bot and archive, and sent."""
    set_value(b, "#bot", bot)
    node = b.call("Runtime.evaluate", {"expression": "document.querySelector('#archive')"})
    b.call("DOM.setFileInputFiles", {"files": [archive], "objectId": node["result"]["objectId"]})
    b.eval("document.querySelector('#upload-form').requestSubmit()")


def main():
    chromium = cdp.find_chromium()
    if not chromium:
        print("skip: no chromium")
        return 77
    arena, badbot, starter = (os.path.abspath(a) for a in sys.argv[1:4])
    shots = sys.argv[4]
    os.makedirs(shots, exist_ok=True)
    work = tempfile.mkdtemp(prefix="skipbo-host-browser.")
    os.chmod(work, 0o755)  # the sandbox's uids reach the builds' trees
    d = os.path.join(work, "C")
    tokens = make_competition(arena, badbot, d, {"per_day": 5},
                              {"alice": [], "bob": []})
    archive = os.path.join(work, "kit.tar.gz")
    with tarfile.open(archive, "w:gz") as t:
        t.add(starter, arcname=".")
    host = Host(arena, d, os.path.join(work, "host.out"))
    b = cdp.Browser(chromium, os.path.join(work, "profile"))
    try:
        b.open(host.url + "author", 1280)
        wait_js(b, "the login form", "!document.querySelector('#login').hidden")
        b.screenshot(os.path.join(shots, "author-login-1280.png"))
        set_value(b, "#token", "sbt_wrong")
        b.eval("document.querySelector('#login-form').requestSubmit()")
        wait_js(b, "the refusal of a wrong token",
                "document.querySelector('#message').textContent.includes('not a live')")

        set_value(b, "#token", tokens["bob"])
        b.eval("document.querySelector('#login-form').requestSubmit()")
        wait_js(b, "bob logged in", "document.querySelector('#name').textContent === 'bob'")
        upload(b, "fast", archive)
        wait_js(b, "bob's submission listed",
                "document.querySelectorAll('#rows tr').length === 1")
        b.eval("document.querySelector('#logout').click()")
        wait_js(b, "logged out", "!document.querySelector('#login').hidden")

        set_value(b, "#token", tokens["alice"])
        b.eval("document.querySelector('#login-form').requestSubmit()")
        wait_js(b, "alice logged in", "document.querySelector('#name').textContent === 'alice'")
        check(b.eval("document.querySelectorAll('#rows tr').length") == 0,
              "alice sees bob's submission")
        upload(b, "fast", archive)
        wait_js(b, "the refusal of bob's bot name",
                "document.querySelector('#message').textContent.includes(\"is bob's\")")
        upload(b, "mine", archive)
        wait_js(b, "alice's submission listed with its state",
                "document.querySelectorAll('#rows tr').length === 1 && "
                "document.querySelector('#rows tr td:nth-child(2)').textContent === 'mine'")
        state = b.eval("document.querySelector('#rows tr td:nth-child(3)').textContent")
        check(any(s in state for s in ("received", "unpacked", "building", "checking",
                                       "entered", "failed")), "a state: %r" % state)
        desk_and_phone(b, shots, "author")
        b.eval("document.querySelector('#rows button').click()")
        wait_js(b, "the build log's panel", "!document.querySelector('#log').hidden")
        b.screenshot(os.path.join(shots, "author-log-390.png"))
    finally:
        b.close()
        check(host.stop() == 0, "host: SIGTERM exit status")
        shutil.rmtree(work, ignore_errors=True)
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
