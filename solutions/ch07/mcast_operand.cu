/* mcast_operand.cu: every CTA streams its own data and an operand its whole cluster shares; with multicast the cluster reads the operand once instead of once per CTA, which pays when the loads compete for L2 or HBM. */
#include "dsm.h"

/* The deepest ring the kernel supports (static mbarrier arrays). */
#define MO_MAX_STAGES 8
/* The most 16-byte lanes of a step one consumer thread accumulates. */
#define MO_MAX_LANES 8

/*
 * The contract (the tests check exactly this):
 *
 * Launch: a 1-D grid of 1-D clusters of n CTAs (1 <= n <= 16), blockDim.x a
 * multiple of 32 and at least 96 (warps 0 and 1 organise the copies, warps 2 and
 * up consume); 1 <= stages <= 8; own_bytes and opnd_bytes multiples of 16, not
 * both 0, own_bytes + opnd_bytes <= 128 * (blockDim.x - 64); nsteps >= 1;
 * own_region_steps >= 1, opnd_region_steps >= 1; dynamic shared memory of
 * stages * (own_bytes + opnd_bytes) bytes.
 *
 * Input: in step k, CTA b of cluster c needs
 *   - its own chunk: own_bytes at byte ((k mod own_region_steps) + b * own_region_steps) * own_bytes
 *     of own (a region per CTA);
 *   - the operand chunk: opnd_bytes at byte ((k mod opnd_region_steps) + c * opnd_region_steps) * opnd_bytes
 *     of opnd (a region per cluster: every CTA of the cluster needs the same operand).
 *
 * Transfer: both by cp.async.bulk into a ring of `stages` slots of
 * own_bytes + opnd_bytes in dynamic shared memory, no plain load of own or opnd.
 * multicast = 0: every CTA loads both chunks itself. multicast = 1: every CTA loads
 * its own chunk itself, and each operand byte is read from global memory ONCE per
 * cluster and lands in every CTA (.multicast::cluster). A copy never writes into a
 * slot that a CTA may still read.
 *
 * Output: CTA b writes W = (own_bytes + opnd_bytes) / 4 words to out[b * W, ...):
 * word w < own_bytes / 4 is the sum over k of (k + 1) * (word w of its own chunk of
 * step k); word own_bytes / 4 + v the sum over k of (k + 1) * (word v of the operand
 * chunk of step k), modulo 2^32.
 */
__global__ void mcast_operand(const uint4 *own, const uint4 *opnd, uint32_t *out, int own_bytes, int opnd_bytes,
                              int stages, int nsteps, int own_region_steps, int opnd_region_steps, int multicast)
{
    // BEGIN SOLUTION
    //~ // TODO(ch07.mcast_operand): both streams through one ring; the operand once per
    //~ // cluster when multicast is set (see the contract above).
    //~ (void)own;
    //~ (void)opnd;
    //~ (void)out;
    //~ (void)own_bytes;
    //~ (void)opnd_bytes;
    //~ (void)stages;
    //~ (void)nsteps;
    //~ (void)own_region_steps;
    //~ (void)opnd_region_steps;
    //~ (void)multicast;
    __shared__ uint64_t full[MO_MAX_STAGES];     /* mine: "slot s holds step k: my chunk and the whole operand" */
    __shared__ uint64_t consumed[MO_MAX_STAGES]; /* mine: "all my consumers are done with group h" */
    __shared__ uint64_t empty[MO_MAX_STAGES];    /* mine: "every CTA that writes into group h released it" */
    unsigned char *ring = (unsigned char *)dsm_dynamic_smem();
    uint32_t rank = dsm_cluster_ctarank(), n = dsm_cluster_nctarank();
    uint32_t writers = multicast ? n : 1u;   /* who writes into my slots: my own copies, or every CTA's */
    int tid = (int)threadIdx.x, consumers = (int)blockDim.x - 64;
    int step_bytes = own_bytes + opnd_bytes, units = step_bytes / 16, opnd_units = opnd_bytes / 16;
    /* a release covers half the ring (even depths) or one slot, as in mcast_stream, in both
     * modes: the two modes differ only in how the operand arrives */
    int group = stages % 2 == 0 ? stages / 2 : 1, groups = stages / group;
    /* my piece of each operand chunk when it is multicast: units [lo, hi) */
    int lo = multicast ? (int)((uint32_t)opnd_units * rank / n) : 0;
    int hi = multicast ? (int)((uint32_t)opnd_units * (rank + 1u) / n) : opnd_units;
    uint16_t everyone = (uint16_t)((1u << n) - 1u);
    const unsigned char *my_own = (const unsigned char *)own + (size_t)blockIdx.x * (size_t)own_region_steps * (size_t)own_bytes;
    const unsigned char *my_opnd = (const unsigned char *)opnd +
                                   (size_t)dsm_clusterid().x * (size_t)opnd_region_steps * (size_t)opnd_bytes;

    if (tid == 0) {
        for (int s = 0; s < stages; ++s)
            dsm_mbarrier_init(&full[s], 1);
        for (int h = 0; h < groups; ++h) {
            dsm_mbarrier_init(&consumed[h], (uint32_t)consumers);
            dsm_mbarrier_init(&empty[h], writers);
        }
        dsm_fence_mbarrier_init();
    }
    dsm_cluster_sync();   /* every CTA's barriers exist before anyone copies into it */

    if (tid == 0) {
        for (int k = 0; k < nsteps; ++k) {
            int s = k % stages, j = k / group;
            unsigned char *slot = ring + (size_t)s * (size_t)step_bytes;
            if (k % group == 0 && j >= groups)
                dsm_mbarrier_wait_parity(&empty[j % groups], (uint32_t)(j / groups - 1) & 1u);
            dsm_mbarrier_arrive_expect_tx(&full[s], (uint32_t)step_bytes);   /* both chunks, whole, whoever sends them */
            if (own_bytes > 0)
                dsm_cp_async_bulk_global_to_shared(slot, my_own + (size_t)(k % own_region_steps) * (size_t)own_bytes,
                                                   (uint32_t)own_bytes, &full[s]);
            const unsigned char *chunk = my_opnd + (size_t)(k % opnd_region_steps) * (size_t)opnd_bytes;
            if (hi > lo && multicast)
                dsm_cp_async_bulk_global_to_shared_multicast(slot + own_bytes + 16 * lo, chunk + 16 * lo,
                                                             16u * (uint32_t)(hi - lo), &full[s], everyone);
            else if (hi > lo)
                dsm_cp_async_bulk_global_to_shared(slot + own_bytes, chunk, (uint32_t)opnd_bytes, &full[s]);
        }
    } else if (tid == 32) {
        /* the forwarder: one thread releases each finished group to every issuer that writes
         * into it (each CTA's, when multicast; my own otherwise). One waiter per group: a lane
         * per issuer could be lapped by two phases of `consumed` when an issuer sends nothing
         * that lane waits for (an empty operand piece), and then wait on a stale parity forever */
        for (int j = 0; (j + groups) * group < nsteps; ++j) {
            dsm_mbarrier_wait_parity(&consumed[j % groups], (uint32_t)(j / groups) & 1u);
            for (uint32_t w = 0; w < writers; ++w)
                dsm_mbarrier_arrive_remote(dsm_mapa_shared_cluster(dsm_smem_addr(&empty[j % groups]),
                                                                   multicast ? w : rank));
        }
    } else if (tid >= 64) {
        int c = tid - 64;
        uint32_t acc[MO_MAX_LANES][4];
        for (int i = 0; i < MO_MAX_LANES; ++i)
            acc[i][0] = acc[i][1] = acc[i][2] = acc[i][3] = 0u;
        for (int k = 0; k < nsteps; ++k) {
            int s = k % stages, j = k / group;
            uint32_t weight = (uint32_t)k + 1u;
            dsm_mbarrier_wait_parity(&full[s], (uint32_t)(k / stages) & 1u);
            const uint4 *slot = (const uint4 *)(ring + (size_t)s * (size_t)step_bytes);
            for (int i = 0; i < MO_MAX_LANES; ++i) {
                int u = c + i * consumers;
                if (u < units) {
                    uint4 v = slot[u];
                    acc[i][0] += weight * v.x;
                    acc[i][1] += weight * v.y;
                    acc[i][2] += weight * v.z;
                    acc[i][3] += weight * v.w;
                }
            }
            if (k % group == group - 1 && (j + groups) * group < nsteps)
                dsm_mbarrier_arrive(&consumed[j % groups]);
        }
        for (int i = 0; i < MO_MAX_LANES; ++i) {
            int u = c + i * consumers;
            if (u < units)
                for (int w = 0; w < 4; ++w)
                    out[(size_t)blockIdx.x * (size_t)(units * 4) + (size_t)(u * 4 + w)] = acc[i][w];
        }
    }
    dsm_cluster_sync();   /* no copy into, or arrive on, a CTA that has left */
    // END SOLUTION
}
DSM_KERNEL_ENTRY(mcast_operand, const uint4 *, const uint4 *, uint32_t *, int, int, int, int, int, int, int)
