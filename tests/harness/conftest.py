"""Shared pytest fixtures for the harness tests.

Puts tools/ (the harness package hakotool and the run tools) and
tools/build/ (the build scripts) on sys.path and provides `fake_env`: a
scratch repository root (HAKO_ROOT) with a dummy build/hako.elf and
build/hako.iso, builds disabled, and HAKO_QEMU pointing at
tests/harness/fake_qemu.py.
"""
import os
import shlex
import sys
from pathlib import Path

import pytest

TESTS_DIR = Path(__file__).resolve().parent
REPO_ROOT = TESTS_DIR.parents[1]
TOOLS_DIR = REPO_ROOT / "tools"
BUILD_TOOLS_DIR = TOOLS_DIR / "build"
FAKE_QEMU = TESTS_DIR / "fake_qemu.py"

for _dir in (BUILD_TOOLS_DIR, TOOLS_DIR):
    if str(_dir) not in sys.path:
        sys.path.insert(0, str(_dir))


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


@pytest.fixture
def model_tree(tmp_path):
    """(root, env) for a real boot with the cost-model plugin, in a tree of its own
    (build/, tools/ and ./hako linked from the repository) so that the committed
    results/ files, inputs of the report, are left alone; skipped until the
    plugin is built (`make costmodel`)."""
    from hakotool import model
    from hakotool.paths import repo_root
    root = repo_root()
    if not (root / model.PLUGIN).is_file():
        pytest.skip(f"{model.PLUGIN} not built (make costmodel)")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HAKO_", "FAKE_QEMU_"))}
    env["HAKO_NO_BUILD"] = "1"
    tree = tmp_path / "tree"
    tree.mkdir()
    for name in ("build", "tools", "hako"):
        (tree / name).symlink_to(root / name)
    return tree, env
