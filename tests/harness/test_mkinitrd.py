"""Tests for tools/build/mkinitrd.py: packing user programs into the boot archive.

The expected bytes are spelled out with struct here, independently of the
module, following the format in kernel/boot/archive.h.
"""
import itertools
import struct
import subprocess
import sys

import pytest

import mkinitrd
from conftest import BUILD_TOOLS_DIR

SCRIPT = BUILD_TOOLS_DIR / "mkinitrd.py"


def offsets(image):
    """(name, offset, size) of each entry, read straight from the bytes."""
    count, = struct.unpack_from("<I", image, 8)
    out = []
    for i in range(count):
        name, off, size = struct.unpack_from("<32sQQ", image, 16 + 48 * i)
        out.append((name.rstrip(b"\0").decode(), off, size))
    return out


def test_exact_layout():
    image = mkinitrd.pack([("init", b"\x7fELF"), ("hello", b"hi\n")])
    expected = (b"HAKOARC1" + struct.pack("<II", 2, 0)
                + b"hello".ljust(32, b"\0") + struct.pack("<QQ", 112, 3)
                + b"init".ljust(32, b"\0") + struct.pack("<QQ", 128, 4)
                + b"hi\n" + bytes(13) + b"\x7fELF")
    assert image == expected


def test_round_trip():
    files = [("init", bytes(range(256)) * 3), ("sh", b""), ("x", b"\0"), ("a" * 31, b"long name")]
    assert mkinitrd.read_archive(mkinitrd.pack(files)) == sorted(files)


def test_empty_archive():
    assert mkinitrd.pack([]) == b"HAKOARC1" + bytes(8)
    assert mkinitrd.read_archive(mkinitrd.pack([])) == []


def test_sorted_by_name_whatever_the_input_order():
    files = [("b", b"2"), ("a", b"1"), ("C", b"3"), ("a2", b"4")]
    images = {mkinitrd.pack(list(p)) for p in itertools.permutations(files)}
    assert len(images) == 1
    assert [n for n, _ in mkinitrd.read_archive(images.pop())] == ["C", "a", "a2", "b"]  # byte order


@pytest.mark.parametrize("sizes", [[0, 0, 0], [1, 15, 16, 17], [31, 32, 33, 0, 5]])
def test_alignment(sizes):
    files = [(f"f{i}", bytes([i + 1]) * n) for i, n in enumerate(sizes)]
    image = mkinitrd.pack(files)
    entries = offsets(image)
    table_end = 16 + 48 * len(sizes)
    for name, off, size in entries:
        assert off % 16 == 0 and off >= table_end
    for (_, a, n), (_, b, _) in zip(entries, entries[1:]):
        assert b == -(-(a + n) // 16) * 16        # the next 16-byte boundary: no gaps
    _, last, n = entries[-1]
    assert len(image) == last + n                 # nothing after the last file


@pytest.mark.parametrize("path,name", [
    ("build/user/init.elf", "init"),
    ("init", "init"),
    ("a.elf.elf", "a.elf"),
    ("prog.ELF", "prog.ELF"),
    ("x.elfx", "x.elfx"),
    ("dir.elf/sh", "sh"),
    ("hello.txt", "hello.txt"),
])
def test_entry_name(path, name):
    assert mkinitrd.entry_name(path) == name


@pytest.mark.parametrize("name", ["", "a" * 32, "a b", "a/b", "tab\t", "caf\u00e9", "\x7f"])
def test_bad_names_refused(name):
    with pytest.raises(mkinitrd.ArchiveError):
        mkinitrd.pack([(name, b"")])


def test_duplicates_and_count_refused():
    with pytest.raises(mkinitrd.ArchiveError, match="duplicate name 'x'"):
        mkinitrd.pack([("x", b"1"), ("y", b""), ("x", b"2")])
    many = [(f"f{i}", b"") for i in range(256)]
    assert len(mkinitrd.read_archive(mkinitrd.pack(many))) == 256
    with pytest.raises(mkinitrd.ArchiveError, match="at most 256"):
        mkinitrd.pack(many + [("g", b"")])


def run(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)],
                          capture_output=True, text=True)


def test_cli_packs_files(tmp_path):
    (tmp_path / "sh.elf").write_bytes(b"shell")
    (tmp_path / "init.elf").write_bytes(b"init!")
    (tmp_path / "motd").write_bytes(b"hello\n")
    out = tmp_path / "initrd.img"
    r = run(out, tmp_path / "sh.elf", tmp_path / "motd", tmp_path / "init.elf")
    assert r.returncode == 0, r.stderr
    assert mkinitrd.read_archive(out.read_bytes()) == [
        ("init", b"init!"), ("motd", b"hello\n"), ("sh", b"shell")]
    again = tmp_path / "again.img"
    assert run(again, tmp_path / "init.elf", tmp_path / "motd", tmp_path / "sh.elf").returncode == 0
    assert again.read_bytes() == out.read_bytes()


def test_cli_name_too_long(tmp_path):
    ok, bad = tmp_path / ("n" * 31 + ".elf"), tmp_path / ("n" * 32 + ".elf")
    ok.write_bytes(b"")
    bad.write_bytes(b"")
    out = tmp_path / "out.img"
    assert run(out, ok).returncode == 0
    out.unlink()
    r = run(out, ok, bad)
    assert r.returncode == 1
    assert "32 bytes long, at most 31" in r.stderr and str(bad) in r.stderr
    assert not out.exists()


def test_cli_duplicates(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, second = tmp_path / "a" / "init.elf", tmp_path / "b" / "init"
    first.write_bytes(b"1")
    second.write_bytes(b"2")
    out = tmp_path / "out.img"
    out.write_bytes(b"old")
    r = run(out, first, second)
    assert r.returncode == 1
    assert f"{first} and {second} both give the name 'init'" in r.stderr
    assert out.read_bytes() == b"old"


def test_cli_other_errors(tmp_path):
    (tmp_path / ".elf").write_bytes(b"")
    r = run(tmp_path / "out.img", tmp_path / ".elf")
    assert r.returncode == 1 and "empty name" in r.stderr
    r = run(tmp_path / "out.img", tmp_path / "missing.elf")
    assert r.returncode == 1 and "missing.elf" in r.stderr
    r = run()
    assert r.returncode == 2 and "usage" in r.stderr
    assert run(tmp_path / "empty.img").returncode == 0
    assert mkinitrd.read_archive((tmp_path / "empty.img").read_bytes()) == []


def good():
    return mkinitrd.pack([("hello", b"hi\n"), ("init", b"\x7fELF")])


def test_read_archive_rejects_every_truncation():
    image = good()
    for n in range(len(image)):
        with pytest.raises(mkinitrd.ArchiveError):
            mkinitrd.read_archive(image[:n])


def patched(at, raw):
    image = bytearray(good())
    image[at:at + len(raw)] = raw
    return bytes(image)


@pytest.mark.parametrize("at,raw", [
    (0, b"X"),                                  # magic
    (12, b"\1"),                                # reserved
    (8, struct.pack("<I", 257)),                # count over 256
    (8, struct.pack("<I", 3)),                  # table past the data
    (16, b"x" * 32),                            # no NUL
    (16, b"\0"),                                # empty name
    (16 + 10, b"j"),                            # junk after the NUL
    (16, b"a/b\0"),                             # '/'
    (16, b"init\0"),                            # duplicate
    (16 + 32, struct.pack("<Q", 113)),          # unaligned
    (16 + 32, struct.pack("<Q", 96)),           # inside the table
    (16 + 48 + 40, struct.pack("<Q", 5)),       # init one byte past the end
    (16 + 32, struct.pack("<QQ", 2**64 - 16, 32)),  # would wrap in 64 bits
])
def test_read_archive_rejects_malformed(at, raw):
    with pytest.raises(mkinitrd.ArchiveError):
        mkinitrd.read_archive(patched(at, raw))
