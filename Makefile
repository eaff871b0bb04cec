# Hako — build, run and test.  `make run`, `make check` and `make test` are
# the commands people need; everything else is a step of those.

# The arch built (x86_64, or sh4: `make ARCH=sh4 kernel`); its arch.mk
# sets the toolchain prefix, the build tree and the arch's own flags.
ARCH    ?= x86_64
include kernel/arch/$(ARCH)/arch.mk
CC      := $(ARCH_CROSS)gcc
LD      := $(ARCH_CROSS)ld
OBJCOPY := $(ARCH_CROSS)objcopy
NM      := $(ARCH_CROSS)nm
OBJDUMP := $(ARCH_CROSS)objdump
# The Python of the virtual environment `make deps` makes (tools/deps.sh),
# else the first python3 on PATH; looked up at each use, since deps makes
# .venv/ in the same make run.
PYTHON   = $(shell test -x .venv/bin/python && echo .venv/bin/python || echo python3)
BUILD   := $(ARCH_BUILD)
# Preprocessor definitions for the kernel alone; kernel-debug sets them.
KERNEL_DEFS :=
GDB_PORT ?= 1234
CMD ?=
include kernel/include.mk

# -ffile-prefix-map: no build depends on where the checkout lives.  The
# debug info of the user programs travels in the initrd, which the guest
# loads into memory, so a path in it would move every frame after it and,
# with them, the cost model's cache figures (docs/design/measure.md).
REPRO_FLAGS := -ffile-prefix-map=$(CURDIR)=.
# The driver tree (kernel/drivers/: the driver environment, the class
# layers and one folder per driver) and the driver-process machinery.
DRIVER_INCLUDES := -Ikernel/drivers -Ikernel/drivers/net -Ikernel/drivers/block -Ikernel/drivers/misc \
	-Ikernel/drvproc
# HAKO_FORMAT_L64: the kernel's printf reads %lu as 64 bits (lib/format.c).
KERNEL_CFLAGS := $(REPRO_FLAGS) -std=gnu11 -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter \
	-ffreestanding -fno-stack-protector -fno-pic -fno-pie \
	$(ARCH_KERNEL_CFLAGS) \
	-fno-omit-frame-pointer -fno-optimize-sibling-calls -fno-strict-aliasing \
	-fno-asynchronous-unwind-tables \
	$(KERNEL_INCLUDES) -Ikernel/arch/$(ARCH)/include $(DRIVER_INCLUDES) -Ilib/include -Itests/kernel -Itests/include \
	-I$(BUILD)/gen -MMD -MP -DHAKO_FORMAT_L64 $(KERNEL_DEFS)
KERNEL_ASFLAGS := $(REPRO_FLAGS) -Ikernel/arch/$(ARCH) -Ikernel/arch/$(ARCH)/include $(KERNEL_INCLUDES) \
	-I$(BUILD)/gen -MMD -MP -D__ASSEMBLY__
# An arch's link options (ARCH_KERNEL_LDFLAGS) come before its linker
# script, so that the script sees the symbols they define.
KERNEL_LDFLAGS := -nostdlib -z max-page-size=0x1000 -z noexecstack --no-warn-rwx-segments $(ARCH_KERNEL_LDFLAGS) \
	-T kernel/arch/$(ARCH)/linker.ld

# Generic code sees only the subsystems' headers (kernel/include.mk) and
# the arch's interface headers
# (kernel/arch/ARCH/include/arch/*.h); the arch's own files also see its
# internal headers.  tools/build/checkarch.py checks that no generic file reaches
# past the interface.  lib/ (string and format routines) is shared with
# user space and the host tests; the kernel builds it with its own flags.
# A driver lives in kernel/drivers/CLASS/NAME/; the process placement's
# files (*_process.c) are built into the driver programs (user/user.mk).
# The kernel self-tests (tests/kernel, ktest.h) are kernel code, linked in
# and held to the same boundary.
KERNEL_C := $(filter-out kernel/drivers/%_process.c,$(wildcard kernel/*/*.c kernel/drivers/*/*.c \
	kernel/drivers/*/*/*.c kernel/arch/$(ARCH)/*.c lib/*.c tests/kernel/*.c))
KERNEL_S := $(wildcard kernel/arch/$(ARCH)/*.S)
KERNEL_OBJS := $(patsubst %,$(BUILD)/%.o,$(KERNEL_C) $(KERNEL_S)) $(BUILD)/gen/syscall_table.c.o
include user/user.mk

.PHONY: all kernel kernel-debug iso run check test host-tests gdb deps clean report
all: kernel

# The cost-model QEMU plugin (tools/costmodel/README.md); `kernel` does not need it.
include tools/costmodel/costmodel.mk

kernel: $(ARCH_KERNEL_OUTPUTS)

# The debug kernel: the same sources with -DHAKO_LOCKCHECK (the lock-order
# check, spinlock.h), objects and image under $(BUILD)/debug/ by the rules
# below run with that BUILD; it boots the normal initrd
# (./hako boot --debug-kernel).
DEBUG_BUILD := $(BUILD)/debug
kernel-debug: $(BUILD)/initrd.img
	@$(MAKE) --no-print-directory BUILD=$(DEBUG_BUILD) KERNEL_DEFS=-DHAKO_LOCKCHECK \
		$(DEBUG_BUILD)/hako.elf

# The system-call table, generated from kernel/uapi/syscalls.def (user/user.mk).
$(BUILD)/gen/syscall_table.c.o: $(BUILD)/gen/syscall_table.c
	$(CC) $(KERNEL_CFLAGS) -c $< -o $@

$(BUILD)/%.c.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(KERNEL_CFLAGS) -c $< -o $@

$(BUILD)/kernel/arch/$(ARCH)/%.c.o: KERNEL_CFLAGS += -Ikernel/arch/$(ARCH)

# The arch's flags are in its arch.mk, and ARCH_CC_DEPS names what its
# compiler loads (SH-4's GCC plugin): a change to either rebuilds the kernel.
$(KERNEL_OBJS): kernel/arch/$(ARCH)/arch.mk $(ARCH_CC_DEPS)

# The handlers' prototypes (syscall.h includes them) and the table's size
# (syscall_entry.S reads it) exist before any kernel file compiles.
$(filter %.c.o %.S.o,$(KERNEL_OBJS)): | $(BUILD)/gen/syscall_handlers.h

$(BUILD)/%.S.o: %.S
	@mkdir -p $(dir $@)
	$(CC) $(KERNEL_ASFLAGS) -c $< -o $@

# Two links: the first has an empty symbol table; its text symbols fill the
# second.  .ksyms sits after all code, so no code address moves between them.
$(BUILD)/ksyms0.o: tools/build/mksyms.py
	@mkdir -p $(BUILD)
	$(PYTHON) tools/build/mksyms.py --empty > $(BUILD)/ksyms0.S
	$(CC) -c $(BUILD)/ksyms0.S -o $@

$(BUILD)/hako.elf: $(KERNEL_OBJS) $(BUILD)/ksyms0.o kernel/arch/$(ARCH)/linker.ld tools/build/mksyms.py tools/build/checkimage.py
	$(LD) $(KERNEL_LDFLAGS) -o $(BUILD)/hako.pass1.elf $(KERNEL_OBJS) $(BUILD)/ksyms0.o $(ARCH_KERNEL_LIBS)
	$(NM) -n $(BUILD)/hako.pass1.elf | $(PYTHON) tools/build/mksyms.py $(ARCH_MKSYMS_FLAGS) > $(BUILD)/ksyms.S
	$(CC) -c $(BUILD)/ksyms.S -o $(BUILD)/ksyms.o
	$(LD) $(KERNEL_LDFLAGS) -o $@ $(KERNEL_OBJS) $(BUILD)/ksyms.o $(ARCH_KERNEL_LIBS)
	NM=$(NM) $(PYTHON) tools/build/checkimage.py $(BUILD)/hako.pass1.elf $@
	$(OBJDUMP) -d $(ARCH_OBJDUMP_FLAGS) $@ > $(BUILD)/hako.asm
	$(NM) -n $@ > $(BUILD)/hako.sym

# The flat image a board's loader copies to KERNEL_PHYS_BASE (SH-4: r2d's -kernel).
$(BUILD)/hako.bin: $(BUILD)/hako.elf
	$(OBJCOPY) -O binary $< $@

# GRUB rescue ISO (multiboot 2): boots on pc, q35 and real PCs.
iso: $(BUILD)/hako.iso
$(BUILD)/hako.iso: $(BUILD)/hako.elf $(BUILD)/initrd.img tools/grub.cfg
	@mkdir -p $(BUILD)/isoroot/boot/grub
	cp $(BUILD)/hako.elf $(BUILD)/isoroot/boot/hako.elf
	cp $(BUILD)/initrd.img $(BUILD)/isoroot/boot/initrd.img
	cp tools/grub.cfg $(BUILD)/isoroot/boot/grub/grub.cfg
	grub-mkrescue -o $@ $(BUILD)/isoroot 2> $(BUILD)/grub-mkrescue.log || (cat $(BUILD)/grub-mkrescue.log; false)

deps:
	@bash tools/deps.sh

# Five boots with a progress line each, then a short summary of the five
# and of the report (`./hako summary --short`; `./hako summary FILE` prints
# the whole of one).
RUN_FILES := results/run-ktest.jsonl results/run.jsonl results/run-selftest.jsonl \
	results/run-sysbench.jsonl results/run-ispcbench.jsonl
run: deps kernel
	@./hako boot --quiet --smp 4 --machine pc --mode icount --name run-ktest -- ktest
	@./hako boot --quiet --smp 4 --machine pc --mode icount --name run -- kbench
	@./hako boot --quiet --smp 4 --machine pc --mode icount --name run-selftest -- selftest
	@./hako boot --quiet --smp 4 --machine pc --mode icount --name run-sysbench -- sysbench
	@./hako boot --quiet --smp 2 --machine pc --mode icount --name run-ispcbench \
		--cmdline "servers=nameserver,echo,ramdisk,ispcbench" -- ispcbench
	@echo
	@./hako summary --short $(RUN_FILES)

# The five papers' experiments in icount mode, one after the other with a
# progress line each, then docs/report/ (README.md, index.html, the plots):
# tools/hakotool/report.py.  `make run` only prints the existing report's
# summary: the experiments take minutes.
report: deps kernel costmodel
	./hako report

host-tests:
	@$(MAKE) -s -f tests/host/Makefile BUILD=$(BUILD)
	@$(MAKE) -s -f tools/costmodel/costmodel.mk BUILD=$(BUILD) costmodel-tests-build

# The tests live in tests/ (host, kernel, user, harness, costmodel); two
# tiers run them (tools/hakotool/testall.py).  `make check`, the quick one:
# the layout check, the host tests, pytest, one ktest boot and one selftest
# boot, then its wall time.  `make test`: the whole matrix.  `make test
# T=NAME`: one test by name, sent to its runner (a ktest or selftest name,
# a host test BINARY[:CASE] or CASE, a pytest node id; testone.py).
check: deps
	@start=$$(date +%s); ./hako test-all --check $(if $(J),-j $(J)); status=$$?; \
	echo "make check: $$(( $$(date +%s) - start )) s wall time"; exit $$status

# make test also renders the HTML report in Debian's headless Chromium
# (tests/harness/test_report_browser.py), installed here when missing.
test: deps $(if $(T),,kernel kernel-debug costmodel)
	@bash tools/deps.sh browser
	./hako test-all $(if $(T),--only '$(T)') $(if $(J),-j $(J))

# `make gdb [CMD="ktest NAME"] [GDB_PORT=1234]`: the guest starts halted in
# the background (its console goes to build/gdb-console.log), gdb attaches
# with the symbols and a hardware breakpoint on kmain; quitting gdb stops it
# (the harness that started it is stopped by its PID, and it stops its QEMU).
gdb: kernel
	@./hako boot --gdb --gdb-port $(GDB_PORT) --name gdb -- $(CMD) >$(BUILD)/gdb-console.log 2>&1 & \
	harness=$$!; \
	echo "hako: guest console in $(BUILD)/gdb-console.log"; \
	gdb -q -x tools/gdbinit -ex 'target remote 127.0.0.1:$(GDB_PORT)' -ex 'hbreak kmain' $(BUILD)/hako.elf; \
	kill -TERM $$harness 2>/dev/null; wait $$harness 2>/dev/null || true

clean:
	rm -rf $(BUILD)

-include $(KERNEL_OBJS:.o=.d)
