#!/usr/bin/env python3
"""usage: walkthrough.py SOURCE_DIR BUILD_DIR

A new user's first hour, scripted: copies the files git tracks in SOURCE_DIR
to a fresh directory under /tmp (a fresh clone, with the working tree's
edits), links BUILD_DIR there as build/ (what ./setup.sh demo leaves), and
runs every command README.md and bots/README.md show, in the order they show
them, as written, in one shell: the ```sh blocks and the inline
`skipbo-arena ...` commands without placeholders. The ```jsonc block that
bots/README.md says to save is saved under its name.

PROTOCOL.md section 11 must name every starter kit. Before the commands,
what a user tries right after ./setup.sh demo without changing
PATH: the bundled bots by name, a "not found" error that says where it looked
and what to do, and a `check` "reproduce:" line and slowest decision's
`play --from` line run as printed.

Commands that need a terminal, build the tree again, or run for hours are
skipped, each with its reason printed. Exit status 0, 1 on the first failing
command (its output printed), 77 (skipped) when SOURCE_DIR is not a git tree.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

DOCS = ["README.md", "bots/README.md"]

# (pattern, reason): commands not run. Each stands for something tested elsewhere.
SKIPS = [
    (r"^\./setup\.sh ", "builds and runs for minutes; BUILD_DIR stands for its build"),
    (r"^cmake (-S|--build)", "a build; BUILD_DIR stands for it"),
    (r"^ctest --test-dir build-test", "runs the test suite, of which this is a test"),
    (r"skipbo-human", "needs a terminal (tests/bots: bots_human, bots_human_tmux)"),
    (r"bots/strength/|head_to_head\.py", "a strength tournament: hours"),
]
# (pattern, replacement, reason): commands run in a form that needs no terminal or less time.
REWRITES = [
    (r"^less (\S+)", r"test -s \1", "less needs a terminal: the file is checked instead"),
]
INLINE = re.compile(r"`(skipbo-arena [^`]+)`")


def commands(tree):
    """Yields (where, kind, text) in document order: kind "sh" or "save NAME"."""
    for doc in DOCS:
        lines = open(os.path.join(tree, doc), encoding="utf-8").read().split("\n")
        i = 0
        while i < len(lines):
            line = lines[i]
            fence = re.match(r"^```(\w*)\s*$", line)
            if fence:
                lang, start = fence.group(1), i + 1
                i += 1
                while i < len(lines) and not lines[i].startswith("```"):
                    i += 1
                body = lines[start:i]
                if lang == "sh":
                    yield from shell_lines(doc, start + 1, body)
                elif lang == "jsonc":
                    before = " ".join(lines[max(0, start - 5):start])
                    name = re.search(r"Save this as `([^`]+)`", before)
                    if name:
                        yield (f"{doc}:{start}", "save " + name.group(1), "\n".join(body))
            else:
                for span in INLINE.findall(line):
                    words = span.split()
                    # a reference to a command, or a synopsis with placeholders, is no command
                    if len(words) < 2 or (len(words) == 2 and not words[1].startswith("-")) \
                            or re.search(r"[A-Z]{2,}|…|\[", span):
                        continue
                    yield (f"{doc}:{i + 1}", "sh", span)
            i += 1


def shell_lines(doc, first, body):
    text, start = "", None
    for n, line in enumerate(body, first):
        if start is None:
            start = n
        text += line
        if line.endswith("\\"):
            text = text[:-1] + " "
            continue
        if text.strip():
            yield (f"{doc}:{start}", "sh", text.strip())
        text, start = "", None


def sanitized(build):
    cache = os.path.join(build, "CMakeCache.txt")
    return os.path.exists(cache) and "SKIPBO_SANITIZE:BOOL=ON" in open(cache).read()


def plan(tree, build):
    """The shell script that runs the commands, each announced, stopping at the first failure."""
    rewrites = REWRITES
    if sanitized(build):
        rewrites = rewrites + [(r"^(cc .*build/protocol/libskipbo_protocol\.a.*)$",
                                r"\1 -fsanitize=address,undefined",
                                "the libraries of a -DSKIPBO_SANITIZE=ON build need the sanitizers")]
    out = []
    for where, kind, text in commands(tree):
        if kind.startswith("save "):
            name = kind[5:]
            out.append(f"note {q(where)} {q('saved as ' + name)}")
            out.append(f"cat >{q(name)} <<'JSONC_END'\n{text}\nJSONC_END")
            continue
        skip = next((r for p, r in SKIPS if re.search(p, text)), None)
        if skip:
            out.append(f"note {q(where)} {q('skipped: ' + text + ': ' + skip)}")
            continue
        for p, r, why in rewrites:
            if re.search(p, text):
                out.append(f"note {q(where)} {q(text + ': ' + why)}")
                text = re.sub(p, r, text)
        out.append(f"step {q(where)} {q(text)}")
    return "\n".join(out)


def q(s):
    return "'" + s.replace("'", "'\\''") + "'"


PRELUDE = r"""
set -u
log=$WORK/step.log
note() { echo "walkthrough: $1: $2"; }
step() {
	echo "walkthrough: $1: $2"
	if ! eval "$2" </dev/null >"$log" 2>&1; then
		echo "walkthrough: FAILED: $1: $2" >&2
		tail -n 40 "$log" >&2
		exit 1
	fi
}
expect() { # where, text the output must hold, command
	echo "walkthrough: $1: $3"
	eval "$3" </dev/null >"$log" 2>&1
	grep -qF -- "$2" "$log" || { echo "walkthrough: FAILED: $1: no \"$2\" in:" >&2; cat "$log" >&2; exit 1; }
}
"""

# Right after ./setup.sh demo, before any PATH change (README.md, "Set-up").
FIRST_MINUTES = r"""
export PATH=/usr/local/bin:/usr/bin:/bin
A=./build/arena/skipbo-arena
step 'bundled bots by name' "$A play --seed 1 skipbo-easy skipbo-medium"
expect 'not found' 'among the bundled bots' "! $A play nosuchbot skipbo-easy"
expect 'not found' 'give its path' "! $A play nosuchbot skipbo-easy"
printf '#!/bin/sh\necho "about to crash" >&2\nexit 3\n' >crash.sh && chmod +x crash.sh
expect 'check' 'reproduce: ' "! $A check --games 1 ./crash.sh"
repro=$(sed -n 's/^  reproduce: //p' "$log" | head -n 1)
step 'reproduce: as printed' "$repro"
grep -q 'crash.sh' "$log" || { echo "walkthrough: the reproduce line did not replay the game" >&2; exit 1; }
expect 'check' 'slowest decisions (replays in ' "$A check --games 2 skipbo-medium"
slow=$(sed -n 's/^  [0-9.]* ms, game [0-9]*, decision [0-9]*: //p' "$log" | head -n 1)
expect 'slowest decision: play --from as printed' 'decisions replayed, the bots play from decision' "$slow"
"""


def kits_listed(tree):
    """PROTOCOL.md section 11 names every starter kit in bots/starter/."""
    text = open(os.path.join(tree, "protocol/PROTOCOL.md"), encoding="utf-8").read()
    section = text[text.index("## 11."):]
    missing = [k for k in sorted(os.listdir(os.path.join(tree, "bots/starter")))
               if f"bots/starter/{k}/" not in section]
    if missing:
        print(f"walkthrough: PROTOCOL.md section 11 does not list the starter kits {missing}")
    return not missing


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src, build = (os.path.abspath(a) for a in sys.argv[1:])
    files = subprocess.run(["git", "-C", src, "ls-files", "-z"], capture_output=True)
    if files.returncode != 0:
        print("walkthrough: not a git tree, skipped")
        return 77
    work = tempfile.mkdtemp(prefix="skipbo-walkthrough.", dir="/tmp")
    # the sandbox runs the bots as another user, who must reach their files
    os.chmod(work, 0o755)
    try:
        tree = os.path.join(work, "skipbo-arena")
        for rel in files.stdout.decode().split("\0"):
            if rel and os.path.isfile(os.path.join(src, rel)):
                os.makedirs(os.path.join(tree, os.path.dirname(rel)), exist_ok=True)
                shutil.copy2(os.path.join(src, rel), os.path.join(tree, rel), follow_symlinks=False)
        if not kits_listed(tree):
            return 1
        os.symlink(build, os.path.join(tree, "build"))
        os.makedirs(os.path.join(work, "home"))
        script = PRELUDE + FIRST_MINUTES + 'export PATH="$SAVED_PATH"\n' + plan(tree, build) + \
            "\necho 'walkthrough: every command ran'\n"
        env = dict(os.environ, WORK=work, HOME=os.path.join(work, "home"), TMPDIR=work,
                   # the system's interpreters first, as on a fresh Debian machine: an
                   # interpreter under a home directory (a pyenv shim) is refused by the
                   # sandbox as root, with the system's one named as the fix
                   SAVED_PATH="/usr/bin:/bin:" + os.environ.get("PATH", ""))
        return subprocess.run(["bash", "-c", script], cwd=tree, env=env).returncode
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
