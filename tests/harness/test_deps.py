"""tools/deps.sh: SeaBIOS is named stale when it is not the version of the suite
QEMU comes from (another SeaBIOS moves the figures: runmeta.py records it); the
browser make test needs is installed only when it is missing."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def stale(tmp_path: Path, have: str, want: str) -> str:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    for name, body in (("dpkg-query", f"printf '%s' '{have}'"),
                       ("apt-cache", f"printf 'seabios:\\n  Installed: x\\n  Candidate: {want}\\n'")):
        script = bin_dir / name
        script.write_text(f"#!/bin/sh\n{body}\n")
        script.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"}
    proc = subprocess.run(["bash", "-c", f"source {REPO_ROOT / 'tools/deps.sh'}; stale_firmware"],
                          capture_output=True, text=True, env=env, check=True)
    return proc.stdout.strip()


def test_seabios_of_another_version_is_stale(tmp_path):
    assert stale(tmp_path, "1.16.2-1", "1.16.3-2~bpo12+1") == "seabios=1.16.3-2~bpo12+1"


def test_seabios_of_the_suites_version_or_no_suite_is_fine(tmp_path):
    assert stale(tmp_path, "1.16.3-2~bpo12+1", "1.16.3-2~bpo12+1") == ""
    assert stale(tmp_path, "1.16.2-1", "(none)") == ""


def browser_calls(tmp_path: Path, present: bool) -> str:
    """What `deps.sh browser` asks apt-get for, with a fake apt-get (and browser)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    log = tmp_path / "apt.log"
    fakes = [("apt-get", f"echo \"$*\" >> {log}")]
    if present:
        fakes.append(("chromium-headless-shell", "exit 0"))
    for name, body in fakes:
        script = bin_dir / name
        script.write_text(f"#!/bin/sh\n{body}\n")
        script.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"}
    # `command -v` answers from the fake folder only: the host may have the real browser.
    script = (f"source {REPO_ROOT / 'tools/deps.sh'}; "
              f"command() {{ if [ \"$1\" = -v ] && [ \"$2\" = chromium-headless-shell ]; then "
              f"[ -x {bin_dir}/chromium-headless-shell ]; else builtin command \"$@\"; fi; }}; "
              f"choose_privilege() {{ SUDO=(); }}; browser")
    subprocess.run(["bash", "-c", script], capture_output=True, text=True,
                   env=env, check=True)
    return log.read_text() if log.exists() else ""


def test_the_browser_is_installed_when_missing(tmp_path):
    assert "install -y --no-install-recommends chromium-headless-shell" in \
        browser_calls(tmp_path, present=False)


def test_a_present_browser_is_left_alone(tmp_path):
    assert browser_calls(tmp_path, present=True) == ""
