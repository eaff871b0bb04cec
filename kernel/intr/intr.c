/*
 * intr.c — vector allocation and dispatch to registered handlers.
 *
 * The table is written under intr_lock and read without it in
 * intr_dispatch(): a handler is registered before its source is unmasked
 * and unregistered after it is masked, so no interrupt sees a half-written
 * entry.
 */
#include <stdbool.h>
#include <errno.h>
#include <intr.h>
#include <kprintf.h>
#include <spinlock.h>
#include <arch/arch.h>

struct vector_entry {
	intr_handler_t fn;
	void *arg;
	const char *name;
	bool allocated;
	bool own_eoi;               /* the handler acknowledges the LAPIC itself */
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

void intr_free_vector(int vector)
{
	spin_lock(&intr_lock);
	vectors[vector] = (struct vector_entry){ 0 };
	spin_unlock(&intr_lock);
}

static int enter(int vector, intr_handler_t fn, void *arg, const char *name, bool own_eoi)
{
	if (vector < ARCH_INTR_FIRST_IRQ || vector >= ARCH_INTR_VECTORS || !fn)
		return -EINVAL;
	spin_lock(&intr_lock);
	vectors[vector].arg = arg;
	vectors[vector].name = name;
	vectors[vector].allocated = true;
	vectors[vector].own_eoi = own_eoi;
	__atomic_store_n(&vectors[vector].fn, fn, __ATOMIC_RELEASE);
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
	__atomic_store_n(&vectors[vector].fn, NULL, __ATOMIC_RELEASE);
	spin_unlock(&intr_lock);
}

void intr_release(int vector)
{
	intr_unregister(vector);
	intr_free_vector(vector);
}

/* Called by the arch trap code with interrupts off; true if the handler sent the EOI. */
bool intr_dispatch(int vector)
{
	struct vector_entry *e = &vectors[vector & (ARCH_INTR_VECTORS - 1)];
	intr_handler_t fn = __atomic_load_n(&e->fn, __ATOMIC_ACQUIRE);
	__atomic_fetch_add(&e->count, 1, __ATOMIC_RELAXED);
	if (!fn) {
		kprintf("intr: unexpected vector %d\n", vector);
		return false;
	}
	fn(e->arg);
	return e->own_eoi;
}

uint64_t intr_count(int vector)
{
	return vectors[vector & (ARCH_INTR_VECTORS - 1)].count;
}
