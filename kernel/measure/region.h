/*
 * region.h — marking measured regions for the cost-model plugin
 * (uapi/hako_region.h has the encoding, uapi/hako_region_ids.h the ids).
 *
 * region_begin/region_end bracket code on the running CPU: stay on one
 * CPU in between (interrupts off, or a pinned thread).  The global pair
 * counts every CPU's work in between, for figures that span CPUs.  Each
 * marker is one instruction that does nothing.
 */
#ifndef HAKO_REGION_H
#define HAKO_REGION_H

#include <arch/region.h>
#include <hako_region_ids.h>

#define region_begin(id)        arch_region_mark(HAKO_REGION_BEGIN, id)
#define region_end(id)          arch_region_mark(HAKO_REGION_END, id)
#define region_global_begin(id) arch_region_mark(HAKO_REGION_GLOBAL_BEGIN, id)
#define region_global_end(id)   arch_region_mark(HAKO_REGION_GLOBAL_END, id)
#define region_begin_arg(id, arg) arch_region_mark_arg(HAKO_REGION_BEGIN, id, arg)
#define region_end_arg(id, arg)   arch_region_mark_arg(HAKO_REGION_END, id, arg)

/*
 * Synchronisation points for the plugin's per-vCPU virtual clocks
 * (tools/costmodel/vclock.h): kind is a HAKO_SYNC_* constant, obj the
 * object's address (in %rax at the marker).  A post carries this CPU's
 * time to the wait for the same object; a spin section is waiting, not
 * work.  Two instructions each (a move into %rax and the marker).
 */
#define sync_post(kind, obj)      arch_region_mark_arg(HAKO_SYNC_POST, kind, obj)
#define sync_wait(kind, obj)      arch_region_mark_arg(HAKO_SYNC_WAIT, kind, obj)
#define sync_acquire(lock)        arch_region_mark_arg(HAKO_SYNC_ACQUIRE, HAKO_SYNC_LOCK, lock)
/* A release the plugin cannot see at spin_unlock's first instruction (its
 * release=ADDR): a lock given back by a store of its own. */
#define sync_release(lock)        arch_region_mark_arg(HAKO_SYNC_RELEASE, HAKO_SYNC_LOCK, lock)
#define sync_spin_begin(kind)     arch_region_mark(HAKO_SYNC_SPIN_BEGIN, kind)
#define sync_spin_end(kind, obj)  arch_region_mark_arg(HAKO_SYNC_SPIN_END, kind, obj)
/* A device with a fixed service time (dev < HAKO_SYNC_DEVICES) takes request req:
 * the plugin serves its requests in turn and posts each one's end (HAKO_SYNC_IO). */
#define sync_service(dev, req, ns) arch_region_mark_arg2(HAKO_SYNC_SERVICE, dev, req, ns)
/* An interrupt's handler runs between these: its first wait for a post
 * moves the handler's time to that post's, not to this CPU's own clock
 * (vclock.h). */
#define sync_irq_begin()          arch_region_mark(HAKO_SYNC_IRQ_BEGIN, 0)
#define sync_irq_end()            arch_region_mark(HAKO_SYNC_IRQ_END, 0)
/* Under the plugin, wait (host time, no guest work) until (*word & mask) == value. */
#define sync_host_wait(word, mask, value) \
	arch_region_mark_arg2(HAKO_SYNC_HOST_WAIT, 0, word, (uint64_t)(mask) << 32 | (uint32_t)(value))

#endif
