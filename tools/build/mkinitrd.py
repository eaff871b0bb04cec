#!/usr/bin/env python3
"""mkinitrd.py — pack user programs into Hako's boot-module archive.

    mkinitrd.py OUT FILE...

Each FILE becomes one entry named after its basename with a trailing
`.elf` removed (build/user/init.elf -> "init").  Names must be 1..31
visible ASCII characters other than '/', and unique; entries are sorted by
name (byte order), so the same files always give the same bytes.  On any
error OUT is left untouched and the exit status is 1 (2 for bad usage).
With no FILE, OUT is an empty archive.

The format is the one kernel/boot/archive.h describes (and
kernel/archive.c reads): a 16-byte header ("HAKOARC1", u32 count,
u32 reserved 0), count 48-byte entries (char name[32], u64 offset,
u64 size), then the files' data, each at an offset aligned to 16.

pack() and read_archive() are pure so the tests can use them directly.
"""
from __future__ import annotations

import os
import struct
import sys
from pathlib import Path

MAGIC = b"HAKOARC1"
HEADER = struct.Struct("<8sII")         # magic, count, reserved
ENTRY = struct.Struct("<32sQQ")         # name, offset, size
NAME_MAX = 31                           # bytes, without the NUL
ALIGN = 16
MAX_ENTRIES = 256


class ArchiveError(ValueError):
    """A name, file list or archive that breaks the format."""


def entry_name(path: str | os.PathLike) -> str:
    """The entry name for a file: its basename without a trailing `.elf`."""
    name = Path(path).name
    return name[:-len(".elf")] if name.endswith(".elf") else name


def check_raw_name(raw: bytes) -> bytes:
    """raw if it is a valid entry name, else ArchiveError saying why not."""
    shown = raw.decode("utf-8", "backslashreplace")
    if not raw:
        raise ArchiveError("empty name")
    if len(raw) > NAME_MAX:
        raise ArchiveError(f"name {shown!r} is {len(raw)} bytes long, at most {NAME_MAX}")
    if any(b < 0x21 or b > 0x7e or b == ord("/") for b in raw):
        raise ArchiveError(f"name {shown!r}: only visible ASCII characters other than '/' are allowed")
    return raw


def check_name(name: str) -> bytes:
    """The name as bytes, or ArchiveError saying what is wrong with it."""
    return check_raw_name(name.encode("utf-8", "surrogateescape"))


def align(n: int) -> int:
    return (n + ALIGN - 1) // ALIGN * ALIGN


def pack(files: list[tuple[str, bytes]]) -> bytes:
    """The archive holding the (name, data) pairs, sorted by name."""
    if len(files) > MAX_ENTRIES:
        raise ArchiveError(f"{len(files)} files, at most {MAX_ENTRIES}")
    named = sorted(((check_name(name), bytes(data)) for name, data in files), key=lambda f: f[0])
    for (a, _), (b, _) in zip(named, named[1:]):
        if a == b:
            raise ArchiveError(f"duplicate name {a.decode()!r}")
    offsets, pos = [], HEADER.size + ENTRY.size * len(named)
    for _, data in named:
        offsets.append(align(pos))
        pos = offsets[-1] + len(data)
    out = bytearray(HEADER.pack(MAGIC, len(named), 0))
    for (raw, data), offset in zip(named, offsets):
        out += ENTRY.pack(raw, offset, len(data))       # 32s pads the name with NULs
    for (_, data), offset in zip(named, offsets):
        out += bytes(offset - len(out)) + data
    return bytes(out)


def read_entry(data: bytes, index: int, table_end: int) -> tuple[bytes, int, int]:
    """Entry index's raw name, offset and size, checked as kernel/archive.c does."""
    field, offset, size = ENTRY.unpack_from(data, HEADER.size + ENTRY.size * index)
    raw, nul, rest = field.partition(b"\0")
    if not nul or rest.strip(b"\0"):
        raise ArchiveError(f"entry {index}: name not NUL-terminated and padded with NULs")
    check_raw_name(raw)
    if offset % ALIGN or offset < table_end or offset + size > len(data):
        raise ArchiveError(f"entry {index}: bad range {offset:#x}+{size:#x} in {len(data):#x} bytes")
    return raw, offset, size


def read_archive(data: bytes) -> list[tuple[str, bytes]]:
    """The (name, data) pairs of an archive, in table order; ArchiveError if malformed."""
    if len(data) < HEADER.size:
        raise ArchiveError("shorter than the header")
    magic, count, reserved = HEADER.unpack_from(data)
    if magic != MAGIC or reserved != 0:
        raise ArchiveError("bad magic or reserved field")
    table_end = HEADER.size + ENTRY.size * count
    if count > MAX_ENTRIES or table_end > len(data):
        raise ArchiveError(f"{count} entries do not fit")
    files, seen = [], set()
    for i in range(count):
        raw, offset, size = read_entry(data, i, table_end)
        if raw in seen:
            raise ArchiveError(f"duplicate name {raw.decode()!r}")
        seen.add(raw)
        files.append((raw.decode("ascii"), bytes(data[offset:offset + size])))
    return files


def collect(paths: list[str]) -> list[tuple[str, bytes]]:
    """(name, contents) for each path, with errors that name the files."""
    by_name: dict[str, str] = {}
    files = []
    for path in paths:
        name = entry_name(path)
        try:
            check_name(name)
        except ArchiveError as exc:
            raise ArchiveError(f"{path}: {exc}") from None
        if name in by_name:
            raise ArchiveError(f"{by_name[name]} and {path} both give the name {name!r}")
        by_name[name] = path
        try:
            files.append((name, Path(path).read_bytes()))
        except OSError as exc:
            raise ArchiveError(f"{path}: {exc.strerror}") from None
    return files


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        sys.stderr.write("usage: mkinitrd.py OUT FILE...\n")
        return 2
    try:
        image = pack(collect(argv[2:]))
    except ArchiveError as exc:
        sys.stderr.write(f"mkinitrd: {exc}\n")
        return 1
    try:
        Path(argv[1]).write_bytes(image)
    except OSError as exc:
        sys.stderr.write(f"mkinitrd: {argv[1]}: {exc.strerror}\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
