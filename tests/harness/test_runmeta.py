"""A run's metadata names the firmware QEMU loads (runmeta.py)."""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

from hakotool import runmeta


def fake_qemu(tmp_path: Path, folders: list[Path]) -> str:
    """A QEMU stand-in whose `-L help` lists folders, one a line."""
    script = tmp_path / "qemu-fake"
    lines = "\\n".join(str(f) for f in folders)
    script.write_text(f"#!/bin/sh\n[ \"$1\" = -L ] && printf '{lines}\\n'\n")
    os.chmod(script, 0o755)
    return str(script)


def test_firmware_digests_are_taken_from_the_first_folder_that_has_each_file(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    (first / "bios-256k.bin").write_bytes(b"seabios one")
    (second / "bios-256k.bin").write_bytes(b"seabios two")
    (second / "efi-e1000.rom").write_bytes(b"ipxe")
    found = runmeta.firmware_digests(fake_qemu(tmp_path, [first, second]))
    assert found == {"bios-256k.bin": hashlib.sha256(b"seabios one").hexdigest()[:16],
                     "efi-e1000.rom": hashlib.sha256(b"ipxe").hexdigest()[:16]}


def test_firmware_digests_of_a_qemu_that_cannot_run_are_empty(tmp_path):
    assert runmeta.firmware_digests(str(tmp_path / "no-such-qemu")) == {}
