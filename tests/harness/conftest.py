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


def linked_tree(tmp_path: Path) -> tuple[Path, dict]:
    """(root, env) for real boots in a tree of their own (build/, tools/ and
    ./hako linked from the repository), so that the committed results/ files,
    inputs of the report, are left alone."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HAKO_", "FAKE_QEMU_"))}
    env["HAKO_NO_BUILD"] = "1"
    tree = tmp_path / "tree"
    tree.mkdir()
    for name in ("build", "tools", "hako"):
        (tree / name).symlink_to(REPO_ROOT / name)
    return tree, env


@pytest.fixture
def kernel_tree(tmp_path):
    """linked_tree for a real boot; skipped until the kernel is built (`make`)."""
    if not (REPO_ROOT / "build" / "hako.elf").is_file():
        pytest.skip("build/hako.elf not built (make)")
    return linked_tree(tmp_path)


@pytest.fixture
def model_tree(tmp_path):
    """linked_tree for a real boot with the cost-model plugin; skipped until
    the plugin is built (`make costmodel`)."""
    from hakotool import model
    if not (REPO_ROOT / model.PLUGIN).is_file():
        pytest.skip(f"{model.PLUGIN} not built (make costmodel)")
    return linked_tree(tmp_path)
