#!/usr/bin/env python3
"""crashfs.py's states on small logs: the reorder variant gives the states that
POSIX allows and the ordered variants do not (one file's unsynced writes kept,
another's lost; a later file's data kept while a rename's file lost its data),
never loses what was fsync'd, and draws its sets of lost files the same way
from the same seed."""

import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import crashfs  # noqa: E402

ORDERED = ("all", "none", "prefix", "torn")
CREATE = "%x" % (os.O_WRONLY | os.O_CREAT)


def log_of(lines):
    """The operations of a log given as lines of iotrace.c's format."""
    with tempfile.NamedTemporaryFile("w", delete=False) as f:
        f.write("".join(line + "\n" for line in lines))
    try:
        return crashfs.read_log(f.name)
    finally:
        os.unlink(f.name)


def states(pre_files, pre_dirs, ops, variants):
    """Every state the variants leave after the whole log, as {path: bytes} dicts."""
    found = []
    units, _ = crashfs.unsynced_units(pre_files, ops, len(ops))
    for variant in variants:
        drops = (crashfs.reorder_drops(units, 16, "t") if variant == "reorder"
                 else [frozenset()])
        for drop in drops:
            files, _ = crashfs.crash_state(pre_files, pre_dirs, ops, len(ops), variant, drop)
            found.append(files)
    return found


class Reorder(unittest.TestCase):
    def test_one_file_kept_another_lost(self):
        # two files written, their entries made durable, their data never fsync'd
        ops = log_of(["open 1 %s /r/a" % CREATE, "write 1 0 " + b"AAAA".hex(),
                      "open 2 %s /r/b" % CREATE, "write 2 0 " + b"BBBB".hex(),
                      "dsync /r"])
        wanted = {"/r/a": b"", "/r/b": b"BBBB"}
        self.assertNotIn(wanted, states({}, {"/r"}, ops, ORDERED))
        self.assertIn(wanted, states({}, {"/r"}, ops, ("reorder",)))

    def test_rename_kept_data_lost(self):
        # a file replaced by a rename, then a log appended, nothing fsync'd: the new name
        # may hold no data while the log's line is there
        ops = log_of(["open 1 %s /r/f.tmp" % CREATE, "write 1 0 " + b"NEW".hex(),
                      "rename /r/f.tmp /r/f",
                      "open 2 %s /r/log" % CREATE, "write 2 0 " + b"LINE".hex()])
        pre = {"/r/f": b"OLD", "/r/log": b""}
        wanted = {"/r/f": b"", "/r/log": b"LINE"}
        self.assertNotIn(wanted, states(pre, {"/r"}, ops, ORDERED))
        self.assertIn(wanted, states(pre, {"/r"}, ops, ("reorder",)))

    def test_synced_data_is_never_lost(self):
        ops = log_of(["open 1 %s /r/a" % CREATE, "write 1 0 " + b"AAAA".hex(), "fsync 1",
                      "open 2 %s /r/b" % CREATE, "write 2 0 " + b"BBBB".hex(), "dsync /r"])
        for files in states({}, {"/r"}, ops, ("reorder",)):
            self.assertEqual(files["/r/a"], b"AAAA")

    def test_drops_are_drawn_from_the_seed(self):
        units = [("file", ("new", i)) for i in range(10)]
        first = crashfs.reorder_drops(units, 4, "1:run:7")
        self.assertEqual(first, crashfs.reorder_drops(units, 4, "1:run:7"))
        self.assertEqual(len(first), 4)
        self.assertEqual(len(set(first)), 4)
        # few units: every subset, the seed aside
        self.assertEqual(len(crashfs.reorder_drops(units[:2], 4, "x")), 4)


if __name__ == "__main__":
    unittest.main()
