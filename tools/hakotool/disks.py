"""Disk images for the guest's disks (`--disk ahci|nvme|both`).

Paper 001 measures a real disk beside a ramdisk and a fixed-delay test
device.  Each boot gets fresh images, written before QEMU starts, so a run
never sees what an earlier one wrote and icount runs stay repeatable: every
4 KiB block starts with a 16-byte label, b"HAKODISK" then the block number
(8 bytes, little-endian), and the rest is zero.  A guest test can check what
it reads before it writes.

The AHCI disk hangs off a controller of its own (`-device ahci`), on pc as
on q35 (whose built-in ICH9 SATA controller then has no disk); the NVMe
disk is one `-device nvme` namespace.

With null=True the disks read from QEMU's null-co driver instead (zeros,
writes dropped, the same size): the same AHCI and NVMe device models,
but a read completes inside the coroutine the device's command starts,
and only the completion's bottom half is left to QEMU's main loop, which
runs it before it moves icount's clock on while every vCPU waits.  A
paced disk (iotest --pace on, uapi/hako_blk.h HAKO_BLK_PACE) then finds
its command finished at the end of its service time more often than
with an image read on QEMU's thread pool.  iotest reads raw blocks and
looks at no data, so paper 001's disk bench uses it; a test that checks
the labels needs the images.
"""
from __future__ import annotations

import struct
from pathlib import Path

DISKS = ("none", "ahci", "nvme", "both")
DISK_BYTES = 8 * 1024 * 1024          # 2048 blocks of 4 KiB
BLOCK = 4096
LABEL = b"HAKODISK"
DISK_DIR = "build/disks"


def kinds(disk: str) -> tuple[str, ...]:
    """The disks a --disk value asks for, in a fixed order."""
    if disk not in DISKS:
        raise ValueError(f"unknown disk {disk!r} (use {'|'.join(DISKS)})")
    return {"none": (), "ahci": ("ahci",), "nvme": ("nvme",), "both": ("ahci", "nvme")}[disk]


def image_rel(name: str, kind: str) -> str:
    """Where run `name`'s `kind` disk image lives, relative to the root."""
    return f"{DISK_DIR}/{name}-{kind}.img"


def block_label(block: int) -> bytes:
    return LABEL + struct.pack("<Q", block)


def write_image(path: Path, size: int = DISK_BYTES) -> None:
    """A fresh image: every block labelled with its number, the rest zero."""
    path.parent.mkdir(parents=True, exist_ok=True)
    pad = bytes(BLOCK - len(LABEL) - 8)
    with open(path, "wb") as f:
        for block in range(size // BLOCK):
            f.write(block_label(block) + pad)


def make_images(root: Path, name: str, disk: str) -> tuple[str, ...]:
    """Write fresh images for run `name`; their paths relative to root."""
    rels = tuple(image_rel(name, kind) for kind in kinds(disk))
    for rel in rels:
        write_image(root / rel)
    return rels


def disk_args(disk: str, images: tuple[str, ...], null: bool = False) -> list[str]:
    """QEMU arguments attaching the images (one per kind, in kinds() order),
    or with null QEMU's null-co driver of the images' size in their place."""
    wanted = kinds(disk)
    if len(images) != len(wanted) and not null:
        raise ValueError(f"--disk {disk} needs {len(wanted)} image(s), got {len(images)}")
    argv = []
    for i, kind in enumerate(wanted):
        drive = f"hako-{kind}"
        if null:
            argv += ["-drive", f"driver=null-co,size={DISK_BYTES},read-zeroes=on,"
                               f"if=none,id={drive}"]
        else:
            # A comma in an option value is written twice (a run name may hold
            # one: "...-drvproc-ramdisk,ahci").
            image = images[i].replace(',', ',,')
            argv += ["-drive", f"file={image},if=none,id={drive},format=raw"]
        if kind == "ahci":
            argv += ["-device", "ahci,id=hako-ahci",
                     "-device", f"ide-hd,drive={drive},bus=hako-ahci.0"]
        else:
            argv += ["-device", f"nvme,serial=hako0001,drive={drive}"]
    return argv
