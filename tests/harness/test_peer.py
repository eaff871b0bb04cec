"""Tests for the Linux peer baseline: the cpio writer (cpio.py) and the
table built from canned result lines (peer.py)."""
import hashlib
import io
import json
import stat
from pathlib import Path

import pytest

from hakotool import bench, cpio, peer
from hakotool.qemu import Profile
from hakotool.results import load_meta, load_records


# ---- the newc writer ----------------------------------------------------------

def test_newc_header_fields_and_padding():
    data = cpio.pack([cpio.file("init", b"abc")])
    assert data.startswith(b"070701")
    head = data[:110]
    fields = [int(head[6 + 8 * i:14 + 8 * i], 16) for i in range(13)]
    ino, mode, uid, gid, nlink, mtime, size = fields[:7]
    assert (ino, mode, uid, gid, nlink, mtime, size) == (1, stat.S_IFREG | 0o755, 0, 0, 1, 0, 3)
    assert fields[11] == len("init") + 1                   # the name's size counts its NUL
    # 110 + 5 = 115 -> name padded to 116; data 3 -> 4; then the trailer.
    assert data[110:116] == b"init\0\0"
    assert data[116:120] == b"abc\0"
    assert data[120:126] == b"070701"
    assert b"TRAILER!!!\0" in data[120:]
    assert len(data) % 4 == 0


def test_round_trip_of_files_dirs_and_device_nodes():
    entries = [cpio.directory("dev"), cpio.char_device("dev/console", 5, 1),
               cpio.file("init", bytes(range(256)) * 5)]
    back = cpio.unpack(cpio.pack(entries))
    assert back == entries
    console = back[1]
    assert stat.S_ISCHR(console.mode) and console.rdev == (5, 1)


def test_same_entries_same_bytes_and_bad_names_refused():
    entries = [cpio.directory("proc"), cpio.file("init", b"x")]
    assert cpio.pack(entries) == cpio.pack(list(entries))
    for bad in ("", "/init", "TRAILER!!!"):
        with pytest.raises(ValueError):
            cpio.pack([cpio.file(bad, b"")])
    with pytest.raises(ValueError):
        cpio.pack([cpio.file("init", b""), cpio.file("init", b"")])
    with pytest.raises(ValueError):
        cpio.pack([cpio.Entry("dev", stat.S_IFDIR | 0o755, b"data")])


def test_initramfs_holds_init_and_its_mount_points():
    names = [e.name for e in cpio.unpack(peer.initramfs(b"\x7fELF"))]
    assert names == ["dev", "dev/console", "proc", "sys", "init"]


# ---- the QEMU command line --------------------------------------------------------

def test_linux_boots_in_hakos_qemu_configuration():
    append = peer.linux_cmdline("mitigations=off")
    argv = peer.linux_argv(peer.LINUX_PROFILE, append, env={})
    hako = bench.BENCHES["sys"].profile
    assert (hako.machine, hako.smp, hako.mem, hako.mode) == ("pc", 4, "128M", "icount")
    assert argv[argv.index("-machine") + 1] == hako.machine
    assert argv[argv.index("-smp") + 1] == str(hako.smp)
    assert argv[argv.index("-m") + 1] == hako.mem
    assert argv[argv.index("-cpu") + 1] == "max"
    assert argv[argv.index("-icount") + 1] == "shift=0,sleep=off"
    assert argv[argv.index("-kernel") + 1] == peer.KERNEL
    assert argv[argv.index("-initrd") + 1] == peer.INITRAMFS
    assert argv[argv.index("-append") + 1] == append
    assert "isa-debug-exit,iobase=0xf4,iosize=0x04" in argv     # how /init ends the run
    assert append.startswith("console=ttyS0") and append.endswith("mitigations=off")
    assert "nokaslr" in append and "clearcpuid=rdrand,rdseed" in append
    # Linux reads one clearcpuid=: a variant's flags join the base's list.
    merged = peer.linux_cmdline("clearcpuid=erms,fsrm mitigations=off")
    assert merged.count("clearcpuid=") == 1
    assert "clearcpuid=rdrand,rdseed,erms,fsrm" in merged and merged.endswith("mitigations=off")


def test_bench_peer_is_listed_and_checks_the_model(tmp_path):
    assert "peer" in bench.describe()
    err = io.StringIO()
    assert bench.run_bench("peer", model="nosuch", out=io.StringIO(), err=err,
                           root=tmp_path, env={}) == 2
    assert "no cost-model profile 'nosuch'" in err.getvalue()


def test_the_plugin_learns_linuxs_layout():
    flag, spec = peer.linux_plugin_args("modern", "results/x.model.jsonl", "0x199e0")
    assert flag == "-plugin"
    assert spec.endswith(",cpu_id_offset=0x199e0,large=ffff888000000000:400000000000,"
                         "large=ffffffff80000000:40000000")
    assert ",profile=tools/costmodel/profiles/modern.profile,out=results/x.model.jsonl" in spec


# ---- the table --------------------------------------------------------------------

def bench_line(name, median):
    return {"kind": "bench", "name": name, "unit": "tsc", "min": median, "median": median,
            "mean": median, "max": median, "n": 10}


def write(results, name, records):
    results.mkdir(parents=True, exist_ok=True)
    (results / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))


@pytest.fixture
def sitting(tmp_path):
    results = tmp_path / "results"
    write(results, "bench-peer-hako-sys", [
        {"kind": "boot", "cpus": 4}, bench_line("null_syscall", 101), bench_line("getpid", 117),
        bench_line("process_switch_oneway", 846), bench_line("spawn_exit_wait", 113897)])
    write(results, "bench-peer-hako-ispc", [bench_line("sync_roundtrip_4k_fast", 2538)])
    linux = [{"kind": "peer-linux", "release": "6.1.0-56-amd64", "cpus": 4},
             {"kind": "peer-info", "name": "cpu_flags", "value": "erms yes, fsrm yes"},
             {"kind": "peer-info", "name": "version", "value": "Linux version 6.1.0-56-amd64 "
              "(debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0) #1 SMP PREEMPT_DYNAMIC Debian 6.1.192-2 (2026-11-16)"},
             {"kind": "peer-vuln", "name": "meltdown", "value": "Not affected"},
             {"kind": "peer-vuln", "name": "spectre_v2", "value": "Mitigation: Retpolines"},
             bench_line("null_syscall", 335), bench_line("getpid", 319),
             bench_line("process_switch_oneway", 4168), bench_line("spawn_exit_wait", 50000),
             bench_line("unix_4k_same_cpu", 48029), bench_line("pipe_4k_cross_cpu", 33943),
             {"kind": "peer-done", "failed": 0}]
    write(results, "bench-peer-linux-default", linux)
    off = [dict(r, median=r["median"] - 100) if r.get("kind") == "bench" else r for r in linux]
    write(results, "bench-peer-linux-mitigations-off", off)
    no_erms = [dict(r, median=r["median"] // 2) if r.get("kind") == "bench" else r for r in linux]
    write(results, "bench-peer-linux-no-erms", no_erms)
    return results


def row(text, measure):
    line = next(line for line in text.splitlines() if line.startswith(f"| {measure} |"))
    return [cell.strip() for cell in line.strip("|").split("|")]


def test_table_side_by_side_with_ratios(sitting):
    text = peer.render(sitting)
    assert ("| measure | Hako | Linux default | Linux mitigations=off | Linux default, no "
            "ERMS/FSRM | Linux÷Hako default | Linux÷Hako off | Linux÷Hako no ERMS | "
            "Hako slower |") in text
    assert "guest instructions" in text and "median" in text
    assert row(text, "null system call (Hako sys_null, Linux getppid)") == [
        "null system call (Hako sys_null, Linux getppid)", "101", "335", "235", "167",
        "3.32", "2.33", "1.65", ""]
    # Hako's ISPC beside Linux's Unix socket; a row Hako has no figure for says so.
    assert row(text, "request + reply, 4 KiB each way, one CPU (Hako ISPC fast; Linux Unix "
               "socket)")[1:3] == ["2,538", "48,029"]
    assert row(text, "pipe round trip, 4 KiB each way, cross-CPU")[1:] == [
        "—", "33,943", "33,843", "16,971", "—", "—", "—", "—"]
    assert "Linux: 6.1.0-56-amd64, Debian's 6.1.192-2;" in text and "erms yes" in text
    assert "spectre_v2: Mitigation: Retpolines" in text and "meltdown" not in text


def test_sel4_quoted_beside_hakos_call_round_trip(sitting):
    text = peer.render(sitting)
    assert "seL4 in the same emulator, quoted:" in text and "not run by this harness" in text
    assert "| Call + ReplyRecv round trip, sel4bench's 8-instruction loop subtracted | 421 |" in text
    assert "Hako's sync_roundtrip_call_nodata_fast: not in this sitting." in text
    write(sitting, "bench-peer-hako-ispc", [bench_line("sync_roundtrip_4k_fast", 2538),
                                            bench_line("sync_roundtrip_call_nodata_fast", 842)])
    text = peer.render(sitting)
    assert "842 instructions, 2.00× seL4's Call + ReplyRecv (421)" in text
    assert row(text, peer.CALL_ROW)[1:3] == ["842", "—"]


def test_where_hako_is_slower_is_said_plainly(sitting):
    text = peer.render(sitting)
    assert row(text, "spawn + exit + wait")[-1] == "**Hako**"
    # Judged against Linux's lowest count: getpid is 117 in Hako, 319/219/159 in Linux.
    assert row(text, "getpid")[-1] == ""
    assert "Hako is slower (more instructions than Linux in any of its columns) in: " \
           "spawn + exit + wait." in text


def test_missing_figures_and_no_results(sitting, tmp_path):
    recs = [bench_line(name, 1) for name in peer.LINUX_FIGURES if name != "getpid"]
    assert peer.missing_figures(recs) == ["getpid"]
    assert peer.render(tmp_path / "nothing").startswith("peer: no figures yet")


# ---- the report's section and make test's step ------------------------------------

def test_report_has_the_peer_section(sitting, tmp_path):
    from hakotool import report
    md, _ = report.markdown(sitting)
    assert "## The peer baseline — Hako beside Linux in the same emulator" in md
    assert "| spawn + exit + wait | 113,897 | 50,000 |" in md
    assert "`rep movsb`" in md
    empty = tmp_path / "empty"
    empty.mkdir()
    md, _ = report.markdown(empty)
    assert "Not run: no results/bench-peer-*.jsonl" in md
    assert report.STEPS[-1].args == ("peer", "--model", "modern")


def test_make_test_counts_the_linux_boot(tmp_path, monkeypatch):
    from hakotool import testall
    monkeypatch.setattr(peer, "check_linux", lambda root, env, err: (False, "no figure getpid"))
    out = io.StringIO()
    plan = testall.Plan(steps=("peer",), boots=())
    assert testall.run_test_all(plan=plan, root=tmp_path, env={}, out=out, err=io.StringIO()) == 1
    assert "FAIL peer-linux: no figure getpid" in out.getvalue()
    assert out.getvalue().splitlines()[-1] == "0 passed, 1 failed, 0 skipped"


def joined_line(name, median, cycles):
    return dict(bench_line(name, median), region=0, iters=10,
                model={"profile": "modern", "per_iter": {"insns": median, "cycles": cycles}})


def test_modelled_cycles_get_a_table_of_their_own(sitting):
    write(sitting, "bench-peer-hako-sys.joined",
          [joined_line("null_syscall", 101, 107.0),
           joined_line("page_fault_first_touch", 1099, 16296.8)])
    write(sitting, "bench-peer-linux-default.joined",
          [joined_line("null_syscall", 335, 340.0),
           joined_line("page_fault_first_touch", 6379, 15570.9),
           joined_line("unix_4k_cross_cpu", 49637, 78589.1)])
    text = peer.render(sitting)
    assert "Modelled cycles per operation, cost model `modern`" in text
    assert "| measure | Hako | Linux default | Linux÷Hako | Hako slower |" in text
    assert "| null system call (Hako sys_null, Linux getppid) | 107 | 340 | 3.18 |  |" in text
    assert "| first-touch page fault (one 4 KiB page) | 16,297 | 15,571 | 0.96 | **Hako** |" in text
    assert "| Unix socket round trip, 4 KiB each way, cross-CPU | — | 78,589 | — | — |" in text
    assert "In modelled cycles Hako is slower in: first-touch page fault (one 4 KiB page)." in text


def test_without_the_model_the_table_says_how_to_get_cycles(sitting):
    assert "Modelled cycles: not in this sitting" in peer.render(sitting)


def test_cpu_number_is_remembered_for_the_model(tmp_path):
    (tmp_path / "build" / "peer").mkdir(parents=True)
    peer.remember_cpu_number(tmp_path, [{"kind": "peer-info", "name": "cpu_number",
                                         "value": "0x199e0"}])
    assert (tmp_path / peer.CPU_NUMBER).read_text() == "0x199e0\n"
    peer.remember_cpu_number(tmp_path, [{"kind": "peer-info", "name": "cpu_number",
                                         "value": "rm -rf"}])
    assert (tmp_path / peer.CPU_NUMBER).read_text() == "0x199e0\n"


def test_a_linux_boot_writes_its_records_after_a_linux_meta_record(fake_env):
    root = Path(fake_env["HAKO_ROOT"])
    (root / "build" / "peer").mkdir(parents=True, exist_ok=True)
    (root / peer.KERNEL).write_bytes(b"vmlinuz")
    fake_env["FAKE_QEMU_OUT"] = ('@@ {"kind":"peer-linux","release":"6.1","cpus":4}\n'
                                 '@@ {"kind":"peer-done","failed":0}\n')
    outcome = peer.run_linux(root, "default", "", quiet=True, keep_log=False, env=fake_env,
                             out=io.StringIO(), err=io.StringIO(), name="peer-fake")
    assert outcome.exit_code == 0
    meta = load_meta(root / "results" / "peer-fake.jsonl")
    assert meta["guest"] == "linux" and meta["cmdline"] == peer.linux_cmdline("")
    assert meta["build"]["image"] == hashlib.sha256(b"vmlinuz").hexdigest()[:16]
    assert [r["kind"] for r in load_records(root / "results" / "peer-fake.jsonl")] == [
        "peer-linux", "peer-done"]
