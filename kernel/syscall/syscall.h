/*
 * syscall.h — the system-call table and the per-CPU call counters.
 *
 * The table is generated from kernel/uapi/syscalls.def
 * (build/gen/syscall_table.c), and so are the handlers' prototypes
 * (build/gen/syscall_handlers.h, included here): a handler whose
 * parameters disagree with the list does not compile.  A handler takes
 * its arguments as raw 64-bit words and validates every one of them.  Every handler is in kernel/syscall/sys_*.c: it checks, copies
 * to or from user memory, and calls the subsystem's kernel API.
 */
#ifndef HAKO_SYSCALL_H
#define HAKO_SYSCALL_H

#include <stdint.h>
#include <syscall_handlers.h>

/* int64_t: a handler's result (long, or int64_t where declared so) as the
 * arch returns it (arch_syscall_set_result). */
typedef int64_t (*syscall_fn)(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);

struct syscall_entry {
	syscall_fn fn;
	const char *name;
	int nargs;
};

extern const struct syscall_entry syscall_table[];
extern const unsigned syscall_count;

long sys_nosys(void);
struct thread;
/* fn(thread tid of the caller's process, arg) (tid 0: the caller); for
 * another thread under its process's slot lock, so fn must not sleep. */
long on_own_thread(uint64_t utid, long (*fn)(struct thread *, uint64_t), uint64_t arg);
struct trapframe;
void syscall_dispatch(struct trapframe *tf);
/* After a call the arch dispatched itself, interrupts on, when a switch
 * is due or the thread was killed (dispatch.c). */
void syscall_exit_work(void);

#endif
