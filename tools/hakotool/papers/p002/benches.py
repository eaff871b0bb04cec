"""Paper 002's bench: `./hako bench ispc` (user/ispcbench); tables.py prints its tables."""
from __future__ import annotations

from ...bench import Bench
from ...qemu import Profile

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
}
