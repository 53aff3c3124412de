"""crashfs.py - the states a power cut can leave, built from an iotrace.so log.

A log (iotrace.c) lists what a program asked of the files under one
directory: files opened, written, truncated, fsync'd; directories fsync'd;
renames, links, unlinks, mkdirs. From the directory as it was before the
program ran and the first k operations of the log, crash_state() builds the
files one power cut after operation k may leave:

- a file's data as of its last fsync stays; the writes and truncations after
  it may be lost, in whole or from any point on (the page cache drops them);
- a directory's entries (a file created, renamed, linked, removed, a
  directory made) as of the directory's last fsync stay; later ones may be
  lost.

The variants tried at each k:
  all     nothing lost (what kill -9 leaves)
  none    every unsynced write and every unsynced directory entry lost
  prefix  each file keeps the first half of its unsynced writes
  torn    the last unsynced write cut in the middle, the rest kept
  reorder each file's unsynced writes, and each directory's unsynced
          entries, kept or lost independently of the others' (a set of
          units lost, reorder_drops() draws them)
The first four keep the order of the operations across files, as a
journaling file system (ext4 data=ordered) does; reorder is what POSIX
allows beyond that: unsynced writes to different files, and a rename and
the unsynced data of the file renamed, reach the disk in any order. A state
that equals another one is tried once.
"""

import os
import random


class Op:
    __slots__ = ("kind", "args", "index")

    def __init__(self, kind, args, index):
        self.kind, self.args, self.index = kind, args, index


def read_log(path):
    """The operations of a log, in order; "cmd N" lines kept as markers."""
    ops = []
    with open(path, "rb") as f:
        for raw in f:
            parts = raw.rstrip(b"\n").decode().split(" ")
            kind = parts[0]
            if kind == "write":
                args = (int(parts[1]), int(parts[2]), bytes.fromhex(parts[3]))
            elif kind == "open":
                args = (int(parts[1]), int(parts[2], 16), parts[3])
            elif kind in ("trunc",):
                args = (int(parts[1]), int(parts[2]))
            elif kind == "fsync":
                args = (int(parts[1]),)
            else:
                args = tuple(parts[1:])
            ops.append(Op(kind, args, len(ops)))
    return ops


def snapshot(root):
    """(files, dirs) under root: path -> bytes, set of directories (root included)."""
    files, dirs = {}, {root}
    for d, subdirs, names in os.walk(root):
        for s in subdirs:
            dirs.add(os.path.join(d, s))
        for n in names:
            p = os.path.join(d, n)
            with open(p, "rb") as f:
                files[p] = f.read()
    return files, dirs


class _Plan:
    """The log's first k operations, each tagged durable or not."""

    def __init__(self, pre_files, ops, k):
        self.files = {}          # file id -> initial bytes
        self.data = []           # (op index, file id, ("write", off, bytes) | ("trunc", len))
        self.meta = []           # (op index, kind, args, directory that holds it)
        self.synced_data = {}    # file id -> index of its last fsync
        self.synced_dir = {}     # directory -> index of its last fsync
        self.path_of = {}        # file id -> the path it was first known by
        names = {}
        inode = {}
        for p, b in pre_files.items():
            names[p] = ("pre", p)
            self.files[("pre", p)] = b
            self.path_of[("pre", p)] = p
        for op in ops[:k]:
            if op.kind == "open":
                ino, flags, path = op.args
                if path in names:
                    fid = names[path]
                else:
                    fid = ("new", op.index)
                    self.files[fid] = b""
                    self.path_of[fid] = path
                    names[path] = fid
                    self.meta.append((op.index, "create", (path, fid), os.path.dirname(path)))
                inode[ino] = fid
                if flags & os.O_TRUNC:
                    self.data.append((op.index, fid, ("trunc", 0)))
            elif op.kind == "write":
                ino, off, buf = op.args
                self.data.append((op.index, inode[ino], ("write", off, buf)))
            elif op.kind == "trunc":
                ino, length = op.args
                self.data.append((op.index, inode[ino], ("trunc", length)))
            elif op.kind == "fsync":
                self.synced_data[inode[op.args[0]]] = op.index
            elif op.kind == "dsync":
                self.synced_dir[op.args[0]] = op.index
            elif op.kind == "rename":
                a, b = op.args
                if a in names:
                    names[b] = names.pop(a)
                self.meta.append((op.index, "rename", (a, b), os.path.dirname(b)))
            elif op.kind == "link":
                a, b = op.args
                if a in names:
                    names[b] = names[a]
                self.meta.append((op.index, "link", (a, b), os.path.dirname(b)))
            elif op.kind == "unlink":
                names.pop(op.args[0], None)
                self.meta.append((op.index, "unlink", op.args, os.path.dirname(op.args[0])))
            elif op.kind == "mkdir":
                self.meta.append((op.index, "mkdir", op.args, os.path.dirname(op.args[0])))

    def data_durable(self, index, fid):
        return self.synced_data.get(fid, -1) > index

    def meta_durable(self, index, parent):
        return self.synced_dir.get(parent, -1) > index


def unsynced_units(pre_files, ops, k):
    """What a power cut after operation k may lose independently, in log order: the files
    with unsynced writes ("file", file id) and the directories with unsynced entries
    ("dir", path); and the path of each."""
    plan = _Plan(pre_files, ops, k)
    units, names = [], {}
    for index, fid, _ in plan.data:
        if not plan.data_durable(index, fid) and ("file", fid) not in names:
            units.append(("file", fid))
            names[("file", fid)] = plan.path_of[fid]
    for index, _, _, parent in plan.meta:
        if not plan.meta_durable(index, parent) and ("dir", parent) not in names:
            units.append(("dir", parent))
            names[("dir", parent)] = parent
    return units, names


def reorder_drops(units, count, seed):
    """Up to count sets of units to lose, drawn from seed: every subset when there are no
    more than count, else count random ones (the empty and the full set are "all" and
    "none" already, nearly)."""
    if 2 ** len(units) <= count:
        return [frozenset(u for b, u in enumerate(units) if mask >> b & 1)
                for mask in range(2 ** len(units))]
    rng = random.Random(seed)
    drops = set()
    while len(drops) < count:
        drops.add(frozenset(u for u in units if rng.random() < 0.5))
    return sorted(drops, key=lambda d: sorted(map(repr, d)))


def crash_state(pre_files, pre_dirs, ops, k, variant, drop=frozenset()):
    """(files, dirs) after a power cut following operation k, as variant says (module doc);
    for "reorder", drop is the set of units (unsynced_units) whose unsynced part is lost."""
    plan = _Plan(pre_files, ops, k)
    unsynced = [d for d in plan.data if not plan.data_durable(d[0], d[1])]
    keep = set()
    torn = None
    if variant == "reorder":
        keep = {d[0] for d in unsynced if ("file", d[1]) not in drop}
    elif variant in ("all", "torn"):
        keep = {d[0] for d in unsynced}
        writes = [d for d in unsynced if d[2][0] == "write" and len(d[2][2]) > 1]
        if variant == "torn" and writes:
            torn = writes[-1][0]
    elif variant == "prefix":
        per_file = {}
        for d in unsynced:
            per_file.setdefault(d[1], []).append(d[0])
        for idx in per_file.values():
            keep.update(idx[: len(idx) // 2])
    contents = {fid: bytearray(b) for fid, b in plan.files.items()}
    for index, fid, what in plan.data:
        if plan.data_durable(index, fid) or index in keep:
            buf = contents[fid]
            if what[0] == "trunc":
                del buf[what[1]:]
                buf.extend(b"\0" * (what[1] - len(buf)))
            else:
                off, data = what[1], what[2]
                if index == torn:
                    data = data[: len(data) // 2]
                if len(buf) < off:
                    buf.extend(b"\0" * (off - len(buf)))
                buf[off:off + len(data)] = data
    names = {p: ("pre", p) for p in pre_files}
    dirs = set(pre_dirs)
    for index, kind, args, parent in plan.meta:
        if not plan.meta_durable(index, parent) and (
                variant == "none" or (variant == "reorder" and ("dir", parent) in drop)):
            continue
        if parent not in dirs:
            continue
        if kind == "create":
            names.setdefault(args[0], args[1])
        elif kind == "rename" and args[0] in names:
            names[args[1]] = names.pop(args[0])
        elif kind == "link" and args[0] in names:
            names[args[1]] = names[args[0]]
        elif kind == "unlink":
            names.pop(args[0], None)
        elif kind == "mkdir":
            dirs.add(args[0])
    files = {p: bytes(contents[fid]) for p, fid in names.items()
             if os.path.dirname(p) in dirs}
    return files, dirs


def materialize(files, dirs, old_prefix, new_prefix):
    """Write a state under new_prefix in the place of old_prefix."""
    for d in sorted(dirs, key=len):
        os.makedirs(new_prefix + d[len(old_prefix):], exist_ok=True)
    for p, b in files.items():
        with open(new_prefix + p[len(old_prefix):], "wb") as f:
            f.write(b)


def acknowledged_lines(ops, k, name):
    """The lines written to files called name (a basename) and fsync'd within the first k
    operations: what the program had acknowledged (journal.h: a line in one write)."""
    inodes, pending, acked = set(), {}, []
    for op in ops[:k]:
        if op.kind == "open":
            if os.path.basename(op.args[2]) == name:
                inodes.add(op.args[0])
            else:
                inodes.discard(op.args[0])
        elif op.kind == "write" and op.args[0] in inodes:
            pending.setdefault(op.args[0], []).append(op.args[2])
        elif op.kind == "fsync" and op.args[0] in inodes:
            for data in pending.pop(op.args[0], []):
                acked.extend(line for line in data.split(b"\n") if line)
    return acked
