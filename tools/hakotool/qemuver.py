"""Which QEMU the harness boots, and whether it is new enough.

Hako needs QEMU 10: QEMU 7.2 (Debian 12's own) starves vCPUs under icount
(docs/design/qemu.md, "Unequal vCPU time") and its plugin API is too old for
the cost model (tools/costmodel/).  Before the first boot of a process
the harness runs `qemu-system-x86_64 --version` once and refuses an older
one with a message saying what to do.  A QEMU given through HAKO_QEMU
(the tests' fake) is not checked.
"""
from __future__ import annotations

import dataclasses
import re
import shutil
import subprocess

MIN_MAJOR = 10
VERSION_TIMEOUT = 20.0
_VERSION_RE = re.compile(r"QEMU emulator version (\d+)\.(\d+)(?:\.(\d+))?")


@dataclasses.dataclass(frozen=True)
class QemuVersion:
    """What `--version` said: the numbers and the first line as printed."""

    major: int
    minor: int
    micro: int
    line: str

    @property
    def text(self) -> str:
        return f"{self.major}.{self.minor}.{self.micro}"


def parse_version(output: str) -> QemuVersion | None:
    """The version in `qemu-system-x86_64 --version` output, or None."""
    for line in output.splitlines():
        match = _VERSION_RE.search(line)
        if match:
            major, minor, micro = (int(group or 0) for group in match.groups())
            return QemuVersion(major, minor, micro, line.strip())
    return None


def too_old_message(program: str, found: QemuVersion | None, output: str = "") -> str:
    """What to tell someone whose QEMU is older than MIN_MAJOR (or unreadable)."""
    if found is None:
        seen = output.strip().splitlines()[0] if output.strip() else "nothing"
        what = f"`{program} --version` printed no version ({seen!r})"
    else:
        what = f"{program} is QEMU {found.text} ({found.line})"
    return (f"{what}; Hako needs QEMU {MIN_MAJOR} or newer: QEMU 7.2 starves vCPUs under "
            "-icount and has too old a plugin API for the cost model (--model). "
            "Run `make deps`: it adds Debian's backports suite and installs QEMU "
            f"{MIN_MAJOR} from it.")


def resolve(program: str, env: dict) -> str:
    """PROGRAM's full path on env's PATH (the binary a boot will run)."""
    return shutil.which(program, path=env.get("PATH")) or program


def query_version(program: str) -> tuple[QemuVersion | None, str]:
    """Run `PROGRAM --version`; (parsed version or None, raw output)."""
    try:
        proc = subprocess.run([program, "--version"], capture_output=True, text=True,
                              errors="replace", timeout=VERSION_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, str(exc)
    output = proc.stdout + proc.stderr
    return parse_version(output), output


_checked: dict[str, tuple[QemuVersion | None, str | None]] = {}


def check_version(program: str, query=query_version) -> tuple[QemuVersion | None, str | None]:
    """(version, None) if PROGRAM is new enough, else (version, message).

    The answer is cached per program for the life of the process, so a
    test-all run asks QEMU once."""
    if program not in _checked:
        found, output = query(program)
        problem = None
        if found is None or found.major < MIN_MAJOR:
            problem = too_old_message(program, found, output)
        _checked[program] = (found, problem)
    return _checked[program]


def forget() -> None:
    """Drop the cache (for tests)."""
    _checked.clear()
