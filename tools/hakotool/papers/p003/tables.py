"""Paper 003's tables (drivers as processes) from `./hako bench drvproc`.

The bench boots user/drvbench on one CPU with the network drivers in the
kernel, as processes in ring 3 (drvproc=rtl8139,e1000) and as processes in
supervisor mode (drvmode=super: the paper's own placement, ring 0 in an
address space of their own).  Each boot prints "bench" records named
FIGURE_kernel, FIGURE_process or FIGURE_super (TSC ticks: guest
instructions under icount, with the cost model's figures per iteration when
the run had --model) and "drvproc" records with the switch counts per
operation and the throughput run.  render() puts the placements side
by side beside the paper's figures (FreeBSD 4.3, Pentium 4 2.8 GHz,
clocks): Table 2 the interrupt path, Table 3 the copy-in, the driver-call
path, frames per second, and the overhead per frame of each process
placement (the paper estimated about 5 % for its own).

Pure functions of the records, so the host tests can feed them.
"""
from __future__ import annotations

from . import switch
from .criteria import PUBLISHED

PLACEMENTS = ("kernel", "process", "super")
SHORT = {"kernel": "k", "process": "p", "super": "s"}

# (figure, what, the paper's in-kernel and process clocks or None)
TABLE2 = (("irq_handler", "interrupt entry -> handler done", None, None),
          ("irq_wake", "handler done -> requester running", None, None),
          ("irq_path", "interrupt entry -> requester running", *PUBLISHED["irq_path"]))
TABLE3 = (("copyin_4", "copy-in of 4 bytes (the copy alone)", *PUBLISHED["copyin_4"]),
          ("copyin_1514", "copy-in of 1514 bytes (the copy alone)", None, None),
          ("copycall_4", "drvproc_call NET_COPY 4 bytes, round trip", None, None),
          ("copycall_1514", "drvproc_call NET_COPY 1514 bytes, round trip", None, None))
CALLS = (("call_send60", "drvproc_call NET_SEND 60 bytes, round trip", PUBLISHED["call_send60"],
          None),)


def figures(records) -> dict[tuple[str, str], dict]:
    """{(figure, placement): record} of the bench and drvproc records."""
    out: dict[tuple[str, str], dict] = {}
    for r in records:
        name = r.get("name") if r.get("kind") == "bench" else r.get("figure")
        if r.get("kind") not in ("bench", "drvproc") or not isinstance(name, str):
            continue
        for placement in PLACEMENTS:
            suffix = "_" + placement
            if name.endswith(suffix):
                key = (name[: -len(suffix)], placement)
                if r.get("kind") == "bench":
                    out[key] = {**out.get(key, {}), **r}
                else:
                    out[key] = {**r, **out.get(key, {}), "switches": r}
    return out


def _median(rec: dict | None):
    return None if rec is None else rec.get("median")


def _model(rec: dict | None, counter: str):
    if rec is None:
        return None
    return ((rec.get("model") or {}).get("per_iter") or {}).get(counter)


def _cell(value, decimals: int = 0) -> str:
    if value is None:
        return "-"
    return f"{value:,.{decimals}f}" if isinstance(value, float) else f"{value:,}"


def _delta(a, b) -> str:
    if a is None or b is None:
        return "-"
    d = b - a
    return f"{d:+,.0f}" if isinstance(d, float) else f"{d:+,}"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(str(row[i])) for row in [header] + rows) for i in range(len(header))]
    lines = ["  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(header, widths)))]
    for row in rows:
        lines.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                               for i, (c, w) in enumerate(zip(row, widths))))
    return lines


def _switches(rec: dict | None) -> str:
    sw = (rec or {}).get("switches")
    if not sw or not sw.get("ops"):
        return "-"
    ops = sw["ops"]
    return f"{sw.get('switches_in', 0) / ops:.2f}/{sw.get('as_switches', 0) / ops:.2f}"


def _placed(figs) -> list[str]:
    """The placements with a figure: kernel and process always (their
    columns read "-" when empty), super when its boot ran."""
    return [p for p in PLACEMENTS if p != "super" or any(pl == "super" for _, pl in figs)]


def _rows(spec, figs, modelled: bool, placed: list[str]) -> list[list[str]]:
    rows = []
    procs = [p for p in placed if p != "kernel"]
    for name, what, paper_k, paper_p in spec:
        rec = {p: figs.get((name, p)) for p in placed}
        k = _median(rec["kernel"])
        row = [what] + [_cell(_median(rec[p])) for p in placed]
        row += [_delta(k, _median(rec[p])) for p in procs]
        row += [_switches(rec[p]) for p in placed]
        if modelled:
            row += [_cell(_model(rec[p], "cycles")) for p in placed]
            row += [_cell(_model(rec[p], "dtlb_miss"), 2) for p in placed]
        row += [_cell(paper_k), _cell(paper_p)]
        rows.append(row)
    return rows


def _header(modelled: bool, placed: list[str]) -> list[str]:
    procs = [p for p in placed if p != "kernel"]
    h = [""] + placed
    h += ["diff"] if len(procs) == 1 else [f"diff {SHORT[p]}" for p in procs]
    h += [f"sw {SHORT[p]}" for p in placed]
    if modelled:
        h += [f"cyc {SHORT[p]}" for p in placed] + [f"dtlb {SHORT[p]}" for p in placed]
    return h + ["paper k", "paper p"]


def render(kernel_records, process_records, profile: str | None = None, switch_records=(),
           super_records=()) -> str:
    """The tables as text; profile: the cost-model profile the records were joined to;
    switch_records: the drvswitch=on boot's, for paper 003's own experiment (papers/p003/switch.py);
    super_records: the drvmode=super boot's (the driver processes in supervisor mode)."""
    figs = figures(list(kernel_records) + list(process_records) + list(super_records))
    modelled = profile is not None
    placed = _placed(figs)
    out = ["paper 003: drivers as processes (drvbench, 1 CPU; instructions under icount"
           + (f"; cyc/dtlb: cost model {profile}, per operation" if modelled else "") + ")",
           "sw: process switches into the driver / address-space switches (CR3 loads) per "
           "operation; k: in the kernel, p: a process in ring 3"
           + (", s: a process in supervisor mode (ring 0, its own address space: the paper's)"
              if "super" in placed else "") + "; paper: FreeBSD 4.3, Pentium 4, clocks", ""]
    out += ["Table 2: interrupt path (the RTL8139 receives one frame for a waiting requester)"]
    out += _table(_header(modelled, placed), _rows(TABLE2, figs, modelled, placed)) + [""]
    out += ["Table 3: copy-in of the caller's data by the driver (driver's address space) "
            "vs in the kernel"]
    out += _table(_header(modelled, placed), _rows(TABLE3, figs, modelled, placed)) + [""]
    out += ["driver-call path"]
    out += _table(_header(modelled, placed), _rows(CALLS, figs, modelled, placed)) + [""]
    rows = []
    for label in placed:
        rec = figs.get(("frames", label))
        if rec:
            c = frame_costs(figs, label) or {}
            rows.append([label, _cell(rec.get("frames_per_s")), _cell(rec.get("per_frame")),
                         _switches(rec), _cell(c.get("irqs"), 3), _cell(c.get("held"), 3)]
                        + ([_cell(_model(rec, "cycles")), _cell(c.get("io_cycles")),
                            _cell(c.get("io_reads"), 2), _cell(c.get("io_writes"), 2)] if modelled else []))
    if rows:
        out += ["throughput: 2000 frames from the e1000's kernel sender to the RTL8139 on the hub "
                "(irq: the RTL8139's interrupts, held: times the receiver's full queue held the "
                "card back, io: device-register accesses, each per frame)"]
        out += _table(["", "frames/s", "insns/frame", "sw", "irq", "held"]
                      + (["cyc/frame", "io cyc", "io rd", "io wr"] if modelled else []), rows)
    over = overhead(figs)
    if over:
        out += ["", "estimated overhead per frame: " + over]
    per_switch = switch.switch_cost(switch.figures(list(kernel_records) + list(switch_records)))[0]
    est = paper_estimate(figs, per_switch) if modelled else ""
    if est:
        out += ["the paper's way (CR3 loads added to one frame sent and one received, times one "
                "switch's cycles from the experiment below, over the in-kernel paths' cycles): " + est]
    sw = switch.render(kernel_records, switch_records, profile)
    return "\n".join(out) + "\n" + ("\n" + sw if sw else "")


def _overhead_of(figs, placement: str) -> list[str]:
    """One process placement's extra cost per frame over the kernel's, as parts."""
    parts = []
    k, p = figs.get(("frames", "kernel")), figs.get(("frames", placement))
    if k and p and k.get("per_frame"):
        parts.append(f"throughput run {100 * (p['per_frame'] - k['per_frame']) / k['per_frame']:+.1f} % "
                     "instructions")
        ck, cp = _model(k, "cycles"), _model(p, "cycles")
        if ck and cp is not None:
            parts.append(f"{100 * (cp - ck) / ck:+.1f} % cycles")
    ik, ip = _median(figs.get(("irq_path", "kernel"))), _median(figs.get(("irq_path", placement)))
    ck, cp = _median(figs.get(("call_send60", "kernel"))), _median(figs.get(("call_send60", placement)))
    if None not in (ik, ip, ck, cp) and ik + ck:
        parts.append(f"one frame sent and one received (call + interrupt path) "
                     f"{100 * ((ip + cp) - (ik + ck)) / (ik + ck):+.1f} %")
    return parts


def overhead(figs) -> str:
    """Each process placement's extra cost per frame, as the paper estimates its own (~5 %)."""
    out = []
    for placement in ("process", "super"):
        parts = _overhead_of(figs, placement)
        if parts:
            out.append(f"{placement}: " + "; ".join(parts))
    return "; ".join(out) + (f"; paper +{PUBLISHED['overhead_pct']:g} %" if out else "")


def _cr3(rec: dict | None):
    sw = (rec or {}).get("switches") or {}
    return sw["as_switches"] / sw["ops"] if sw.get("ops") and "as_switches" in sw else None


def paper_estimate(figs, per_switch) -> str:
    """The paper's estimate of its ~5 %, for each process placement: the address-space
    switches it adds to a frame sent (the driver call) and one received (the interrupt
    path), each priced at one switch's modelled cycles, over the in-kernel paths' cycles."""
    if not per_switch:
        return ""
    paths = ("irq_path", "call_send60")
    base = [_model(figs.get((name, "kernel")), "cycles") for name in paths]
    loads_k = [_cr3(figs.get((name, "kernel"))) for name in paths]
    if None in base + loads_k or not sum(base):
        return ""
    parts = []
    for placement in ("process", "super"):
        loads = [_cr3(figs.get((name, placement))) for name in paths]
        if None in loads:
            continue
        added = sum(loads) - sum(loads_k)
        parts.append(f"{placement} {added:.0f} x {per_switch:,.0f} = "
                     f"{100 * added * per_switch / sum(base):+.1f} %")
    return ", ".join(parts) + (f"; paper +{PUBLISHED['overhead_pct']:g} %" if parts else "")


def frame_costs(figs, placement: str) -> dict | None:
    """Per frame of one placement's throughput run: instructions, modelled cycles and
    their device-register part (io_cycles, io_reads, io_writes), the RTL8139's
    interrupts (irqs) and the times the receiver's full queue held the card back
    (held); a figure the records lack is None.  None without the run."""
    rec = figs.get(("frames", placement))
    if not rec or not rec.get("frames"):
        return None
    frames = rec["frames"]
    sw = rec.get("switches") or {}

    def per(value):
        return None if value is None else value / frames
    out = {"insns": rec.get("per_frame"), "irqs": per(sw.get("irqs")), "held": per(rec.get("held"))}
    for counter in ("cycles", "io_cycles", "io_reads", "io_writes"):
        out[counter] = _model(rec, counter)
    return out


def explain_frames(figs, process: str = "process") -> str:
    """Where the throughput run's modelled cycles per frame go, in the kernel and in a
    process placement: the device-register part, the register reads and interrupts per
    frame behind it, the rest, and how often the receiver's full queue held the card
    back.  "" without both runs' model."""
    k, p = frame_costs(figs, "kernel"), frame_costs(figs, process)
    keys = ("insns", "cycles", "io_cycles", "io_reads", "irqs")
    if not k or not p or any(k.get(x) is None or p.get(x) is None for x in keys):
        return ""
    rest_k, rest_p = k["cycles"] - k["io_cycles"], p["cycles"] - p["io_cycles"]
    text = (f"Per frame of the throughput run the in-kernel driver costs {k['cycles']:,.0f} modelled "
            f"cycles for {k['insns']:,} instructions, the {process} placement {p['cycles']:,.0f} for "
            f"{p['insns']:,}. Device-register accesses, which the model prices as uncached bus "
            f"transactions (a read waits for the device), make {k['io_cycles']:,.0f} of the kernel's "
            f"cycles ({100 * k['io_cycles'] / k['cycles']:.0f} %) and {p['io_cycles']:,.0f} of the "
            f"{process}'s ({100 * p['io_cycles'] / p['cycles']:.0f} %): {k['io_reads']:.2f} register "
            f"reads a frame against {p['io_reads']:.2f}, with {k['irqs']:.3f} of the RTL8139's "
            f"interrupts a frame against {p['irqs']:.3f} (each reads the I/O APIC twice, to mask and "
            f"unmask the line, and the card's ISR). The rest, {rest_k:,.0f} and {rest_p:,.0f} "
            "cycles, follows the instructions.")
    hk, hp = k.get("held"), p.get("held")
    if hk and hp:
        text += (" The sender outruns the receiver: drvbench's queue filled and held the card "
                 f"back {hk:.3f} times a frame in the kernel and {hp:.3f} in the {process}, and "
                 "is refilled half a queue at a time (nic_user.c), so the receive work and its "
                 "interrupts come in batches in both placements.")
    return text
