# kernel/include.mk — the kernel's include folders, shared by the kernel
# build (Makefile), the driver processes (user/user.mk) and the host tests
# (tests/host/Makefile).
#
# Each subsystem keeps its headers beside its code (kernel/mm/vm.h,
# kernel/sched/thread.h, ...), and sources include them by name
# (#include <vm.h>): every folder kernel/NAME/ that holds a header is one
# -I here, so a header moves without its includers changing.  A header
# name may exist in one of these folders only (tools/build/checkarch.py checks);
# headers one level further down (a driver's own registers) are reached
# with quotes from beside them.  kernel/uapi/ is one of them: the
# definitions user space shares (<hako_perf.h>), which user programs see
# through the same folder.  The arch's interface headers (<arch/...>) come
# from kernel/arch/ARCH/include.
KERNEL_INC_DIRS := $(patsubst %/,%,$(sort $(dir $(filter-out kernel/arch/%,$(wildcard kernel/*/*.h)))))
KERNEL_INCLUDES := $(addprefix -I,$(KERNEL_INC_DIRS))
