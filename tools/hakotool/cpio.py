"""A newc ("070701") cpio archive writer: the Linux peer's initramfs.

Linux unpacks an initramfs in this format (the kernel's
Documentation/driver-api/early-userspace/buffer-format.rst): per entry a
110-byte ASCII header of "070701" and thirteen 8-digit hexadecimal
fields, the NUL-terminated name padded to a multiple of four bytes
(counting the header), then the data padded the same way; the archive
ends with an entry named "TRAILER!!!".

Every time, owner and inode number is fixed (mtime 0, uid/gid 0, inodes
numbered in order), so the same entries always give the same bytes.
"""
from __future__ import annotations

import dataclasses
import stat

MAGIC = b"070701"
TRAILER = "TRAILER!!!"
HEADER_LEN = 110


@dataclasses.dataclass(frozen=True)
class Entry:
    """One file, directory or device node of the archive."""

    name: str                       # without a leading "/": "init", "dev/console"
    mode: int                       # type and permission bits, e.g. stat.S_IFREG | 0o755
    data: bytes = b""
    rdev: tuple[int, int] = (0, 0)  # (major, minor) of a device node


def file(name: str, data: bytes, perm: int = 0o755) -> Entry:
    return Entry(name, stat.S_IFREG | perm, data)


def directory(name: str, perm: int = 0o755) -> Entry:
    return Entry(name, stat.S_IFDIR | perm)


def char_device(name: str, major: int, minor: int, perm: int = 0o600) -> Entry:
    return Entry(name, stat.S_IFCHR | perm, rdev=(major, minor))


def pad4(length: int) -> bytes:
    return b"\0" * (-length % 4)


def header(ino: int, entry: Entry, name_size: int) -> bytes:
    nlink = 2 if stat.S_ISDIR(entry.mode) else 1
    fields = (ino, entry.mode, 0, 0, nlink, 0, len(entry.data), 0, 0,
              entry.rdev[0], entry.rdev[1], name_size, 0)
    return MAGIC + b"".join(b"%08X" % f for f in fields)


def record(ino: int, entry: Entry) -> bytes:
    name = entry.name.encode() + b"\0"
    if entry.data and not stat.S_ISREG(entry.mode):
        raise ValueError(f"{entry.name}: only regular files carry data")
    head = header(ino, entry, len(name)) + name
    return head + pad4(len(head)) + entry.data + pad4(len(entry.data))


def pack(entries) -> bytes:
    """The archive of ENTRIES, in the order given (parents before children)."""
    seen = set()
    out = []
    for ino, entry in enumerate(entries, 1):
        if not entry.name or entry.name.startswith("/") or entry.name == TRAILER:
            raise ValueError(f"bad entry name {entry.name!r}")
        if entry.name in seen:
            raise ValueError(f"duplicate entry {entry.name!r}")
        seen.add(entry.name)
        out.append(record(ino, entry))
    out.append(record(0, Entry(TRAILER, 0)))
    return b"".join(out)


def unpack(archive: bytes) -> list[Entry]:
    """The entries of a newc archive (for the tests; the trailer is dropped)."""
    entries, pos = [], 0
    while True:
        if archive[pos:pos + 6] != MAGIC:
            raise ValueError(f"no newc header at byte {pos}")
        fields = [int(archive[pos + 6 + 8 * i:pos + 14 + 8 * i], 16) for i in range(13)]
        mode, size, rmaj, rmin, name_size = fields[1], fields[6], fields[9], fields[10], fields[11]
        name = archive[pos + HEADER_LEN:pos + HEADER_LEN + name_size - 1].decode()
        pos += HEADER_LEN + name_size
        pos += -pos % 4
        data = archive[pos:pos + size]
        pos += size + (-size % 4)
        if name == TRAILER:
            return entries
        entries.append(Entry(name, mode, data, (rmaj, rmin)))
