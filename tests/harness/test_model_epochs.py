"""Tests for the cost model's epochs on the harness side (model.py, qemu.py):
where the plugin is told to start them, and how their lines join the run."""
import subprocess

from hakotool import model
from hakotool.papers.p000 import benches as p000
from hakotool.qemu import Profile, build_argv

NM = """0000000000400170 T part_delay
00000000004014f0 t run_config
0000000000400930 t one_case
0000000000402000 D data_not_code
"""


def fake_nm(monkeypatch, text=NM):
    def run(argv, **kwargs):
        assert argv[:2] == ["nm", "-n"]
        return subprocess.CompletedProcess(argv, 0, stdout=text, stderr="")
    monkeypatch.setattr(model.subprocess, "run", run)


def test_epoch_addresses_from_the_elf_and_the_missing_named(tmp_path, monkeypatch):
    fake_nm(monkeypatch)
    found, missing = model.epoch_addresses(tmp_path, (("build/user/x.elf", "run_config"),
                                                      ("build/user/x.elf", "one_case"),
                                                      ("build/user/x.elf", "data_not_code")))
    assert found == {0x4014f0: "run_config", 0x400930: "one_case"}
    assert missing == ["build/user/x.elf:data_not_code"]
    assert model.epoch_args(found) == ("epoch=400930", "epoch=4014f0")


def test_plugin_gets_the_epochs_after_its_own_arguments():
    p = Profile(model="pentium2-450", model_out="results/x.model.jsonl",
                model_args=("epoch=4014f0",))
    argv = build_argv(p, {})
    spec = argv[argv.index("-plugin") + 1]
    assert spec.endswith("out=results/x.model.jsonl,epoch=4014f0")
    assert model.plugin_args("modern", "o")[1].endswith("out=o")     # none: unchanged


def test_intr_bench_names_intrbenchs_calls():
    symbols = [s for _, s in p000.BENCHES["intr"].profile.model_epochs]
    assert {"run_config", "one_case"} <= set(symbols)
    assert all(elf == p000.INTR_ELF for elf, _ in p000.BENCHES["intr"].profile.model_epochs)


def test_epoch_lines_join_named_with_the_profile():
    out = model.ModelOutput([
        {"kind": "profile", "name": "pentium2-450", "base_cpi_milli": 1000},
        {"kind": "epoch", "seq": 0, "at": "0x4014f0", "args": [1, 10, 0], "vcpu": 1,
         "insns": 10, "cycles": 253, "io_reads": 1, "io_writes": 0, "io_cycles": 243},
    ])
    joined, missing = model.join_records([{"kind": "bench", "name": "x"}], out,
                                         epoch_names={0x4014f0: "run_config"})
    assert missing == [] and joined[0] == {"kind": "bench", "name": "x"}
    assert joined[1]["at_name"] == "run_config" and joined[1]["profile"] == "pentium2-450"
    assert joined[1]["io_cycles"] == 243 and joined[1]["base_cpi_milli"] == 1000


def test_vclock_args_name_the_lock_release(tmp_path, monkeypatch):
    fake_nm(monkeypatch, NM + "ffffffff80121ee0 T spin_unlock\n")
    assert model.vclock_args(tmp_path, "build/hako.elf") == ("release=ffffffff80121ee0",)
    fake_nm(monkeypatch)                     # no such symbol: nothing
    assert model.vclock_args(tmp_path, "build/hako.elf") == ()


def test_handler_args_name_the_sh4_tlb_miss_handlers_code(tmp_path, monkeypatch):
    fake_nm(monkeypatch, NM + "8c836400 t tlb_miss_entry\n8c8364d0 t tlb_fault\n")
    assert model.handler_args(tmp_path, "build/sh4/hako.elf") == ("handler=8c836400:8c8364d0",)
    fake_nm(monkeypatch, NM + "8c836400 t tlb_miss_entry\n")     # no end: nothing
    assert model.handler_args(tmp_path, "build/sh4/hako.elf") == ()
