"""kperf's call table comes from syscalls.def (tools/build/gensyscalls.py writes
build/gen/kperf_calls.h): every call needs a driver kperf_drv_NAME in
user/kperf, or kperf does not link.  These tests compile user/kperf with
the host gcc against a generated table and link its objects alone, so the
undefined symbols are the library's and any missing driver's."""
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import gensyscalls

ROOT = Path(__file__).resolve().parents[2]
DEF = ROOT / "kernel/uapi/syscalls.def"
CFLAGS = ["-std=gnu11", "-O2", "-Wall", "-Wextra", "-Werror", "-ffreestanding",
          "-fno-builtin-printf", "-nostdlib", "-fno-pic", "-fno-pie", "-fno-stack-protector",
          "-mgeneral-regs-only", "-Iuser/include", "-Iuser/include/hako/arch/x86_64", "-Ikernel/uapi", "-Ilib/include"]

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None or shutil.which("ld") is None,
                                reason="needs gcc and ld")


def missing_drivers(def_text: str, tmp_path: Path) -> set[str]:
    """Generate from def_text, build user/kperf, return the drivers the link lacks."""
    gen = tmp_path / "gen"
    assert gensyscalls.main(["gensyscalls.py", str(_write(tmp_path / "syscalls.def", def_text)),
                             str(gen)]) == 0
    objs = []
    for src in sorted((ROOT / "user/kperf").glob("*.c")):
        obj = tmp_path / (src.stem + ".o")
        subprocess.run(["gcc", *CFLAGS, f"-I{gen}", "-c", str(src), "-o", str(obj)],
                       cwd=ROOT, check=True)
        objs.append(str(obj))
    link = subprocess.run(["ld", "-e", "main", "-o", str(tmp_path / "kperf.elf"), *objs],
                          cwd=ROOT, capture_output=True, text=True)
    return set(re.findall(r"undefined reference to `(kperf_drv_\w+)'", link.stderr))


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_every_call_in_syscalls_def_has_a_driver(tmp_path):
    assert missing_drivers(DEF.read_text(), tmp_path) == set()


def test_a_call_added_without_a_driver_fails_naming_it(tmp_path):
    # The words calls keep the highest numbers (gensyscalls): the new call
    # takes the first of them and they move up by one.
    lines = DEF.read_text().splitlines()
    first = min(int(line.split()[0]) for line in lines if line.rstrip().endswith("-> words"))
    moved = [f"{int(line.split()[0]) + 1}{line[len(line.split()[0]):]}"
             if line.rstrip().endswith("-> words") else line for line in lines]
    text = "\n".join(moved) + f"\n{first} frobnicate    (int x)\n"
    assert missing_drivers(text, tmp_path) == {"kperf_drv_frobnicate"}


def test_kperf_table_lists_every_call_with_its_regions():
    calls = gensyscalls.parse("0 null (void)\n5 spawn (const char *p, char *const *a)\n")
    text = gensyscalls.kperf_calls(calls)
    assert '{ 5, "spawn", kperf_drv_spawn }' in text
    assert "case 11: arch_region_mark(HAKO_REGION_END, REGION_KPERF + 11)" in text


def test_kperf_refuses_numbers_beyond_its_region_ids():
    calls = gensyscalls.parse(f"{gensyscalls.KPERF_REGION_LIMIT} late (void)\n")
    with pytest.raises(gensyscalls.DefError, match="late"):
        gensyscalls.kperf_calls(calls)
