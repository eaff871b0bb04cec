/*
 * uapi/hako.h — the types and constants user programs and the kernel share.
 *
 * Included by the kernel and by user programs (user/include puts this
 * directory on the path).  Only fixed-width types; no kernel internals.
 */
#ifndef HAKO_UAPI_H
#define HAKO_UAPI_H

#include <stdint.h>
#include "hako_ispc.h"
#include "hako_intr.h"
#include "hako_blk.h"
#include "hako_perf.h"
#include "hako_isoch.h"
#include "hako_drvproc.h"
#include "hako_priv.h"

/*
 * The words a call declared `-> words` in syscalls.def returns beside its
 * result, in registers (x86_64: rdx, rsi, rdi, r8, r9, r10; the user stub
 * stores them here, the kernel never touches this memory).  What each word
 * means is the call's: hako_ispc.h for ispc_call and ispc_reply_recv.
 */
#define HAKO_WORDS 6
struct hako_words {
	uint64_t w[HAKO_WORDS];
};

/* User address-space layout (fixed; see docs/design/proc.md "User space"). */
/*
 * The user half's layout.  Its windows sit at 0xNNNN << HAKO_USER_SHIFT:
 * bits 47-32 of a 64-bit arch's address (x86_64: 0x0000600000000000), bits
 * 31-16 of a 32-bit one's (SH-4: 0x60000000), so the same numbers place
 * them in a 128 TiB or a 2 GiB user half.
 */
#define HAKO_USER_SHIFT        (__SIZEOF_POINTER__ == 8 ? 32 : 16)
#define HAKO_USER_IMAGE_BASE   0x0000000000400000ull  /* programs are linked here */
#define HAKO_USER_STACK_TOP    ((0x8000ull << HAKO_USER_SHIFT) - 0x100000)  /* main thread's stack grows down from here */
#define HAKO_USER_STACK_MAX    (1ull << 20)           /* 1 MiB, a guard page below */
/* Thread stacks, one slot each: 0x7f00 (64-bit); a 32-bit half's 16 MiB of
 * slots end at 0x7f000000, under the main stack. */
#define HAKO_THREAD_STACK_AREA ((__SIZEOF_POINTER__ == 8 ? 0x7f00ull : 0x7e00ull) << HAKO_USER_SHIFT)
#define HAKO_THREAD_STACK_SLOT (256ull << 10)          /* 256 KiB per slot: guard page + stack */
#define HAKO_MAX_THREADS       64                      /* per process */
#define HAKO_HEAP_MAX          (256ull << 20)          /* brk may grow this far past the image */

/* read() flags. */
#define HAKO_READ_NONBLOCK 1

/* wait() status: the low byte is the exit code; KILLED marks a kill. */
#define HAKO_STATUS_KILLED   0x100
#define HAKO_CAUSE_KILL      32      /* kill() from another process */
#define HAKO_CAUSE_OOM       33      /* no memory for a page it touched */
/* Killed status = HAKO_STATUS_KILLED | cause; cause < 32 is the CPU exception vector. */
#define HAKO_WIFKILLED(s)    (((s) & HAKO_STATUS_KILLED) != 0)
#define HAKO_WCAUSE(s)       ((s) & 0xff)
#define HAKO_WEXITCODE(s)    ((s) & 0xff)

#define HAKO_PATH_MAX  32
#define HAKO_ARGV_MAX  32            /* arguments of a program: as many words as the kernel
                                     * command line keeps (CMD_MAX_WORDS), so a boot can name
                                     * that many tests */
#define HAKO_ARG_BYTES 1024          /* all argument strings together */

struct hako_cpustat {
	uint64_t ticks;          /* timer ticks taken */
	uint64_t irqs;           /* device interrupts and IPIs taken */
	uint64_t ctx_switches;
	int32_t online, idle;    /* 0 or 1 */
	int32_t cur_prio;        /* priority of what runs there, -1 idle */
	int32_t rq_len;          /* runnable threads waiting */
	uint64_t irq_off_max;    /* longest interrupts-off section, TSC ticks (irqtrace=on; else 0) */
	uint64_t as_loads;       /* address-space switches (CR3 loads) */
};

struct hako_sysinfo {
	uint64_t free_frames, total_frames;
	int32_t ncpus, nprocs, nthreads;
	int32_t page_size;
	uint64_t tsc_hz;
	uint64_t proc_kernel_frames;   /* frames the kernel spends on a minimal process */
};

/* One thread, as ps sees it (sys_ps). */
enum { HAKO_PS_NEW, HAKO_PS_RUNNABLE, HAKO_PS_RUNNING, HAKO_PS_SLEEPING, HAKO_PS_DEAD };
struct hako_psinfo {
	int32_t pid;             /* its process; 0 for a kernel thread */
	int32_t tid;
	int32_t state;           /* HAKO_PS_* */
	int32_t cpu;             /* where it runs or last ran */
	int32_t prio;
	int32_t pad;
	uint64_t runtime_tsc;    /* TSC ticks it ran, up to its last switch away */
	char name[16];           /* its program's name (kernel threads: their own) */
};

#endif
