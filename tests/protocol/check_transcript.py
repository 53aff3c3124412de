"""Check that the transcript in PROTOCOL.md is exactly what the code produces.

usage: check_transcript.py GEN_TRANSCRIPT PROTOCOL_MD [--write]

Runs GEN_TRANSCRIPT (a short game played in process through the protocol
library) and compares its output with the fenced block between
<!-- transcript:begin --> and <!-- transcript:end --> in PROTOCOL_MD. With
--write the block is replaced by the fresh output instead.
"""
import subprocess
import sys

BEGIN = "<!-- transcript:begin -->\n```text\n"
END = "```\n<!-- transcript:end -->"


def main():
    gen, doc = sys.argv[1:3]
    write = sys.argv[3:] == ["--write"]
    fresh = subprocess.run([gen], check=True, capture_output=True, text=True).stdout
    with open(doc, encoding="utf-8") as f:
        text = f.read()
    start = text.find(BEGIN)
    end = text.find(END, start)
    if start < 0 or end < 0:
        sys.exit(f"{doc}: no transcript block ({BEGIN!r} ... {END!r})")
    start += len(BEGIN)
    if write:
        with open(doc, "w", encoding="utf-8") as f:
            f.write(text[:start] + fresh + text[end:])
        return
    if text[start:end] != fresh:
        old = text[start:end].splitlines()
        new = fresh.splitlines()
        for i, (a, b) in enumerate(zip(old + [""] * len(new), new + [""] * len(old))):
            if a != b:
                sys.exit(f"{doc}: transcript line {i + 1} differs from the code's output:\n"
                         f"  doc:  {a[:200]}\n  code: {b[:200]}\n"
                         f"regenerate with: {sys.argv[0]} {gen} {doc} --write")
    print(f"transcript matches ({len(fresh.splitlines())} lines)")


if __name__ == "__main__":
    main()
