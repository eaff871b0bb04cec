/*
 * sh4.c — the SH7751R's address space and the control-register stores
 * the cost model follows (sh4.h).
 */
#include "sh4.h"

bool cm_sh4_translated(uint64_t va)
{
	return va < CM_SH4_P1 || (va >= CM_SH4_P3 && va < CM_SH4_P4);
}

uint64_t cm_sh4_phys(uint64_t va)
{
	return va >= CM_SH4_P1 && va < CM_SH4_P3 ? va & CM_SH4_PHYS : va;
}

bool cm_sh4_register(uint64_t va)
{
	return va >= CM_SH4_SQ_END && va <= 0xffffffffull;
}

static bool in_array(uint64_t va, uint64_t base)
{
	return va >= base && va < base + CM_SH4_ARRAY_SIZE;
}

bool cm_sh4_register_store(struct cm_core *c, uint64_t va, uint64_t pa, uint64_t value)
{
	if (va == CM_SH4_PTEH)
		c->pcid = (uint16_t)(value & 0xff);
	else if (va == CM_SH4_MMUCR && (value & CM_SH4_MMUCR_TI))
		cm_tlbs_flush_all(&c->tlbs);
	else if (in_array(va, CM_SH4_ITLB_ADDR_ARRAY))
		cm_tlbs_flush_all(&c->tlbs);
	else if (in_array(va, CM_SH4_UTLB_ADDR_ARRAY) && (va & CM_SH4_UTLB_ASSOC))
		cm_tlbs_flush_page(&c->tlbs, value & ~0x3ffull, (uint16_t)(value & 0xff), true);
	return pa == CM_SH4_R2D_POWER_OFF;
}
