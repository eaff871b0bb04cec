/*
 * ica_fast.c — the fast ISPC mode (paper 002, `ispc=fast`, or the
 * ispc_mode system call): an ICA's translations are kept resident
 * instead of being made again at every first touch.
 *
 *   paste     fills every PTE of the ICA at once (ica_map_pasted), so
 *             its first access does not fault, and has the arch keep the
 *             translation resident (arch_ica_pin: on SH-4 reserved UTLB
 *             entries, loaded now; nothing on x86), so it does not miss;
 *   window    the servers named by `servers=` map the whole region once,
 *             with 2 MiB pages, when they start listening; pastes to and
 *             peels from them then change no page table at all (the
 *             paper's "OS servers may access all ICAs", its resident
 *             server TLB entries: a paste pins the window's large entry);
 *   kept      a single-threaded process that sends a synchronous request
 *             keeps the ICAs mapped while it sleeps: no thread of it can
 *             touch them, and the result brings them back to the same
 *             addresses, so neither a peel nor a paste is needed.
 *
 * The other mode, baseline, is in ica_baseline.c: paste maps nothing and
 * each page faults in.  What both modes share — the table, peel with its
 * TLB shootdown, the mode switch itself — is in ica.c; which mode is in
 * force is ica_mode, set at boot or at run time while no ICA exists; the
 * functions here check it, except ica_count_kept, whose caller does.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <cmdline.h>
#include <errno.h>
#include <ica.h>
#include <options.h>
#include <proc.h>
#include <vm.h>
#include <arch/mmu.h>
#include "ica_internal.h"

static char servers[OPTIONS_SERVERS_MAX] = "nameserver,echo,ramdisk";   /* who gets the window */
static int nwindows;                 /* processes with the window; guard: ica_lock */

const char *ica_fast_options(void)
{
	const char *list = cmdline_get(&kcmdline, "servers");
	if (!list)
		return servers;
	strlcpy(servers, list, sizeof servers);      /* options.c checked the length */
	for (const char *p = servers; *p;) {
		char name[HAKO_PATH_MAX];
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		const void *file;
		uint64_t size;
		strlcpy(name, p, n + 1 < sizeof name ? n + 1 : sizeof name);
		if (initrd_find(name, &file, &size) < 0)
			options_refuse("kernel option servers=%s refused (%s is no program of the boot "
				       "archive)", list, name);
		p += n + (comma ? 1 : 0);
	}
	return servers;
}

/* ---- paste ------------------------------------------------------------ */

/* p now holds s (without ica_lock): in fast mode map every page of it. */
void ica_map_pasted(struct proc *p, struct ica_span s)
{
	if (p->ica_window || ica_mode != HAKO_ISPC_FAST) {
		if (p->ica_window)           /* (fast mode) the window's entries stay resident */
			arch_ica_pin(p->as, page_va(s.first), (uint64_t)s.npages * PAGE_SIZE, true);
		return;
	}
	for (uint32_t i = 0; i < s.npages; i++)
		if (vm_map(p->as, page_va(s.first + i), page_pa(s.first + i), ICA_PTE_FLAGS) == -ENOMEM)
			break;                   /* the rest will fault in */
	arch_ica_pin(p->as, page_va(s.first), (uint64_t)s.npages * PAGE_SIZE, false);
	__atomic_fetch_add(&ica_counts.pastes, 1, __ATOMIC_RELAXED);
	if (proc_alone(p))
		return;
	spin_lock(&ica_lock);
	bool still = ica_holds(p, s);
	spin_unlock(&ica_lock);
	if (!still) {                    /* peeled meanwhile by another thread */
		arch_ica_unpin(p->as, page_va(s.first), (uint64_t)s.npages * PAGE_SIZE);
		vm_unmap_range(p->as, page_va(s.first), s.npages);
	}
}

/* ---- kept mappings ---------------------------------------------------- */

/* ---- the servers' window ---------------------------------------------- */

static bool named_server(const struct proc *p)
{
	size_t n = strlen(p->name);
	for (const char *s = servers; *s;) {
		const char *end = strchr(s, ',');
		size_t len = end ? (size_t)(end - s) : strlen(s);
		if (len == n && strncmp(s, p->name, n) == 0)
			return true;
		s += len + (end ? 1 : 0);
	}
	return false;
}

void ica_window_open(struct proc *p)
{
	if (ica_mode != HAKO_ISPC_FAST || p->ica_window || !ica_region_pages || !named_server(p))
		return;
	uint64_t size = (uint64_t)ica_region_pages * PAGE_SIZE, off;
	for (off = 0; off < size; off += VM_LARGE_SIZE)
		if (vm_map_large(p->as, HAKO_ICA_AREA + off, ica_region_pa + off, ICA_PTE_FLAGS) < 0)
			break;
	if (off < size) {                /* it holds ICAs mapped page by page: stay so */
		while (off > 0) {
			off -= VM_LARGE_SIZE;
			vm_unmap_large(p->as, HAKO_ICA_AREA + off);
		}
		return;
	}
	spin_lock(&ica_lock);
	p->ica_window = true;
	nwindows++;
	spin_unlock(&ica_lock);
}

/* p has ended: its window goes with its address space.  Caller holds ica_lock. */
void ica_window_close(struct proc *p)
{
	if (p->ica_window) {
		p->ica_window = false;
		nwindows--;
	}
}

int ica_window_count(void)
{
	return nwindows;
}
