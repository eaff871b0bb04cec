"""What the cost model costs (`./hako bench costmodel-speed`): the same
icount boot without the plugin and with it, timed on the host, and the
ratio of the two.

The workload is sysbench (pc, 4 CPUs, icount), the boot `make check`'s
modelled run uses; the model is `modern` unless --model names others (a
"A+B" model loads one plugin copy each, and costs about one boot's plugin
time per model).  Both boots run the same guest instructions: under
icount the plugin does not change what the guest does.  Printed: each
boot's wall time and the CPU time of its children (QEMU), and both
ratios; the bound the model is held to is 3x.  Host time is not
deterministic (the other QEMU runs beside it take cores), so nothing
asserts it: the CPU-time ratio is the steadier of the two.
"""
from __future__ import annotations

import dataclasses
import os
import resource
import time
from pathlib import Path

from . import paths
from .qemu import Profile
from .runner import prepare, run_boot

WORKLOAD = Profile(machine="pc", smp=4, mode="icount", words=("sysbench",))
DEFAULT_MODEL = "modern"
TIMEOUT = 600.0
BOUND = 3.0


def children_cpu() -> float:
    """CPU seconds, user and system, of every child waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_boot(model: str, name: str, **kwargs) -> tuple[int, float, float]:
    """One boot of WORKLOAD with MODEL ("" without the plugin), already
    built: its exit code, wall seconds and children's CPU seconds."""
    cpu0, wall0 = children_cpu(), time.monotonic()
    outcome = run_boot(dataclasses.replace(WORKLOAD, model=model), name, TIMEOUT, build=False,
                       **kwargs)
    return outcome.exit_code, time.monotonic() - wall0, children_cpu() - cpu0


def render(model: str, plain: tuple[float, float], modelled: tuple[float, float]) -> str:
    """The two boots' times and the ratios, one table."""
    rows = (("icount", plain), (f"icount + cost model {model}", modelled))
    lines = ["the cost model's slowdown: sysbench, pc, 4 CPUs, icount (host time: not deterministic)",
             f"  {'boot':<34} {'wall s':>8} {'cpu s':>8}"]
    lines += [f"  {label:<34} {wall:>8.1f} {cpu:>8.1f}" for label, (wall, cpu) in rows]
    ratio = [m / p if p > 0 else float("nan") for m, p in zip(modelled, plain)]
    lines.append(f"  ratio (modelled / plain): wall {ratio[0]:.2f}x, cpu {ratio[1]:.2f}x "
                 f"(bound {BOUND:.0f}x: {'within' if max(ratio) <= BOUND else 'ABOVE'})")
    return "\n".join(lines) + "\n"


def run_speed(model: str = "", *, out, err, **boot_kwargs) -> int:
    """Boot the workload without and with the model, print the table;
    the first failing boot's code, else 0."""
    model = model or DEFAULT_MODEL
    env = boot_kwargs.get("env") or dict(os.environ)
    root = Path(boot_kwargs.get("root") or paths.repo_root(env))
    problem = prepare(dataclasses.replace(WORKLOAD, model=model), root, env, build=True)
    if problem:                        # build once, untimed: kernel, image and plugin
        err.write(f"hako: {problem[1]}\n")
        return problem[0]
    code, *plain = timed_boot("", "bench-costmodel-speed-plain", out=out, err=err, **boot_kwargs)
    if code != 0:
        return code
    code, *modelled = timed_boot(model, "bench-costmodel-speed-model", out=out, err=err,
                                 **boot_kwargs)
    if code != 0:
        return code
    out.write(render(model, tuple(plain), tuple(modelled)))
    out.flush()
    return 0
