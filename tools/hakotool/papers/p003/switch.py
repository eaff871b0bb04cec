"""Paper 003's own microbenchmark: an address-space switch inserted into the in-kernel driver.

`./hako bench drvproc` boots drvbench a third time with `drvswitch=on`
(kernel/measure/drvswitch.c): the RTL8139's driver stays in the kernel,
its interrupt handler runs in an address space of its own (a CR3 load
before the handler, one after), and a driver call goes into that space and
back just before the copy-in of the caller's data, as the paper's points A
(Table 2) and B (Table 3).  Its records are named FIGURE_switch; compared
with the same figures of the plain in-kernel boot (FIGURE_kernel) they give
what the inserted switch adds, in the cost model's cycles (`--model p4`):

* Table 2: the interrupt path's growth divided by the CR3 loads it gained
  is the cost of one address-space switch (the paper: 377 clocks, no TLB
  miss, the kernel's mappings being global);
* Table 3: the 4-byte copy-in's growth and its TLB misses after the switch
  (the paper: 416 -> 518 clocks, 2 misses of about 50 clocks).

Pure functions of the records, so the host tests can feed them.
"""
from __future__ import annotations

# (figure, what) of the side-by-side table
ROWS = (("irq_path", "interrupt entry -> requester running (Table 2)"),
        ("irq_handler", "interrupt entry -> handler done"),
        ("copyin_4", "copy-in of 4 bytes, the copy alone (Table 3)"),
        ("copycall_4", "drvproc_call NET_COPY 4 bytes, round trip"),
        ("call_send60", "drvproc_call NET_SEND 60 bytes (driver-call path)"))
SIDES = ("kernel", "switch")


def figures(records) -> dict[tuple[str, str], dict]:
    """{(figure, side): record} for the plain in-kernel and the drvswitch boots;
    a figure's "drvproc" record (switch counts) rides along as "switches"."""
    out: dict[tuple[str, str], dict] = {}
    for r in records:
        kind = r.get("kind")
        name = r.get("name") if kind == "bench" else r.get("figure")
        if kind not in ("bench", "drvproc") or not isinstance(name, str):
            continue
        for side in SIDES:
            if name.endswith("_" + side):
                key = (name[: -len(side) - 1], side)
                if kind == "bench":
                    out[key] = {**out.get(key, {}), **r}
                else:
                    out[key] = {**r, **out.get(key, {}), "switches": r}
    return out


def modelled(rec: dict | None, counter: str):
    """A cost-model counter per span of the figure's region (a span is one
    operation; a kernel-side region also spans the warm-up calls, which
    per_iter would spread over the timed ones), or None."""
    model = (rec or {}).get("model") or {}
    totals, spans = model.get("totals") or {}, model.get("spans")
    if counter in totals and spans:
        return totals[counter] / spans
    return (model.get("per_iter") or {}).get(counter)


def cr3_loads(rec: dict | None):
    """CR3 loads per operation from the figure's switch counts, or None."""
    sw = (rec or {}).get("switches") or {}
    return sw["as_switches"] / sw["ops"] if sw.get("ops") and "as_switches" in sw else None


def delta(f: dict, name: str, counter: str):
    a, b = modelled(f.get((name, "kernel")), counter), modelled(f.get((name, "switch")), counter)
    return None if a is None or b is None else b - a


def switch_cost(f: dict):
    """(cycles per inserted switch, CR3 loads added per interrupt, TLB misses
    added per interrupt) on the interrupt path, or Nones."""
    k, s = f.get(("irq_path", "kernel")), f.get(("irq_path", "switch"))
    added = None if cr3_loads(k) is None or cr3_loads(s) is None else cr3_loads(s) - cr3_loads(k)
    grew = delta(f, "irq_path", "cycles")
    misses = None
    dk, ds = delta(f, "irq_path", "dtlb_miss"), delta(f, "irq_path", "itlb_miss")
    if dk is not None:
        misses = dk + (ds or 0.0)
    per = grew / added if grew is not None and added else None
    return per, added, misses


def copyin(f: dict):
    """(cycles of the 4-byte copy-in without and with the switch, TLB misses
    without and with), or Nones."""
    k, s = f.get(("copyin_4", "kernel")), f.get(("copyin_4", "switch"))

    def misses(rec):
        d, i = modelled(rec, "dtlb_miss"), modelled(rec, "itlb_miss")
        return None if d is None else d + (i or 0.0)
    return modelled(k, "cycles"), modelled(s, "cycles"), misses(k), misses(s)


def _cell(value, decimals: int = 0) -> str:
    if value is None:
        return "-"
    return f"{value:,.{decimals}f}"


def render(kernel_records, switch_records, profile: str | None = None) -> str:
    """The in-kernel driver without and with the inserted switch, beside the paper."""
    from .criteria import PUBLISHED
    f = figures(list(kernel_records) + list(switch_records))
    if not any(side == "switch" for _, side in f):
        return ""
    head = ["", "insns k", "insns sw", "CR3 k", "CR3 sw"]
    if profile:
        head += ["cyc k", "cyc sw", "diff", "tlb k", "tlb sw"]
    rows = []
    for name, what in ROWS:
        k, s = f.get((name, "kernel")), f.get((name, "switch"))
        row = [what, _cell(k and k.get("median")), _cell(s and s.get("median")),
               _cell(cr3_loads(k), 2), _cell(cr3_loads(s), 2)]
        if profile:
            tk = [modelled(r, "dtlb_miss") for r in (k, s)]
            ti = [modelled(r, "itlb_miss") for r in (k, s)]
            tlb = [None if d is None else d + (i or 0.0) for d, i in zip(tk, ti)]
            d = delta(f, name, "cycles")
            row += [_cell(modelled(k, "cycles")), _cell(modelled(s, "cycles")),
                    "-" if d is None else f"{d:+,.0f}", _cell(tlb[0], 2), _cell(tlb[1], 2)]
        rows.append(row)
    widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
    line = lambda r: "  ".join(c.ljust(w) if i == 0 else c.rjust(w)  # noqa: E731
                               for i, (c, w) in enumerate(zip(r, widths)))
    out = ["paper 003's experiment: an address-space switch inserted into the in-kernel "
           "RTL8139 driver (drvswitch=on)",
           "k: the driver in the kernel; sw: the same with the switch (its handler in an address "
           "space of its own, a call there and back before the copy-in); insns: medians "
           "under icount; CR3: loads per operation"
           + (f"; cyc/tlb: cost model {profile} per operation, tlb = data + instruction TLB "
              "misses" if profile else ""), "", line(head)] + [line(r) for r in rows]
    if profile:
        per, added, misses = switch_cost(f)
        c0, c1, m0, m1 = copyin(f)
        p0, p1 = PUBLISHED["copyin_4"]
        out += ["",
                f"one address-space switch: {_cell(per)} cycles ({_cell(added, 2)} CR3 loads "
                f"added per interrupt, {_cell(misses, 2)} TLB misses added); paper "
                f"{PUBLISHED['switch_clocks']} clocks, 0 misses",
                f"4-byte copy-in after the switch: {_cell(c0)} -> {_cell(c1)} cycles "
                f"({'-' if None in (c0, c1) else f'{c1 - c0:+,.0f}'}), TLB misses "
                f"{_cell(m0, 2)} -> {_cell(m1, 2)}; paper {p0} -> {p1} clocks "
                f"({p1 - p0:+}), misses 0 -> 2"]
    return "\n".join(out) + "\n"
