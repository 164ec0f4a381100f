/* registers.c: the special registers a kernel reads (cluster and CTA ids, %clock64) and the base of dynamic shared memory. */
#include "emu_api.h"

static emu_thread *cur_thread(void) { return emu_self_thread; }

uint32_t dsm_emu_cluster_ctarank(void) { return cur_thread()->cta->rank; }
uint32_t dsm_emu_cluster_nctarank(void) { return emu_cur->cluster.ncta; }
dsm_dim3 dsm_emu_cluster_ctaid(void) { return cur_thread()->cta->cluster_ctaid; }
dsm_dim3 dsm_emu_cluster_nctaid(void) { return emu_cur->cfg.cluster; }
dsm_dim3 dsm_emu_clusterid(void) { return emu_cur->cluster.id; }
dsm_dim3 dsm_emu_nclusterid(void)
{
    dsm_launch_config *c = &emu_cur->cfg;
    return DSM_DIM3(c->grid.x / c->cluster.x, c->grid.y / c->cluster.y, c->grid.z / c->cluster.z);
}

void *dsm_emu_dynamic_smem(void)
{
    emu_thread *t = cur_thread();
    return t->cta->window + emu_cur->static_rounded;
}

/* A fake counter per thread, so that a kernel that writes clock differences
 * writes the same in every schedule (a global counter would differ). */
static uint64_t fake_clock;
uint64_t dsm_emu_clock64(void)
{
    emu_thread *t = emu_self_thread;
    return t ? (t->clock += 8) : (fake_clock += 8);
}
