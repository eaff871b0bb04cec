# kernel/arch/sh4/arch.mk — what the SH-4 build sets (`make ARCH=sh4
# kernel`; the Makefile includes kernel/arch/$(ARCH)/arch.mk): Debian's
# cross toolchain (gcc-sh4-linux-gnu), little-endian SH-4 code without
# the FPU, and the flat image QEMU's r2d board loads with -kernel.  The
# build tree is build/sh4/.
ARCH_CROSS := sh4-linux-gnu-
ARCH_BUILD := build/sh4
# -m4-nofpu: the kernel never touches the FPU.  Atomics of 1-4 bytes mask
# interrupts around the access (soft-imask: one CPU, privileged mode);
# GCC's default (gUSA) would have the entry code roll sequences back.  Generic code keeps
# addresses in uint64_t and converts them to and from 32-bit pointers on
# purpose (arch/layout.h: the kernel's addresses sign-extended), and it
# prints uint64_t with %lu, which the kernel's lib/format.c reads as 64
# bits (HAKO_FORMAT_L64): those three warnings say nothing on this arch.
# Optimised (the Makefile's -O2) with GCC's SH-only pass sh_treg_combine
# switched off by a plugin, tools/build/sh_treg_off.cc: Debian 12's GCC 12
# takes a pointer's load for a T-bit store there and deletes the test of a
# later branch (console.c's send_queued, e.g.); no -fdisable reaches the
# pass.  The plugin is built with the host's g++ against the cross
# compiler's plugin headers (gcc-12-plugin-dev-sh4-linux-gnu); every object
# depends on it (ARCH_CC_DEPS).
ARCH_GCC_PLUGIN := $(ARCH_BUILD)/gcc/sh_treg_off.so
ARCH_GCC_PLUGIN_INCLUDE := $(shell $(ARCH_CROSS)gcc -print-file-name=plugin 2>/dev/null)/include
ARCH_CC_DEPS := $(ARCH_GCC_PLUGIN)
ARCH_KERNEL_CFLAGS := -fplugin=$(ARCH_GCC_PLUGIN) -ml -m4-nofpu -mno-usermode -matomic-model=soft-imask -Wno-pointer-to-int-cast -Wno-int-to-pointer-cast -Wno-format
# 64-bit division and shifts come from libgcc.
ARCH_KERNEL_LIBS := $(shell $(ARCH_CROSS)gcc -ml -m4-nofpu -print-libgcc-file-name 2>/dev/null)
# User programs: the same code model and plugin; their 1-4 byte atomics are gUSA sequences, which the kernel's exception
# entry rolls back (trap.c).  Their format strings are checked: a uint64_t
# is printed with PRIu64 (user/include/inttypes.h), as `long` has 32 bits.
ARCH_USER_CFLAGS := -fplugin=$(ARCH_GCC_PLUGIN) -ml -m4-nofpu -Wno-pointer-to-int-cast -Wno-int-to-pointer-cast
ARCH_USER_LDSCRIPT := user/lib/arch/sh4/user.ld
ARCH_USER_LIBS := $(ARCH_KERNEL_LIBS)
# Driver programs: no supervisor-mode placement here, nothing apart.
ARCH_DRVHOST_CFLAGS :=
ARCH_OBJDUMP_FLAGS :=
# nm prints 32-bit addresses: mksyms widens them as the C code does.
ARCH_MKSYMS_FLAGS := --sign-extend32
ARCH_KERNEL_OUTPUTS = $(BUILD)/hako.elf $(BUILD)/hako.bin $(BUILD)/initrd.img

$(ARCH_GCC_PLUGIN): tools/build/sh_treg_off.cc
	@test -f $(ARCH_GCC_PLUGIN_INCLUDE)/gcc-plugin.h || { echo "$@: no GCC plugin headers in $(ARCH_GCC_PLUGIN_INCLUDE): install gcc-12-plugin-dev-sh4-linux-gnu (make deps)" >&2; exit 1; }
	@mkdir -p $(dir $@)
	g++ -shared -fPIC -fno-rtti -O2 -Wall -Werror -I$(ARCH_GCC_PLUGIN_INCLUDE) $< -o $@
# SH4_TEXT_PAD=N (bytes, a multiple of 32; 0 by default): N bytes at the
# start of .text (linker.ld), so that every instruction is the same and
# only the code's place in the direct-mapped caches moves.  The C code,
# switch.S and uaccess.S move by N; vectors.S (4096-aligned) and libgcc
# stay where they are while N fits the gap before the vectors, else all
# of .text and everything after it move by 4096.  Pad 0 links as before;
# a change of N relinks (the stamp $(ARCH_BUILD)/text-pad).
SH4_TEXT_PAD ?= 0
ifneq ($(SH4_TEXT_PAD),0)
ARCH_KERNEL_LDFLAGS := --defsym=SH4_TEXT_PAD=$(SH4_TEXT_PAD)
endif
$(shell mkdir -p $(ARCH_BUILD) && { echo '$(SH4_TEXT_PAD)' | cmp -s - $(ARCH_BUILD)/text-pad || echo '$(SH4_TEXT_PAD)' > $(ARCH_BUILD)/text-pad; })
$(ARCH_BUILD)/hako.elf: $(ARCH_BUILD)/text-pad
# This file's rule must not become the default goal.
.DEFAULT_GOAL :=
