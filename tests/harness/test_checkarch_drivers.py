"""Tests for tools/build/checkarch.py's driver include rule: a driver's source
(kernel/drivers/CLASS/NAME/) includes only the driver environment, its class
interface, libc headers and its own headers."""
import importlib.util
import pathlib

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("checkarch", REPO_ROOT / "tools" / "build" / "checkarch.py")
checkarch = importlib.util.module_from_spec(spec)
spec.loader.exec_module(checkarch)


def make_driver(tmp_path, text):
    (tmp_path / "kernel" / "arch" / "x86_64" / "include" / "arch").mkdir(parents=True)
    folder = tmp_path / "kernel" / "drivers" / "net" / "card"
    folder.mkdir(parents=True)
    (folder / "card.h").write_text("")
    (folder / "card.c").write_text(text)
    return tmp_path


def test_the_repository_keeps_the_driver_rule():
    assert checkarch.driver_includes(REPO_ROOT) == []


def test_interface_libc_and_own_headers_are_allowed(tmp_path):
    root = make_driver(tmp_path, '#include <stdint.h>\n#include <drvenv.h>\n#include <nic_driver.h>\n'
                                 '#include "card.h"\n')
    assert checkarch.breaches(root) == []


def test_a_placement_header_in_a_driver_is_a_breach(tmp_path):
    root = make_driver(tmp_path, "#include <drvenv.h>\n#include <nic.h>\n#include <drvenv_kernel.h>\n")
    found = checkarch.breaches(root)
    assert len(found) == 2 and "kernel/drivers/net/card/card.c:2" in found[0]
    assert "'drvenv_kernel.h'" in found[1]


def test_kernel_internals_in_a_driver_are_a_breach(tmp_path):
    root = make_driver(tmp_path, '#include <spinlock.h>\n#include "other.h"\n')
    found = checkarch.breaches(root)
    assert len(found) == 2 and "'spinlock.h'" in found[0] and "'other.h'" in found[1]


def test_a_planted_breach_fails_main(tmp_path, capsys):
    root = make_driver(tmp_path, "#include <blk.h>\n")
    assert checkarch.main(["checkarch.py", str(root)]) == 1
    assert "a driver includes 'blk.h'" in capsys.readouterr().out
