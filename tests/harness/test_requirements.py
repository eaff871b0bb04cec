"""requirements.txt pins every library exactly, and tools/deps.sh installs it
only into the virtual environment .venv/, never into the system's Python."""
import re
import shutil
import subprocess
import sys

from packaging.requirements import Requirement

from conftest import REPO_ROOT

REQUIREMENTS = REPO_ROOT / "requirements.txt"
DEPS = REPO_ROOT / "tools" / "deps.sh"


def requirement_lines(text: str) -> list[str]:
    """The lines that name a requirement (comments and blank lines left out)."""
    lines = (line.split("#", 1)[0].strip() for line in text.splitlines())
    return [line for line in lines if line]


def unpinned(lines: list[str]) -> list[str]:
    """The lines that are not NAME==VERSION with one exact version."""
    wrong = []
    for line in lines:
        try:
            req = Requirement(line)
        except ValueError:
            wrong.append(line)
            continue
        specs = list(req.specifier)
        if (len(specs) != 1 or specs[0].operator != "==" or "*" in specs[0].version
                or req.url or req.marker or req.extras):
            wrong.append(line)
    return wrong


def test_unpinned_finds_loose_lines():
    assert unpinned(["pytest>=7", "rich", "numpy==1.*", "attrs==26.1.0 ; python_version>'3'",
                     "-e .", "pytest==9.2.0"]) == [
        "pytest>=7", "rich", "numpy==1.*", "attrs==26.1.0 ; python_version>'3'", "-e ."]


def test_every_requirement_is_pinned():
    lines = requirement_lines(REQUIREMENTS.read_text(encoding="utf-8"))
    assert lines, "requirements.txt names no library"
    assert unpinned(lines) == []


def test_each_library_once():
    names = [re.split(r"[=<>!~ ]", line, 1)[0].lower().replace("_", "-")
             for line in requirement_lines(REQUIREMENTS.read_text(encoding="utf-8"))]
    assert len(names) == len(set(names))


def test_the_harness_libraries_are_listed():
    names = {Requirement(line).name.lower()
             for line in requirement_lines(REQUIREMENTS.read_text(encoding="utf-8"))}
    assert {"pytest", "jsonschema", "packaging", "rich"} <= names


def test_deps_installs_into_the_venv_only():
    script = DEPS.read_text(encoding="utf-8")
    assert "--break-system-packages" not in script
    pip_calls = [line for line in script.splitlines()
                 if re.search(r"(-m pip|^\s*pip3?)\s+install", line) and not line.lstrip().startswith("#")]
    assert pip_calls and all('"$VENV/bin/python" -m pip' in line for line in pip_calls)


def test_hako_reexecs_under_the_venv(tmp_path):
    """./hako started by another Python hands itself to .venv/bin/python."""
    launcher = tmp_path / "hako"
    shutil.copy(REPO_ROOT / "hako", launcher)
    venv_python = tmp_path / ".venv" / "bin" / "python"
    venv_python.parent.mkdir(parents=True)
    venv_python.write_text('#!/bin/sh\necho "venv python:" "$@"\n')
    venv_python.chmod(0o755)
    proc = subprocess.run([sys.executable, str(launcher), "summary", "x.jsonl"],
                          capture_output=True, text=True, timeout=30)
    assert proc.stdout == f"venv python: {launcher} summary x.jsonl\n"
