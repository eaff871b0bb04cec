#!/usr/bin/env python3
"""checkimage.py — build-time checks of the kernel image.

1. QEMU's multiboot 1 loader (a.out kludge) copies the file as one flat run:
   every PT_LOAD segment must have the same (file offset - physical address).
2. The second link (with the symbol table filled) must not move any code:
   text symbols of pass 1 and pass 2 must be identical (nm: $NM, else nm).
"""
import os
import struct
import subprocess
import sys


def load_segments(path):
    """(file offset, physical address, size) of each loaded segment; ELF64 or ELF32."""
    with open(path, "rb") as f:
        data = f.read()
    elf64 = data[4] == 2
    if elf64:
        phoff, = struct.unpack_from("<Q", data, 0x20)
        phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    else:
        phoff, = struct.unpack_from("<I", data, 0x1c)
        phentsize, phnum = struct.unpack_from("<HH", data, 0x2a)
    segs = []
    for i in range(phnum):
        if elf64:
            p_type, _flags, off, _vaddr, paddr, filesz, _memsz, _align = struct.unpack_from(
                "<IIQQQQQQ", data, phoff + i * phentsize)
        else:
            p_type, off, _vaddr, paddr, filesz, _memsz, _flags, _align = struct.unpack_from(
                "<IIIIIIII", data, phoff + i * phentsize)
        if p_type == 1 and filesz:
            segs.append((off, paddr, filesz))
    return segs


def text_symbols(path):
    out = subprocess.run([os.environ.get("NM", "nm"), "-n", path], capture_output=True, text=True, check=True).stdout
    return [l for l in out.splitlines() if len(l.split()) == 3 and l.split()[1] in "tT"]


def main():
    pass1, final = sys.argv[1], sys.argv[2]
    segs = load_segments(final)
    deltas = {off - paddr for off, paddr, _ in segs}
    if len(deltas) != 1:
        sys.exit(f"checkimage: {final}: segments are not one flat run: {segs}")
    if text_symbols(pass1) != text_symbols(final):
        sys.exit("checkimage: the symbol table moved code between the two links")


if __name__ == "__main__":
    main()
