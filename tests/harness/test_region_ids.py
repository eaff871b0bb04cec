"""The region-id blocks of kernel/uapi/hako_region_ids.h do not overlap.

Ids are encoded in the marker instruction, so two benchmarks that share an id
would add their work into one region of the cost model's output without any
error.  Each block is [base, base + size) as the header's comments give it.
"""
import pathlib
import re

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]
HEADER = REPO_ROOT / "kernel" / "uapi" / "hako_region_ids.h"
SYSCALLS = REPO_ROOT / "kernel" / "uapi" / "syscalls.def"


def defines() -> dict[str, int]:
    text = HEADER.read_text()
    return {m.group(1): int(m.group(2), 0)
            for m in re.finditer(r"^#define\s+(REGION_\w+)\s+(0x[0-9a-fA-F]+|\d+)", text, re.M)}


def highest_syscall() -> int:
    numbers = [int(line.split()[0]) for line in SYSCALLS.read_text().splitlines()
               if line.strip() and not line.startswith("#")]
    return max(numbers)


def blocks() -> list[tuple[str, int, int]]:
    d = defines()
    ispc_end = d["REGION_ISPC"] + 2 * d["REGION_ISPC_MODE_STRIDE"]
    sys_ids = [v for k, v in d.items() if k.startswith("REGION_SYS_")]
    return [
        ("sysbench", min(sys_ids), max(sys_ids) + 1),
        ("ispcbench", d["REGION_ISPC"], ispc_end),
        ("drvbench", d["REGION_DRVPROC"], d["REGION_DRVPROC"] + d["REGION_DRVPROC_SIZE"]),
        ("tlbstep", d["REGION_TLBSTEP_FIRST"], d["REGION_TLBSTEP_AGAIN"] + 16),
        ("iotest", d["REGION_IOTEST"], d["REGION_IOTEST"] + d["REGION_IOTEST_SLOTS"]),
        ("iotest calibration", d["REGION_IOTEST_CALIB"], d["REGION_IOTEST_CALIB"] + 1),
        ("kperf", d["REGION_KPERF"], d["REGION_KPERF"] + 2 * (highest_syscall() + 1)),
        ("preempt sections", d["REGION_PREEMPT_SECTION"], d["REGION_PREEMPT_RESET"] + 1),
        ("kperf fastpath", d["REGION_KPERF_FASTPATH"],
         d["REGION_KPERF_FASTPATH"] + 2 * d["REGION_KPERF_FASTPATH_ROWS"]),
        ("kperf kernel internals", d["REGION_KINTERNAL"],
         d["REGION_KINTERNAL"] + 2 * d["REGION_KINTERNAL_SLOTS"]),
        ("kperf copy", d["REGION_KPERF_COPY"], d["REGION_KPERF_COPY"] + d["REGION_NTH_MAX"]),
        ("vclockcheck", d["REGION_VCLOCK"], d["REGION_VCLOCK"] + 4),
        ("kperf bw", d["REGION_KPERF_BW"], d["REGION_KPERF_BW"] + d["REGION_KPERF_BW_OPS"]),
    ]


def test_blocks_do_not_overlap_and_fit_in_4096_ids():
    spans = sorted(blocks(), key=lambda b: b[1])
    for (name_a, _, end_a), (name_b, start_b, _) in zip(spans, spans[1:]):
        assert end_a <= start_b, f"{name_a} runs into {name_b}"
    assert spans[-1][2] <= 4096, f"{spans[-1][0]} ends past id 4095"
