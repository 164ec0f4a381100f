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
    // TODO(ch07.mcast_operand): both streams through one ring; the operand once per
    // cluster when multicast is set (see the contract above).
    (void)own;
    (void)opnd;
    (void)out;
    (void)own_bytes;
    (void)opnd_bytes;
    (void)stages;
    (void)nsteps;
    (void)own_region_steps;
    (void)opnd_region_steps;
    (void)multicast;
}
DSM_KERNEL_ENTRY(mcast_operand, const uint4 *, const uint4 *, uint32_t *, int, int, int, int, int, int, int)
