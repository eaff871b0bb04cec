# kernel/arch/x86_64/arch.mk — what the x86_64 build sets (the Makefile
# includes kernel/arch/$(ARCH)/arch.mk): the host's toolchain, the kernel's
# code-model and no-FPU flags, the outputs of `make kernel`.  The build
# tree is build/ itself.
ARCH_CROSS :=
ARCH_BUILD := build
# The kernel is linked in the top 2 GiB, has no red zone (interrupts
# push on the current stack) and never touches the FPU/SIMD state.
ARCH_KERNEL_CFLAGS := -mno-red-zone -mcmodel=kernel -mno-sse -mno-sse2 -mno-mmx -mno-avx -mno-80387
ARCH_KERNEL_LIBS :=
# Nothing the compiler loads (SH-4 names its GCC plugin here).
ARCH_CC_DEPS :=
ARCH_OBJDUMP_FLAGS := -M intel
ARCH_MKSYMS_FLAGS :=
# User programs: no FPU/SIMD registers (no per-thread FPU state is kept).
ARCH_USER_CFLAGS := -mgeneral-regs-only
ARCH_USER_LDSCRIPT := user/lib/user.ld
ARCH_USER_LIBS :=
# Driver programs (drv-NAME) may run in ring 0 (drvmode=super, super_arch.c),
# where an interrupt pushes its frame on their stack: no red zone.  They and
# the library they link are built so in both placements.
ARCH_DRVHOST_CFLAGS := -mno-red-zone
# The image GRUB and QEMU's multiboot loader take, and the program archive.
ARCH_KERNEL_OUTPUTS = $(BUILD)/hako.elf $(BUILD)/initrd.img
