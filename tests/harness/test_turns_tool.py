"""Tests for tools/turns.py: the first turn at which two logs of the plugin's turns=PATH differ."""
import turns

# Firmware on vCPU 0 below the kernel half, then the kernel, then the APs.
KERNEL = ("0 ffffffff80100000 5000\n"
          "1 ffffffff80108000 200\n"
          "0 ffffffff80101a2c 5400\n"
          "2 ffffffff80108000 210\n"
          "1 ffffffff80110040 900\n"
          "0 ffffffff80101a40 6000\n")


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def test_identical_logs(tmp_path, capsys):
    a = write(tmp_path, "a.turns", "0 fff0 0\n" + KERNEL)
    b = write(tmp_path, "b.turns", "0 fff0 0\n" + KERNEL)
    assert turns.main([a, b]) == 0
    assert capsys.readouterr().out == "identical: 6 turns\n"


def test_a_longer_firmware_on_vcpu_0_is_left_out(tmp_path, capsys):
    # B's firmware ran 700 instructions more, in more turns: vCPU 0's
    # counts from its first kernel line on are the same.
    a = write(tmp_path, "a.turns", "0 fff0 0\n" + KERNEL)
    longer = KERNEL.replace(" 5000\n", " 5700\n").replace(" 5400\n", " 6100\n") \
        .replace(" 6000\n", " 6700\n")
    b = write(tmp_path, "b.turns", "0 fff0 0\n1 fff0 0\n0 e05b 300\n" + longer)
    assert turns.main([a, b]) == 0
    assert capsys.readouterr().out == "identical: 6 turns\n"


def test_a_different_turn_is_found_at_its_index(tmp_path, capsys):
    a = write(tmp_path, "a.turns", "0 fff0 0\n" + KERNEL)
    b = write(tmp_path, "b.turns", "0 fff0 0\n" + KERNEL.replace(
        "2 ffffffff80108000 210\n", "1 ffffffff80110040 900\n2 ffffffff80108000 210\n"))
    assert turns.main([a, b, "--context", "2"]) == 1
    out = capsys.readouterr().out
    assert "6 turns" in out and "7 turns" in out
    assert "first difference at turn 3:" in out
    lines = out.splitlines()
    both = [line for line in lines if line.split()[0] == "both"]
    assert [line.split()[1] for line in both] == ["1", "2"]           # the context asked for
    assert any(line.split()[:3] == ["A", "3", "cpu2"] for line in lines)
    assert any(line.split()[:3] == ["B", "3", "cpu1"] for line in lines)


def test_a_count_that_differs_after_rebasing(tmp_path, capsys):
    # Same firmware length, same addresses, but vCPU 1 ran 3 more
    # instructions before its second turn.
    a = write(tmp_path, "a.turns", "0 fff0 0\n" + KERNEL)
    b = write(tmp_path, "b.turns", "0 fff0 0\n" + KERNEL.replace(
        "1 ffffffff80110040 900", "1 ffffffff80110040 903"))
    assert turns.main([a, b]) == 1
    out = capsys.readouterr().out
    assert "first difference at turn 4:" in out
    assert [line.split()[-3] for line in out.splitlines() if line.split()[:2] in (["A", "4"], ["B", "4"])] \
        == ["700", "703"]


def test_a_missing_log_or_a_bad_line(tmp_path, capsys):
    a = write(tmp_path, "a.turns", KERNEL)
    assert turns.main([a, str(tmp_path / "none.turns")]) == 2
    bad = write(tmp_path, "bad.turns", "0 ffffffff80100000\n")
    assert turns.main([a, bad]) == 2
    assert "not 'VCPU PC INSNS'" in capsys.readouterr().err
