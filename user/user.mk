# user/user.mk — builds user space: the generated system-call interface,
# the C library (libhako.a), one ELF per program directory and the initrd.
#
# Included from the top-level Makefile (uses its CC, LD, PYTHON, BUILD).
# Every directory user/NAME/ holding .c files (except lib and include) is a
# program: its .c files (and any user/NAME/arch/ARCH/*.S) link with
# crt0 and libhako.a into $(BUILD)/user/NAME.elf.  Every directory
# servers/NAME/ is a program the same way (an OS server: its objects go to
# $(BUILD)/servers/NAME/, its ELF to $(BUILD)/user/NAME.elf beside the
# others, so the initrd holds it as NAME).  Programs include a server's
# protocol header as <NAME/proto.h> (-Iservers).
#
#   make user                      all programs and $(BUILD)/initrd.img
#   make build/user/NAME.elf       one program
#   make build/user/libhako.a      the library alone

# Keep the top-level Makefile's default goal (`all`): targets defined here
# must not become it.
USER_SAVED_GOAL := $(.DEFAULT_GOAL)

USER_ARCH := $(ARCH)
GEN_DIR := $(BUILD)/gen
SYSCALL_GEN := $(GEN_DIR)/hako_syscalls.h $(GEN_DIR)/syscall_stubs.S $(GEN_DIR)/syscall_table.c \
	$(GEN_DIR)/syscall_handlers.h $(GEN_DIR)/kperf_calls.h \
	$(GEN_DIR)/fuzz_calls.h

# Programs reach arch details as <arch/NAME.h>: the arch's folder
# user/include/hako/arch/$(USER_ARCH)/arch/ is chosen by -I, as the kernel's is.
USER_CFLAGS := $(REPRO_FLAGS) -std=gnu11 -O2 -g -Wall -Wextra -Werror -ffreestanding \
	-fno-builtin-printf -nostdlib -static -fno-pic -fno-pie \
	-fno-stack-protector $(ARCH_USER_CFLAGS) -fno-omit-frame-pointer \
	-fno-asynchronous-unwind-tables \
	-Iuser/include -Iuser/include/hako/arch/$(USER_ARCH) -Iservers -Ikernel/uapi -Ilib/include -I$(GEN_DIR) -MMD -MP
# The library also sees its arch helpers (cpu.h); gcc must not turn the
# loops of memset/memcpy into calls to themselves.
USER_LIB_CFLAGS := $(USER_CFLAGS) -Iuser/lib/arch/$(USER_ARCH) \
	-fno-tree-loop-distribute-patterns
USER_ASFLAGS := $(REPRO_FLAGS) -g -Iuser/include -Iuser/include/hako/arch/$(USER_ARCH) -Ikernel/uapi -I$(GEN_DIR) -MMD -MP -D__ASSEMBLY__
USER_LDSCRIPT := $(ARCH_USER_LDSCRIPT)
USER_LDFLAGS := -nostdlib -static -z max-page-size=0x1000 -z noexecstack -T $(USER_LDSCRIPT)

# One run of the generator writes all its files (the kernel compiles
# syscall_table.c).  It rewrites only files whose text changed, so touch
# them all to keep make from rerunning it.
$(SYSCALL_GEN) &: kernel/uapi/syscalls.def tools/build/gensyscalls.py
	$(PYTHON) tools/build/gensyscalls.py --arch $(ARCH) kernel/uapi/syscalls.def $(GEN_DIR)
	@touch $(SYSCALL_GEN)

# The library: user/lib/*.c, the shared string and format routines
# (lib/*.c, built here with the user flags into $(BUILD)/user/shared/),
# arch assembly except crt0, the syscall stubs.
USER_CRT0 := $(BUILD)/user/lib/arch/$(USER_ARCH)/start.o
USER_LIB := $(BUILD)/user/libhako.a
USER_LIB_OBJS := $(patsubst user/%.c,$(BUILD)/user/%.o,$(wildcard user/lib/*.c)) \
	$(patsubst lib/%.c,$(BUILD)/user/shared/%.o,$(wildcard lib/*.c)) \
	$(patsubst user/%.S,$(BUILD)/user/%.o,$(filter-out %/start.S,$(wildcard user/lib/arch/$(USER_ARCH)/*.S))) \
	$(patsubst user/%.c,$(BUILD)/user/%.o,$(wildcard user/lib/arch/$(USER_ARCH)/*.c)) \
	$(BUILD)/user/lib/syscall_stubs.o

# The programs: user/NAME/ and servers/NAME/; a name may be used once.
# The in-guest test suite lives with the other tests, in tests/user/, and
# is the program selftest.
USER_APPS := $(sort $(filter-out lib include drvhost,$(patsubst user/%/,%,$(dir $(wildcard user/*/*.c)))) selftest)
USER_SERVERS := $(sort $(patsubst servers/%/,%,$(dir $(wildcard servers/*/*.c))))
ifneq ($(filter $(USER_APPS),$(USER_SERVERS)),)
$(error programs in both user/ and servers/: $(filter $(USER_APPS),$(USER_SERVERS)))
endif
USER_PROGS := $(USER_APPS) $(USER_SERVERS)
USER_ELFS := $(patsubst %,$(BUILD)/user/%.elf,$(USER_PROGS))

# Driver processes (paper 003): the loop (user/drvhost/) and the process
# placement of the driver environment and of the class layers
# (kernel/drivers/*_process.c), linked with one driver's unchanged source
# from kernel/drivers/CLASS/NAME/, make the program drv-NAME.  They compile
# with HAKO_DRVENV_PROCESS defined, so drvenv.h and the class interfaces
# include the process placement's headers; kernel/include is not on their
# include path.
# The drivers built so: the network drivers and those DRIVER() marks .process.
DRVHOST_DRIVERS := rtl8139 e1000 ramdisk ahci
DRIVER_TREE_INCLUDES := -Ikernel/drivers -Ikernel/drivers/net -Ikernel/drivers/block -Ikernel/drivers/misc
# Unused parameters are allowed, as in the kernel: an operation ignores what it need not read.
DRVHOST_CFLAGS := -DHAKO_DRVENV_PROCESS $(USER_CFLAGS) $(ARCH_DRVHOST_CFLAGS) -Wno-unused-parameter \
	$(DRIVER_TREE_INCLUDES) -Iuser/drvhost
DRVHOST_SRCS := $(wildcard user/drvhost/*.c kernel/drivers/*_process.c kernel/drivers/*/*_process.c)
DRVHOST_OBJS := $(patsubst %.c,$(BUILD)/drvhost/%.o,$(DRVHOST_SRCS))
# Their library: libhako.a's C objects again with ARCH_DRVHOST_CFLAGS (into
# $(BUILD)/drvhost/), its assembly as it is.
DRVHOST_LIB := $(BUILD)/drvhost/libhako.a
DRVHOST_LIB_C_OBJS := $(patsubst %.c,$(BUILD)/drvhost/%.o,$(wildcard user/lib/*.c lib/*.c user/lib/arch/$(USER_ARCH)/*.c))
DRVHOST_LIB_OBJS := $(DRVHOST_LIB_C_OBJS) $(filter-out $(patsubst %.c,$(BUILD)/user/%.o,$(wildcard user/lib/*.c user/lib/arch/$(USER_ARCH)/*.c)) $(BUILD)/user/shared/%.o,$(USER_LIB_OBJS))
$(DRVHOST_LIB_C_OBJS): DRVHOST_CFLAGS := $(USER_LIB_CFLAGS) $(ARCH_DRVHOST_CFLAGS)
DRVHOST_DRIVER_OBJS := $(patsubst %,$(BUILD)/drvhost/drivers/%.o,$(DRVHOST_DRIVERS))
DRVHOST_ELFS := $(patsubst %,$(BUILD)/user/drv-%.elf,$(DRVHOST_DRIVERS))
USER_ELFS += $(DRVHOST_ELFS)
user_prog_dir = $(if $(filter $(1),$(USER_SERVERS)),servers/$(1),$(if $(filter selftest,$(1)),tests/user,user/$(1)))
user_prog_objs = $(patsubst %.c,$(BUILD)/%.o,$(wildcard $(call user_prog_dir,$(1))/*.c)) \
	$(patsubst %.S,$(BUILD)/%.o,$(wildcard $(call user_prog_dir,$(1))/arch/$(USER_ARCH)/*.S))
USER_PROG_OBJS := $(foreach p,$(USER_PROGS),$(call user_prog_objs,$(p)))
USER_ALL_OBJS := $(USER_CRT0) $(USER_LIB_OBJS) $(USER_PROG_OBJS) $(DRVHOST_OBJS) $(DRVHOST_DRIVER_OBJS) \
	$(DRVHOST_LIB_C_OBJS)
# The driver processes' objects are reached only through the drv-%.elf
# pattern rule, which would make them intermediate: make would delete them
# after every build (a stray `rm` line after make test's last line) and
# rebuild them the next time.
.SECONDARY: $(DRVHOST_OBJS) $(DRVHOST_DRIVER_OBJS) $(DRVHOST_LIB_C_OBJS) $(DRVHOST_LIB)
# The arch's flags and what its compiler loads, as for the kernel.
$(USER_ALL_OBJS): kernel/arch/$(ARCH)/arch.mk $(ARCH_CC_DEPS)

.PHONY: user
user: $(USER_ELFS) $(BUILD)/initrd.img

$(BUILD)/user/lib/%.o: user/lib/%.c | $(GEN_DIR)/hako_syscalls.h
	@mkdir -p $(dir $@)
	$(CC) $(USER_LIB_CFLAGS) -c $< -o $@

$(BUILD)/user/shared/%.o: lib/%.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_LIB_CFLAGS) -c $< -o $@

# Programs in user/, servers/ and tests/user/ compile alike (for user/lib the rule
# above wins: its stem is shorter).
define user_compile_rules
$(BUILD)/$(1)/%.o: $(1)/%.c | $(GEN_DIR)/hako_syscalls.h
	@mkdir -p $$(dir $$@)
	$$(CC) $$(USER_CFLAGS) -c $$< -o $$@

$(BUILD)/$(1)/%.o: $(1)/%.S | $(GEN_DIR)/hako_syscalls.h
	@mkdir -p $$(dir $$@)
	$$(CC) $$(USER_ASFLAGS) -c $$< -o $$@
endef
$(foreach d,user servers tests/user,$(eval $(call user_compile_rules,$(d))))
# The in-guest tests also see the check vocabulary all C tests share.
$(BUILD)/tests/user/%.o: USER_CFLAGS += -Itests/include

$(BUILD)/drvhost/%.o: %.c | $(GEN_DIR)/hako_syscalls.h
	@mkdir -p $(dir $@)
	$(CC) $(DRVHOST_CFLAGS) -c $< -o $@

# A driver's source: kernel/drivers/CLASS/NAME/NAME.c.
define drvhost_driver_rule
$(BUILD)/drvhost/drivers/$(1).o: $(wildcard kernel/drivers/*/$(1)/$(1).c) | $(GEN_DIR)/hako_syscalls.h
	@mkdir -p $$(dir $$@)
	$$(CC) $$(DRVHOST_CFLAGS) -c $$< -o $$@
endef
$(foreach d,$(DRVHOST_DRIVERS),$(eval $(call drvhost_driver_rule,$(d))))

$(BUILD)/user/drv-%.elf: $(USER_CRT0) $(DRVHOST_OBJS) $(BUILD)/drvhost/drivers/%.o $(DRVHOST_LIB) $(USER_LDSCRIPT)
	$(LD) $(USER_LDFLAGS) -o $@ $(USER_CRT0) $(DRVHOST_OBJS) $(BUILD)/drvhost/drivers/$*.o $(DRVHOST_LIB) $(ARCH_USER_LIBS)

$(DRVHOST_LIB): $(DRVHOST_LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/user/lib/syscall_stubs.o: $(GEN_DIR)/syscall_stubs.S
	@mkdir -p $(dir $@)
	$(CC) $(USER_ASFLAGS) -c $< -o $@

$(USER_LIB): $(USER_LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

define user_prog_rule
$(BUILD)/user/$(1).elf: $(USER_CRT0) $(call user_prog_objs,$(1)) $(USER_LIB) $(USER_LDSCRIPT)
	$$(LD) $$(USER_LDFLAGS) -o $$@ $(USER_CRT0) $(call user_prog_objs,$(1)) $(USER_LIB) $$(ARCH_USER_LIBS)
endef
$(foreach p,$(USER_PROGS),$(eval $(call user_prog_rule,$(p))))

# The boot archive the kernel starts programs from (tools/build/mkinitrd.py).
# Two deliberately broken programs ride along, so selftest can show that
# spawn refuses them with -ENOEXEC: hello cut short, and hello with its
# ELF magic spoiled.
USER_BROKEN := $(BUILD)/user/broken-truncated.elf $(BUILD)/user/broken-magic.elf
$(BUILD)/user/broken-truncated.elf: $(BUILD)/user/hello.elf
	head -c 300 $< > $@
$(BUILD)/user/broken-magic.elf: $(BUILD)/user/hello.elf
	( printf 'XELF'; tail -c +5 $< ) > $@

$(BUILD)/initrd.img: $(USER_ELFS) $(USER_BROKEN) tools/build/mkinitrd.py
	$(PYTHON) tools/build/mkinitrd.py $@ $(USER_ELFS) $(USER_BROKEN)

# Absolute names work too: make $(pwd)/build/user/hello.elf
ifeq ($(filter /%,$(BUILD)),)
$(addprefix $(CURDIR)/,$(USER_ELFS) $(USER_LIB) $(BUILD)/initrd.img): $(CURDIR)/%: % ;
endif

-include $(USER_ALL_OBJS:.o=.d)

.DEFAULT_GOAL := $(USER_SAVED_GOAL)
