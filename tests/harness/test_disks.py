"""Tests for tools/hakotool/disks.py: the guest's disk images and their QEMU arguments."""
import pytest

from hakotool import disks
from hakotool.qemu import Profile, build_argv


def test_kinds_and_unknown_value():
    assert disks.kinds("none") == ()
    assert disks.kinds("both") == ("ahci", "nvme")
    with pytest.raises(ValueError, match="unknown disk"):
        disks.kinds("floppy")


def test_image_labels_every_block(tmp_path):
    path = tmp_path / "d.img"
    disks.write_image(path, size=3 * disks.BLOCK)
    data = path.read_bytes()
    assert len(data) == 3 * disks.BLOCK
    for block in range(3):
        start = block * disks.BLOCK
        assert data[start:start + 16] == b"HAKODISK" + block.to_bytes(8, "little")
        assert data[start + 16:start + disks.BLOCK] == bytes(disks.BLOCK - 16)


def test_make_images_writes_one_fresh_image_per_kind(tmp_path):
    rels = disks.make_images(tmp_path, "run", "both")
    assert rels == ("build/disks/run-ahci.img", "build/disks/run-nvme.img")
    (tmp_path / rels[0]).write_bytes(b"old")
    disks.make_images(tmp_path, "run", "ahci")
    assert (tmp_path / rels[0]).stat().st_size == disks.DISK_BYTES


def test_argv_attaches_ahci_and_nvme(tmp_path):
    profile = Profile(disk="both", disk_images=("a.img", "n.img"))
    argv = build_argv(profile, env={})
    text = " ".join(argv)
    assert "-drive file=a.img,if=none,id=hako-ahci,format=raw" in text
    assert "-device ahci,id=hako-ahci -device ide-hd,drive=hako-ahci,bus=hako-ahci.0" in text
    assert "-drive file=n.img,if=none,id=hako-nvme,format=raw -device nvme,serial=hako0001,drive=hako-nvme" in text


def test_null_disks_need_no_image_and_keep_the_devices():
    argv = disks.disk_args("both", (), null=True)
    assert argv == ["-drive", f"driver=null-co,size={disks.DISK_BYTES},read-zeroes=on,if=none,id=hako-ahci",
                    "-device", "ahci,id=hako-ahci",
                    "-device", "ide-hd,drive=hako-ahci,bus=hako-ahci.0",
                    "-drive", f"driver=null-co,size={disks.DISK_BYTES},read-zeroes=on,if=none,id=hako-nvme",
                    "-device", "nvme,serial=hako0001,drive=hako-nvme"]
    text = " ".join(build_argv(Profile(disk="ahci", disk_null=True, disk_images=("a.img",)), env={}))
    assert "driver=null-co" in text and "a.img" not in text


def test_argv_without_images_is_refused():
    with pytest.raises(ValueError, match="needs 1 image"):
        build_argv(Profile(disk="nvme"), env={})


def test_default_name_says_the_disk():
    assert Profile(disk="ahci").default_name().endswith("-disk-ahci")
    assert Profile().default_name() == "boot-pc-smp4-icount"


def test_a_comma_in_the_image_path_is_doubled_for_qemu():
    # make test's boot names may hold a comma ("...-drvproc-ramdisk,ahci").
    argv = disks.disk_args("ahci", ("build/disks/test-drvproc-ramdisk,ahci-ahci.img",))
    assert argv[1] == "file=build/disks/test-drvproc-ramdisk,,ahci-ahci.img,if=none,id=hako-ahci,format=raw"
