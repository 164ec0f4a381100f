/* latency_chain.cu: dependent-load chains (pointer chasing) through global memory, this CTA's shared memory and a peer CTA's shared memory (DSMEM): the latency probe of chapter 1 and of the benchmark. */
#include "dsm.h"

/* One 4-byte global load that is cached in L2 only (ld.global.cg) on the GPU,
 * so that a chain that fits in L2 is not served by L1. A plain load on the
 * emulator, and on the GPU when DSM_CHASE_PLAIN_LOADS is defined. */
static __device__ __forceinline__ uint32_t load_global_u32(const uint32_t *p)
{
#if defined(__CUDACC__) && !defined(DSM_CHASE_PLAIN_LOADS)
    uint32_t v;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
#else
    return *p;
#endif
}

// BOOK-BEGIN(chase)
/* Follows the chain idx = next[idx] through global memory `steps` times,
 * starting at idx, and returns the index it ends at. */
static __device__ __forceinline__ uint32_t
chase_global_steps(const uint32_t *next, uint32_t idx, uint32_t steps)
{
    // BEGIN SOLUTION
    //~ // TODO(ch01.latency_chain): walk `steps` links of the chain from idx and return
    //~ // where you end. What must each load wait for, for the time per step to be a
    //~ // latency? (load_global_u32 is the load the benchmark times.)
    //~ (void)next;
    //~ (void)steps;
    //~ (void)load_global_u32;
    for (uint32_t s = 0; s < steps; ++s)
        idx = load_global_u32(next + idx); /* waits for the load before */
    // END SOLUTION
    return idx;
}

/* Launch with one thread. Follows `steps` links of the chain in `next` from
 * `start`; writes the index reached to *out_last and the SM cycles the chase
 * took to *out_cycles (a fake counter on the emulator). */
__global__ void chase_global(const uint32_t *next, uint32_t start, uint32_t steps,
                             uint32_t *out_last, unsigned long long *out_cycles)
{
    if (threadIdx.x != 0 || blockIdx.x != 0)
        return;
    uint64_t t0 = dsm_clock64();
    uint32_t last = chase_global_steps(next, start, steps);
    uint64_t t1 = dsm_clock64();
    *out_last = last;
    *out_cycles = (unsigned long long)(t1 - t0);
}
// BOOK-END(chase)
DSM_KERNEL_ENTRY(chase_global, const uint32_t *, uint32_t, uint32_t, uint32_t *,
                 unsigned long long *)

/* Follows the chain idx = chain[idx] in shared memory (this CTA's, or a
 * peer's through a mapped pointer) `steps` times; returns the index reached. */
static __device__ __forceinline__ uint32_t
chase_shared_steps(const uint32_t *chain, uint32_t idx, uint32_t steps)
{
    // BEGIN SOLUTION
    //~ // TODO(ch01.latency_chain): the same walk, through `chain`.
    //~ (void)chain;
    //~ (void)steps;
    for (uint32_t s = 0; s < steps; ++s)
        idx = chain[idx];
    // END SOLUTION
    return idx;
}

// BOOK-BEGIN(chase_shared)
/* Every CTA copies chain number blockIdx.x (the n words at next + blockIdx.x * n,
 * each an index below n) into its dynamic shared memory. Then its thread 0
 * follows `steps` links from `start`: in its own copy when remote == 0, in the
 * copy of the next CTA of its cluster, rank (r + 1) % cluster size, when
 * remote != 0. It writes the index reached to out_last[blockIdx.x] and the
 * cycles to out_cycles[blockIdx.x].
 * Launch: 1-D grid and clusters, any block size, at least n * 4 bytes of
 * dynamic shared memory. */
__global__ void chase_shared(const uint32_t *next, uint32_t n, uint32_t start,
                             uint32_t steps, uint32_t remote, uint32_t *out_last,
                             unsigned long long *out_cycles)
{
    uint32_t *chain = (uint32_t *)dsm_dynamic_smem();

    // BEGIN SOLUTION
    //~ // TODO(ch01.latency_chain): put this CTA's chain (the n words at
    //~ // next + blockIdx.x * n) in `chain`. Who reads `chain` later, and what must
    //~ // be true before they start?
    //~ (void)next;
    //~ (void)n;
    const uint32_t *mine = next + (size_t)blockIdx.x * n;
    for (uint32_t i = threadIdx.x; i < n; i += blockDim.x)
        chain[i] = mine[i];
    /* Publish. A peer will read our copy: it must be complete, and visible to
     * the peer's thread, before the chase starts. __syncthreads() orders only
     * this CTA; the cluster barrier (arrive.release, wait.acquire) orders the
     * whole cluster. Chapter 3 takes this barrier apart. */
    dsm_cluster_sync();
    // END SOLUTION

    if (threadIdx.x == 0) {
        uint64_t t0, t1;
        uint32_t last;
        if (remote) {
            // BEGIN SOLUTION
            //~ // TODO(ch01.latency_chain): `peer` must be the `chain` of the next
            //~ // CTA of this cluster (the last one's next is the first).
            //~ const uint32_t *peer = chain;
            uint32_t peer_rank = (dsm_cluster_ctarank() + 1) % dsm_cluster_nctarank();
            const uint32_t *peer = (const uint32_t *)dsm_map_shared_rank(chain, peer_rank);
            // END SOLUTION
            t0 = dsm_clock64();
            last = chase_shared_steps(peer, start, steps);  /* loads cross to the peer */
            t1 = dsm_clock64();
        } else {
            t0 = dsm_clock64();
            last = chase_shared_steps(chain, start, steps); /* plain ld.shared */
            t1 = dsm_clock64();
        }
        out_last[blockIdx.x] = last;
        out_cycles[blockIdx.x] = (unsigned long long)(t1 - t0);
    }

    // BEGIN SOLUTION
    //~ // TODO(ch01.latency_chain): may this CTA end here? Who else uses its memory?
    /* Lifetime. A CTA's shared memory exists only while the CTA runs: if this
     * CTA exited now, a peer still chasing through our copy would read freed
     * memory (on hardware: unspecified launch failure). Nobody leaves before
     * every chase in the cluster is over. */
    dsm_cluster_sync();
    // END SOLUTION
}
// BOOK-END(chase_shared)
DSM_KERNEL_ENTRY(chase_shared, const uint32_t *, uint32_t, uint32_t, uint32_t, uint32_t,
                 uint32_t *, unsigned long long *)
