"""Which QEMU the harness boots, and whether it is new enough.

Hako needs QEMU 10: QEMU 7.2 (Debian 12's own) starves vCPUs under icount
(docs/design/qemu.md, "Unequal vCPU time") and its plugin API is too old for
the cost model (tools/costmodel/).  Before the first boot of a process
the harness runs `qemu-system-x86_64 --version` once and refuses an older
one with a message saying what to do.  A QEMU given through HAKO_QEMU
(the tests' fake) is not checked.  The version is read with
packaging.version (PEP 440: "10.0.2", "11.1", "10.1.0-rc2").
"""
from __future__ import annotations

import dataclasses
import re
import shutil
import subprocess

from packaging.version import InvalidVersion, Version

MIN_MAJOR = 10
VERSION_TIMEOUT = 20.0
_VERSION_RE = re.compile(r"QEMU emulator version (\S+)")


@dataclasses.dataclass(frozen=True)
class QemuVersion:
    """What `--version` said: the version and the line it was on, as printed."""

    version: Version
    line: str

    @property
    def major(self) -> int:
        return self.version.major

    @property
    def minor(self) -> int:
        return self.version.minor

    @property
    def micro(self) -> int:
        return self.version.micro

    @property
    def text(self) -> str:
        """MAJOR.MINOR.MICRO, a missing part as 0 ("11.1" -> "11.1.0")."""
        return f"{self.major}.{self.minor}.{self.micro}"


def parse_version(output: str) -> QemuVersion | None:
    """The version in `qemu-system-x86_64 --version` output, or None."""
    for line in output.splitlines():
        match = _VERSION_RE.search(line)
        if match is None:
            continue
        try:
            return QemuVersion(Version(match.group(1)), line.strip())
        except InvalidVersion:
            continue
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
        if found is None or found.version < Version(str(MIN_MAJOR)):
            problem = too_old_message(program, found, output)
        _checked[program] = (found, problem)
    return _checked[program]


def forget() -> None:
    """Drop the cache (for tests)."""
    _checked.clear()
