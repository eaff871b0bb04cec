/*
 * intr.c — vector allocation and dispatch to registered handlers.
 *
 * A vector's handler is a binding (function, argument, own-EOI flag)
 * published by one pointer store: intr_dispatch loads the pointer and
 * sees the old binding or the new one, never a mix.  Each vector has two
 * binding slots; a registration fills the slot not in use, publishes it,
 * and then waits until no CPU still runs the binding it replaced, so
 * when intr_register / intr_unregister / intr_release return, the old
 * handler has returned everywhere and its argument may be freed or
 * reused.  The slot it replaced is idle from then on, ready for the next
 * registration.
 *
 * In flight: intr_dispatch counts itself into the binding it loaded and
 * then loads the pointer again; if the binding was replaced meanwhile it
 * backs out and starts over.  The writer publishes, then reads the old
 * binding's count (both sequentially consistent): either the CPU taking
 * the interrupt sees the new pointer or the writer sees it counted.
 *
 * Writers are serialised by intr_lock.  Caller of a registration must not
 * be running the vector's handler itself, and that handler must not wait
 * for anything the caller holds.
 */
#include <stdbool.h>
#include <errno.h>
#include <intr.h>
#include <kprintf.h>
#include <spinlock.h>
#include <arch/arch.h>

struct binding {
	intr_handler_t fn;
	void *arg;
	const char *name;
	bool own_eoi;               /* the handler acknowledges the LAPIC itself */
	volatile uint32_t inflight; /* CPUs between loading this binding and the handler's return */
};

struct vector_entry {
	struct binding *volatile cur;   /* NULL: no handler */
	struct binding slot[2];
	bool allocated;
	volatile uint64_t count;
};

static struct vector_entry vectors[ARCH_INTR_VECTORS];
static struct spinlock intr_lock = SPINLOCK_INIT("intr", LOCK_INTR);

int intr_alloc_vector(void)
{
	int found = -EAGAIN;
	spin_lock(&intr_lock);
	for (int v = VECTOR_DEVICE_FIRST; v <= VECTOR_DEVICE_LAST; v++) {
		if (!vectors[v].allocated) {
			vectors[v].allocated = true;
			found = v;
			break;
		}
	}
	spin_unlock(&intr_lock);
	return found;
}

/* Until every CPU that took b has left its handler. */
static void wait_idle(struct binding *b)
{
	while (__atomic_load_n(&b->inflight, __ATOMIC_SEQ_CST))
		arch_spin_hint();
}

/* Publish nb (NULL: none) for e and wait out the binding it replaces.  Caller holds intr_lock. */
static void publish(struct vector_entry *e, struct binding *nb)
{
	struct binding *old = e->cur;
	__atomic_store_n(&e->cur, nb, __ATOMIC_SEQ_CST);
	if (old)
		wait_idle(old);
}

void intr_free_vector(int vector)
{
	struct vector_entry *e = &vectors[vector & (ARCH_INTR_VECTORS - 1)];
	spin_lock(&intr_lock);
	publish(e, NULL);
	e->allocated = false;
	e->count = 0;
	spin_unlock(&intr_lock);
}

static int enter(int vector, intr_handler_t fn, void *arg, const char *name, bool own_eoi)
{
	if (vector < ARCH_INTR_FIRST_IRQ || vector >= ARCH_INTR_VECTORS || !fn)
		return -EINVAL;
	struct vector_entry *e = &vectors[vector];
	spin_lock(&intr_lock);
	struct binding *nb = e->cur == &e->slot[0] ? &e->slot[1] : &e->slot[0];
	wait_idle(nb);                       /* a CPU that loaded it long ago backs out first */
	nb->fn = fn;
	nb->arg = arg;
	nb->name = name;
	nb->own_eoi = own_eoi;
	e->allocated = true;
	publish(e, nb);
	spin_unlock(&intr_lock);
	return 0;
}

int intr_register(int vector, intr_handler_t fn, void *arg, const char *name)
{
	return enter(vector, fn, arg, name, false);
}

int intr_register_own_eoi(int vector, intr_handler_t fn, void *arg, const char *name)
{
	return enter(vector, fn, arg, name, true);
}

void intr_unregister(int vector)
{
	spin_lock(&intr_lock);
	publish(&vectors[vector & (ARCH_INTR_VECTORS - 1)], NULL);
	spin_unlock(&intr_lock);
}

void intr_release(int vector)
{
	intr_free_vector(vector);
}

/* The binding of e counted as in flight on this CPU, or NULL. */
static struct binding *take(struct vector_entry *e)
{
	for (;;) {
		struct binding *b = __atomic_load_n(&e->cur, __ATOMIC_SEQ_CST);
		if (!b)
			return NULL;
		__atomic_fetch_add(&b->inflight, 1, __ATOMIC_SEQ_CST);
		if (__atomic_load_n(&e->cur, __ATOMIC_SEQ_CST) == b)
			return b;
		__atomic_fetch_sub(&b->inflight, 1, __ATOMIC_RELEASE);   /* replaced meanwhile */
	}
}

/* Called by the arch trap code with interrupts off; true if the handler sent the EOI. */
bool intr_dispatch(int vector)
{
	struct vector_entry *e = &vectors[vector & (ARCH_INTR_VECTORS - 1)];
	__atomic_fetch_add(&e->count, 1, __ATOMIC_RELAXED);
	struct binding *b = take(e);
	if (!b) {
		kprintf("intr: unexpected vector %d\n", vector);
		return false;
	}
	bool own_eoi = b->own_eoi;
	b->fn(b->arg);
	__atomic_fetch_sub(&b->inflight, 1, __ATOMIC_RELEASE);
	return own_eoi;
}

uint64_t intr_count(int vector)
{
	return vectors[vector & (ARCH_INTR_VECTORS - 1)].count;
}
