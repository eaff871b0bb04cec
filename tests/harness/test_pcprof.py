"""Tests for tools/pcprof.py: the plugin's pcprof lines summed by kernel function."""
import json

import pcprof


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def symbols(tmp_path):
    return write(tmp_path, "hako.sym",
                 "ffffffff80100000 T free_tables\n"
                 "ffffffff80100200 t steal\n"
                 "ffffffff80300000 D some_data\n")


def line(region, vcpu, pc, insns):
    return json.dumps({"kind": "pcprof", "region": region, "vcpu": vcpu,
                       "pc": hex(pc), "insns": insns}) + "\n"


def test_blocks_are_summed_by_the_function_that_holds_them(tmp_path):
    syms = pcprof.load_symbols(symbols(tmp_path))
    assert [n for _, n in syms] == ["free_tables", "steal"]      # text symbols only
    model = write(tmp_path, "m.jsonl",
                  '{"kind":"region","region":2048,"vcpu":0,"insns":9}\n'
                  + line(2048, 3, 0xffffffff80100010, 100)
                  + line(2048, 3, 0xffffffff801001f0, 50)
                  + line(2048, 3, 0xffffffff80100210, 7)
                  + line(2048, 1, 0x401000, 30))
    prof = pcprof.profile(model, syms)
    assert prof[2048] == {(3, "free_tables"): 150, (3, "steal"): 7, (1, "user"): 30}


def test_two_regions_print_what_moved(tmp_path, capsys):
    sym = symbols(tmp_path)
    model = write(tmp_path, "m.jsonl",
                  line(2048, 3, 0xffffffff80100200, 10)
                  + line(2049, 3, 0xffffffff80100200, 10)
                  + line(2049, 3, 0xffffffff80100000, 35000))
    assert pcprof.main([model, "2048", "2049", "--sym", sym]) == 0
    out = capsys.readouterr().out
    assert "3:+35000" in out
    assert "+35000  free_tables" in out
