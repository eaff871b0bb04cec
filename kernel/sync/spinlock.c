/*
 * spinlock.c — ticket spinlocks and the interrupt-off nesting counter.
 *
 * The wait loop executes `pause` (arch_spin_hint).  Under QEMU's
 * single-threaded icount TCG that ends the spinning vCPU's turn, so the
 * holder runs at once; a plain loop instead spins out its whole time
 * slice (up to the next timer deadline: milliseconds of guest time).
 * Measured with kbench's ipi_call_roundtrip: 906 instructions with the
 * hint, a median of 10,000,004 without.
 *
 * Under the cost model (tools/costmodel/vclock.h) a lock hands its
 * holder's virtual time to the next holder: the plugin reads the lock at
 * spin_unlock's entry (its release=ADDR argument), spin_lock and a
 * successful spin_trylock mark the acquire, and the wait loop is a spin
 * section.  Two instructions per acquire; the release costs none.
 *
 * The debug kernel (LOCK_CHECK) also keeps, per CPU, the locks it holds
 * (held_by) and checks each spin_lock against them (the order is in
 * spinlock.h), and checks every acquire, release and pop_off for misuse: a
 * recursive acquire, a release by a CPU that does not hold the lock,
 * interrupts found on inside a section, an unbalanced pop_off.  In the
 * normal kernel LOCK_CHECK is false and the compiler drops the checks (a
 * recursive acquire then spins until SPIN_LIMIT and panics as stuck):
 * each lock and unlock is a dozen instructions, which a server call's
 * round trip pays eight times over (make test boots the debug kernel too).
 */
#include <stdint.h>
#include <spinlock.h>
#include <spin_nested.h>
#include <cpu.h>
#include <panic.h>
#include <preempt_trace.h>
#include <region.h>

#define SPIN_LIMIT (1ull << 34)  /* ~minutes of spinning: surely a deadlock */

void spin_init(struct spinlock *l, const char *name, int rank)
{
	l->next = l->owner = 0;
	l->name = name;
	l->cpu = -1;
	l->rank = rank;
}

/* irqtrace=on: time every interrupts-off section, keep the longest per
 * CPU (cpustat reports it) and per context (preempt_trace.c: paper 004's
 * Table 2).  Off by default: then it costs a test per outermost lock. */
bool irq_trace;

/* Interrupts off, counting nesting; the outermost call remembers IF and,
 * when tracing, when and where the interrupts-off section began and in
 * what context (preempt_trace.h).  Always inlined, so the return address
 * is that of spin_lock, spin_trylock or push_off: their caller's site. */
static inline __attribute__((always_inline)) struct cpu *irq_push(void)
{
	uint64_t was_on = arch_irq_save();
	struct cpu *c = this_cpu();
	if (c->ncli++ == 0) {
		c->intena = was_on;
		if (irq_trace)
			preempt_trace_begin(c, (uint64_t)__builtin_return_address(0));
	}
	return c;
}

static inline void irq_pop(struct cpu *c)
{
	if (LOCK_CHECK && arch_irq_enabled())
		panic("pop_off: interrupts are on");
	if (LOCK_CHECK && c->ncli < 1)
		panic("pop_off: unbalanced");
	if (--c->ncli == 0) {
		if (irq_trace)
			preempt_trace_end(c);
		if (c->intena)
			arch_irq_enable();
	}
}

void push_off(void) { irq_push(); }
void pop_off(void) { irq_pop(this_cpu()); }

static inline bool held_here(struct spinlock *l, struct cpu *c)
{
	return l->cpu == c->id && l->owner != l->next;
}

bool spin_held(struct spinlock *l)
{
	return held_here(l, this_cpu());
}

/* Indexed by cpu->id; written only by its own CPU, interrupts off. */
static struct held_locks held_by[MAX_CPUS];

const struct held_locks *held_locks_here(void)
{
	return &held_by[this_cpu()->id];
}

const struct spinlock *lock_order_conflict(struct spinlock *const *held, int nheld,
					   const struct spinlock *l)
{
	for (int i = 0; i < nheld; i++)
		if (held[i]->rank >= l->rank)
			return held[i];
	return NULL;
}

/* Before waiting for l: may this CPU take it?  Then count it held. */
static void order_check_push(struct cpu *c, struct spinlock *l, bool check)
{
	struct held_locks *h = &held_by[c->id];
	const struct spinlock *bad = check ? lock_order_conflict(h->lock, h->n, l) : NULL;
	if (bad)
		panic("lock order: cpu %d takes %s (rank %d) holding %s (rank %d)",
		      c->id, l->name, l->rank, bad->name, bad->rank);
	if (h->n == LOCKS_HELD_MAX)
		panic("lock order: cpu %d takes %s holding %d locks already", c->id, l->name, h->n);
	h->lock[h->n++] = l;
}

/* Locks may be released in any order (sleep_on drops the guard first). */
static void held_pop(struct cpu *c, struct spinlock *l)
{
	struct held_locks *h = &held_by[c->id];
	int i = h->n - 1;
	while (i >= 0 && h->lock[i] != l)
		i--;
	if (i < 0)
		panic("lock order: cpu %d releases %s, not on its held list", c->id, l->name);
	for (; i < h->n - 1; i++)
		h->lock[i] = h->lock[i + 1];
	h->n--;
}

/* irqtrace=on: the wait is counted apart (cpu->spin_wait_ticks), so a
 * section's own work can be told from its waiting (uapi/hako_perf.h). */
static void spin_wait(struct cpu *c, struct spinlock *l, uint32_t ticket)
{
	uint64_t spins = 0, t0 = irq_trace ? arch_tsc() : 0;
	sync_spin_begin(HAKO_SYNC_LOCK);
	while (__atomic_load_n(&l->owner, __ATOMIC_ACQUIRE) != ticket) {
		if (++spins == SPIN_LIMIT)
			panic("spinlock %s: stuck, held by cpu %d", l->name, l->cpu);
		arch_spin_hint();
	}
	sync_spin_end(HAKO_SYNC_LOCK, l);
	if (irq_trace)
		c->spin_wait_ticks += arch_tsc() - t0;
}

/* The debug kernel's checks of spin_nested.h's steps: another lock is
 * held (interrupts off); then an acquire joins the held list (a lock's
 * order checked, a trylock's not), a release must be the holder's and
 * leaves it. */
void spin_nested_check(struct spinlock *l, enum spin_nested_step step)
{
	struct cpu *c = this_cpu();
	if (c->ncli < 1 || arch_irq_enabled())
		panic("spinlock %s: nested %s without a lock held on cpu %d", l->name,
		      step == SPIN_NESTED_UNLOCK ? "release" : "acquire", c->id);
	if (step != SPIN_NESTED_UNLOCK) {
		order_check_push(c, l, step == SPIN_NESTED_LOCK);
		return;
	}
	if (!held_here(l, c))
		panic("spinlock %s: release by cpu %d, not the holder", l->name, c->id);
	held_pop(c, l);
}

void spin_lock(struct spinlock *l)
{
	struct cpu *c = irq_push();
	if (LOCK_CHECK && held_here(l, c))
		panic("spinlock %s: recursive acquire on cpu %d", l->name, c->id);
	if (LOCK_CHECK)
		order_check_push(c, l, true);
	uint32_t ticket = __atomic_fetch_add(&l->next, 1, __ATOMIC_RELAXED);
	if (__atomic_load_n(&l->owner, __ATOMIC_ACQUIRE) != ticket)
		spin_wait(c, l, ticket);
	l->cpu = c->id;
	sync_acquire(l);
}

bool spin_trylock(struct spinlock *l)
{
	struct cpu *c = irq_push();
	if (spin_take_if_free(l)) {
		l->cpu = c->id;
		sync_acquire(l);
		if (LOCK_CHECK)
			order_check_push(c, l, false);
		return true;
	}
	irq_pop(c);
	return false;
}

void spin_unlock(struct spinlock *l)
{
	struct cpu *c = this_cpu();
	if (LOCK_CHECK && !held_here(l, c))
		panic("spinlock %s: release by cpu %d, not the holder", l->name, c->id);
	if (LOCK_CHECK)
		held_pop(c, l);
	l->cpu = -1;
	__atomic_store_n(&l->owner, l->owner + 1, __ATOMIC_RELEASE);
	irq_pop(c);
}
