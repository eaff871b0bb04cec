"""Paper 004's Table 2 (tools/hakotool/papers/p004/preempt.py): the TSC table, the
cost model's own-instruction figures per stress case, and before/after."""
from hakotool import ksyms
from hakotool.papers.p004 import preempt as pt


def preempt(case, ctx, max_, wait=0, site="vm_unmap+0x23", cpu=0):
    return {"kind": "preempt", "case": case, "ctx": ctx, "max": max_, "count": 5, "cpu": cpu,
            "site": site, "wait": wait, "held": max_ - wait, "held_cpu": cpu, "held_site": site}


def section(epoch, ctx, insns, vcpu=0, region=0xd00, profile="pentium166", site="0x1010"):
    """cycles = 2 x insns; at 166 MHz the bound (100 us) is 16,600 cycles."""
    return {"kind": "section", "region": region, "epoch": epoch, "ctx": ctx, "vcpu": vcpu,
            "spans": 3, "site": site, "insns": insns, "cycles": insns * 2, "profile": profile}


SYMS = [(0x1000, "vm_unmap"), (0x2000, "proc_stop")]


BEFORE = [preempt("spawn", 6, 2000), preempt("runq", pt.CTX_TRAP, 2_281_472),
          preempt("runq", 13, 900, site="vm_map+0x36"),
          section(0, pt.CTX_TRAP, 999_999),            # boot: before the first case
          section(1, 6, 1800), section(2, pt.CTX_TRAP, 12_000, vcpu=2),   # 144.6 us at 166 MHz
          section(2, pt.CTX_TRAP, 4_000, vcpu=1), section(2, 13, 700)]
AFTER = [preempt("spawn", 6, 2100), preempt("runq", pt.CTX_TRAP, 2_265_527),
         preempt("runq", 13, 800), section(1, 6, 1900), section(2, pt.CTX_TRAP, 3_000),
         section(2, 13, 650)]


def test_context_names():
    names = pt.call_names()
    assert pt.ctx_name(0, names) == "kernel thread"
    assert pt.ctx_name(13, names) == "call 12 thread_create"
    assert pt.ctx_name(pt.CTX_TRAP, names) == "user exception"
    assert pt.ctx_name(pt.CTX_TRAP + 1 + 225 - 32, names) == "interrupt vector 225"


def test_own_sections_map_epochs_to_cases_and_skip_boot():
    own = pt.own_sections(BEFORE, SYMS)
    assert own[pt.CTX_TRAP] == {"insns": 12_000, "cycles": 24_000, "case": "runq", "cpu": 2,
                                "profile": "pentium166", "site": "vm_unmap+0x10"}
    assert own[6]["case"] == "spawn"


def test_tsc_only_table_checks_the_bound_on_tsc():
    lines = pt.render_preempt([r for r in BEFORE if r["kind"] == "preempt"], syms=SYMS)
    assert "no cost-model figures" in lines[2]
    assert lines[4].startswith("  user exception") and lines[4].endswith("OVER")
    assert lines[-1] == "  1 context(s) over the bound (tsc)"


def test_own_table_checks_the_bound_at_the_profiles_clock():
    lines = pt.render_preempt(AFTER, "after", SYMS)
    assert "pentium166's 166 MHz" in lines[2]
    assert lines[0].startswith("preempt [after]:")
    rows = [line for line in lines if line.startswith("  user exception")]
    assert rows and "OVER" not in rows[0] and "2265527" in rows[0]
    assert lines[-1] == "  0 context(s) over the bound (own)"
    before = pt.render_preempt(BEFORE, "before", SYMS)
    assert before[-1] == "  1 context(s) over the bound (own)"
    row = next(line for line in before if line.startswith("  user exception"))
    assert "144.6" in row and "vm_unmap+0x10" in row and row.endswith("OVER")


def test_without_a_clock_the_bound_is_on_own_instructions():
    recs = [preempt("spawn", 6, 2000), section(1, 6, 150_000, profile="nameless")]
    lines = pt.render_preempt(recs, syms=SYMS)
    assert "at 1 ns each" in lines[2] and lines[-1] == "  1 context(s) over the bound (own)"


def test_before_after_side_by_side():
    lines = pt.render_before_after([("before: serialise=off", BEFORE),
                                    ("after: serialise=on", AFTER)])
    head = next(i for i, line in enumerate(lines) if " -> " in line)
    assert "us of own cycles at pentium166's 166 MHz" in lines[head]
    row = next(line for line in lines[head:] if line.startswith("  user exception"))
    assert "144.6 OVER" in row and row.rstrip().endswith("36.1")
    assert lines[-1] == "  over the bound: before: serialise=off 1, after: serialise=on 0"


def test_symbolize_like_the_kernel():
    assert ksyms.symbolize(0x2004, SYMS) == "proc_stop+0x4"
    assert ksyms.symbolize(0x10, SYMS) == "0x10"
    assert ksyms.symbolize(0, SYMS) == "-"


def test_check_bound_names_the_contexts_over_it():
    assert pt.check_bound(AFTER) is None
    assert pt.check_bound(BEFORE) == "over the 100 us bound: user exception"
    assert pt.check_bound([r for r in BEFORE if r["kind"] == "preempt"]) is None


def test_stored_site_names_win_over_the_current_symbols():
    named = [dict(r, site_name="vm_map+0x36") if r["kind"] == "section" else r for r in AFTER]
    own = pt.own_sections(named, SYMS)
    assert {o["site"] for o in own.values()} == {"vm_map+0x36"}
    lines = pt.render_preempt(named, "after", SYMS)
    assert not any(line.startswith("  site:") for line in lines)
    assert "vm_map+0x36" in "\n".join(lines) and "vm_unmap+0x10" not in "\n".join(lines)


def test_results_without_names_say_where_their_names_come_from():
    lines = pt.render_preempt(AFTER, "after", SYMS)
    note = next(line for line in lines if line.startswith("  site:"))
    assert "named with the current build/hako.sym" in note
    assert "vm_unmap+0x10" in "\n".join(lines)
    lines = pt.render_preempt(AFTER, "after", [])
    assert any(line.startswith("  site:") and "addresses" in line for line in lines)
    assert "0x1010" in "\n".join(lines)
