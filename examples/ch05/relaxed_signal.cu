/* relaxed_signal.cu: a ping-pong whose token travels as data beside a flag, and the flag is stored relaxed: a signal that publishes nothing. */
#include "dsm.h"

/* pp_flag_*'s contract (chapter 5), with the token in a `data` word and a
 * separate `flag` word that counts the hops. Wrong: the sender's flag store is
 * relaxed, so nothing orders its store of `data` before it: the receiver may
 * see the new flag and still read the old data. */
__global__ void pp_relaxed_signal(const uint32_t *first, uint32_t rounds, uint32_t *trace, uint32_t *last,
                                  unsigned long long *cycles)
{
    __shared__ uint32_t data, flag;
    uint32_t rank = dsm_cluster_ctarank();
    uint32_t token = first[blockIdx.x / 2u];
    if (threadIdx.x == 0)
        dsm_st_relaxed_cluster_u32(&flag, 0);
    dsm_cluster_sync();
    if (threadIdx.x == 0) {
        uint32_t peer_data = dsm_mapa_shared_cluster(dsm_smem_addr(&data), rank ^ 1u);
        uint32_t *peer_flag = (uint32_t *)dsm_map_shared_rank(&flag, rank ^ 1u);
        uint32_t received = 0, receipts = 0;
        uint64_t t0 = dsm_clock64();
        for (uint32_t hop = 0; hop < 2u * rounds; ++hop) {
            // BOOK-BEGIN(hop)
            if (rank == (hop & 1u)) {
                dsm_st_shared_cluster_u32(peer_data, token);
                dsm_st_relaxed_cluster_u32(peer_flag, hop + 1u);  /* wrong: orders nothing */
            } else {
                while (dsm_ld_acquire_cluster_u32(&flag) != hop + 1u) {
                }
                received = data;
                trace[blockIdx.x * rounds + receipts++] = received;
                token = received + 1u;
            }
            // BOOK-END(hop)
        }
        last[blockIdx.x] = received;
        cycles[blockIdx.x] = (unsigned long long)(dsm_clock64() - t0);
    }
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(pp_relaxed_signal, const uint32_t *, uint32_t, uint32_t *, uint32_t *, unsigned long long *)
