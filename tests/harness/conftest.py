"""Shared pytest fixtures for the harness tests.

Puts tools/ on sys.path and provides `fake_env`: a scratch repository root
(HAKO_ROOT) with a dummy build/hako.elf and build/hako.iso, builds
disabled, and HAKO_QEMU pointing at tools/tests/fake_qemu.py.
"""
import os
import shlex
import sys
from pathlib import Path

import pytest

TESTS_DIR = Path(__file__).resolve().parent
TOOLS_DIR = TESTS_DIR.parent
REPO_ROOT = TOOLS_DIR.parent
FAKE_QEMU = TESTS_DIR / "fake_qemu.py"

if str(TOOLS_DIR) not in sys.path:
    sys.path.insert(0, str(TOOLS_DIR))


@pytest.fixture
def fake_root(tmp_path):
    """A scratch repo root containing dummy kernel and ISO images."""
    build = tmp_path / "build"
    build.mkdir()
    (build / "hako.elf").write_bytes(b"\x7fELF")
    (build / "hako.iso").write_bytes(b"iso")
    return tmp_path


@pytest.fixture
def fake_env(fake_root):
    """Environment for running boots against the fake QEMU."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("HAKO_", "FAKE_QEMU_"))}
    env.update({
        "HAKO_ROOT": str(fake_root),
        "HAKO_NO_BUILD": "1",
        "HAKO_QEMU": f"{shlex.quote(sys.executable)} {shlex.quote(str(FAKE_QEMU))}",
    })
    return env
