"""Paper 002's bench: `./hako bench ispc` (user/ispcbench); tables.py prints its tables."""
from __future__ import annotations

from ...bench import Bench
from ...qemu import Profile
from ...reportkit import Step
from . import sh4

# The kernel's servers= list for ispcbench: its own helper servers are OS
# servers there, so in fast mode they get the ICA window like the others.
ISPC_SERVERS = "nameserver,echo,ramdisk,ispcbench"

BENCHES: dict[str, Bench] = {
    "ispc": Bench(
        profile=Profile(machine="pc", smp=2, mode="icount", words=("ispcbench",),
                        cmdline="servers=" + ISPC_SERVERS),
        timeout=600.0,
        about="server communication, paper 002 (ispcbench), baseline and fast, pc, 2 CPUs, icount",
    ),
    # `./hako bench ispc --arch sh4`: the same program on the SH-4, where
    # fast mode is the paper's UTLB partition and every TLB miss is counted.
    "ispc-sh4": Bench(
        profile=Profile(arch="sh4", smp=1, mode="icount", words=("ispcbench",),
                        cmdline="servers=" + ISPC_SERVERS),
        timeout=900.0,
        about="ispc on SH-4 (`bench ispc --arch sh4`): ispcbench, baseline against the "
              "paper's UTLB partition, instructions and TLB misses, r2d, icount (~1 min)",
        table=sh4.bench_table,
    ),
}

# The report's runs of them (`make report`, report.py) and the result files
# its section reads, each with the bench that makes it.
REPORT_STEPS = (
    Step("ispc", "002", ("ispc",), "server communication, ispcbench, icount (~10 s)",
         seconds=10, chain="ispc"),
    Step("ispc-modern", "002", ("ispc", "--model", "modern"), "ispcbench, cost model modern (~25 s)",
         (("bench-ispc.joined.jsonl", "bench-ispc-modern.joined.jsonl"),), 25, "ispc"),
    Step("ispc-p4", "002", ("ispc", "--model", "p4"), "ispcbench, cost model p4 (~30 s)",
         (("bench-ispc.joined.jsonl", "bench-ispc-p4.joined.jsonl"),), 30, "ispc"),
    # The model's run first: the plain run's figures are then the ones left
    # in bench-ispc-sh4.jsonl, which the verdicts read.
    Step("ispc-sh4-sh7751r", "002", ("ispc-sh4", "--model", sh4.SH4_PROFILE),
         "ispcbench on SH-4, cost model sh7751r (~4 min)",
         (("bench-ispc-sh4.joined.jsonl", sh4.JOINED_FILE),), 240, "ispc-sh4"),
    Step("ispc-sh4", "002", ("ispc-sh4",), "ispcbench on SH-4 (bench ispc --arch sh4), icount (~90 s)",
         seconds=90, chain="ispc-sh4"),
)
REPORT_INPUTS = (
    ("bench-ispc.jsonl", "./hako bench ispc"),
    ("bench-ispc-modern.joined.jsonl", "./hako bench ispc --model modern"),
    ("bench-ispc-p4.joined.jsonl", "./hako bench ispc --model p4"),
    ("bench-ispc-sh4.jsonl", "./hako bench ispc --arch sh4"),
    (sh4.JOINED_FILE, f"./hako bench ispc --arch sh4 --model {sh4.SH4_PROFILE}"),
)
