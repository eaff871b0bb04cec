"""Tests for hakotool.results: console lines and `@@ ` result lines."""
from hakotool import results


def test_decode_line_normalises_crlf_and_bad_utf8():
    assert results.decode_line(b"hello\r\n") == "hello"
    assert results.decode_line(b"hello\n") == "hello"
    assert results.decode_line(b"tail") == "tail"
    assert results.decode_line(b"bad \xff byte\n") == "bad \ufffd byte"


def test_split_console():
    assert results.split_console(b"a\r\nb\n\nc") == ["a", "b", "", "c"]


def test_result_text_requires_prefix_after_strip():
    assert results.result_text('  @@ {"a": 1}  ') == '{"a": 1}'
    assert results.result_text("@@{}") is None
    assert results.result_text("log: @@ {}") is None
    assert results.result_text("plain line") is None


def test_collector_accepts_objects_only():
    lines = [
        "boot banner",
        '@@ {"kind":"boot","cpus":4}',
        "@@ not json at all",
        '@@ {"kind":"ktest","name":"x","ok":true} trailing garbage',
        "@@ [1, 2]",
        '@@ {"kind":"ktest","name":"y","ok":false}\r',
    ]
    found = results.collect(lines)
    assert found.texts == ['{"kind":"boot","cpus":4}', '{"kind":"ktest","name":"y","ok":false}']
    assert [r["kind"] for r in found.records] == ["boot", "ktest"]
    assert len(found.malformed) == 3


def test_write_results_is_verbatim_and_byte_identical(tmp_path):
    texts = ['{"b": 2,  "a":1}', '{"kind":"x","v":"\\u00e9"}']
    first, second = tmp_path / "one.jsonl", tmp_path / "sub" / "two.jsonl"
    results.write_results(first, texts)
    results.write_results(second, list(texts))
    assert first.read_bytes() == second.read_bytes()
    assert first.read_bytes() == b'{"b": 2,  "a":1}\n{"kind":"x","v":"\\u00e9"}\n'


def test_write_results_overwrites(tmp_path):
    path = tmp_path / "r.jsonl"
    results.write_results(path, ["{}", "{}"])
    results.write_results(path, [])
    assert path.read_bytes() == b""


def test_load_records_skips_garbage(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text('{"kind":"boot"}\nnope\n\n@@ {"kind":"bench"}\n[1]\n')
    assert results.load_records(path) == [{"kind": "boot"}, {"kind": "bench"}]


def test_verdict_keeps_skips_apart_from_passes():
    assert results.verdict({"ok": True}) == "pass"
    assert results.verdict({"ok": False, "reason": "x"}) == "fail"
    assert results.verdict({}) == "fail"
    assert results.verdict({"skipped": True, "reason": "no NIC pair"}) == "skip"
    assert results.verdict({"ok": True, "skipped": "no NIC pair"}) == "skip"
    assert results.verdict({"ok": False, "skipped": True}) == "fail"
    assert results.skip_reason({"skipped": True, "reason": "no cards"}) == "no cards"
    assert results.skip_reason({"ok": True, "skipped": "no cards"}) == "no cards"
    assert results.skip_reason({"skipped": True}) == "skipped"


def test_same_experiment_run_needs_the_same_commit_build_machine_and_cmdline():
    meta = {"kind": "meta", "commit": "abc", "dirty": False, "date": "d1", "machine": "r2d",
            "cmdline": "servers=echo -- ispcbench", "profile": None,
            "build": {"image": "i1", "initrd": "r1"}}
    model_run = {**meta, "date": "d2", "profile": "sh7751r", "dirty": True,
                 "command": "./hako bench ispc --arch sh4 --model sh7751r"}
    assert results.same_experiment_run(meta, model_run)
    assert not results.same_experiment_run(meta, {**model_run, "commit": "abd"})
    assert not results.same_experiment_run(meta, {**model_run,
                                                  "build": {"image": "i2", "initrd": "r1"}})
    assert not results.same_experiment_run(meta, {**model_run, "cmdline": "-- sysbench"})
    assert not results.same_experiment_run(meta, None)
    assert not results.same_experiment_run({"kind": "meta"}, {"kind": "meta"})
