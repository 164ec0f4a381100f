/* pingpong_probe.h: the test side of the ping-pong probes (test_pingpong_*_probe.h rename the emulator's device-API store, st.async and fence to these): adds a number to every token on its way, so that a receiver that forwards a token it computed shows, and records what the peer's slot held at each fence. One test file includes it. */
#ifndef CH05_PINGPONG_PROBE_H
#define CH05_PINGPONG_PROBE_H

#include "pingpong_check.h"

/* While probe_delta is not 0, every 4-byte device-API store into shared memory and every 4-byte
 * st.async (a DSMEM token) carries its value plus probe_delta, and every fence adds probe_delta to
 * the peer's slot
 * (the global path's token, stored before the fence). Each fence of CTA b < PROBE_CTAS also
 * records what the peer's slot held when it came. */
enum { PROBE_CTAS = 2, PROBE_FENCES = 32 };
static uint32_t probe_delta;
static int probe_added; /* tokens the probe added probe_delta to in the launch */
static int probe_fences[PROBE_CTAS];
static uint32_t probe_seen[PROBE_CTAS][PROBE_FENCES];

#ifndef DSM_BACKEND_CUDA
void dsm_emu_access(int kind, uint32_t addr, void *val, unsigned bytes, const char *file, int line);
void dsm_emu_fence(const char *file, int line);
struct dsm_emu_thread_view {
    dsm_dim3 thread_idx, block_idx, block_dim, grid_dim;
};
extern const struct dsm_emu_thread_view *dsm_emu_self;

/* Called by the kernel in place of the emulator's device-API access (the probe header renames it). */
void probe_pp_access(int kind, uint32_t addr, void *val, unsigned bytes, const char *file, int line);
void probe_pp_access(int kind, uint32_t addr, void *val, unsigned bytes, const char *file, int line)
{
    uint32_t v;
    if (probe_delta && kind == 1 /* DSM_EMU_ST of device_emu.h */ && bytes == 4) {
        memcpy(&v, val, 4);
        v += probe_delta;
        val = &v;
        probe_added++;
    }
    dsm_emu_access(kind, addr, val, bytes, file, line);
}

void dsm_emu_st_async(uint32_t dst, const void *val, unsigned bytes, uint32_t cluster_bar, const char *file,
                      int line);

/* Called by the kernel in place of the emulator's st.async. */
void probe_pp_st_async(uint32_t dst, const void *val, unsigned bytes, uint32_t cluster_bar, const char *file,
                       int line);
void probe_pp_st_async(uint32_t dst, const void *val, unsigned bytes, uint32_t cluster_bar, const char *file,
                       int line)
{
    uint32_t v;
    if (probe_delta && bytes == 4) {
        memcpy(&v, val, 4);
        v += probe_delta;
        val = &v;
        probe_added++;
    }
    dsm_emu_st_async(dst, val, bytes, cluster_bar, file, line);
}

void dsm_emu_flag_store(uint32_t *p, uint32_t v, int release, int gpu_scope, const char *file, int line);
void *dsm_emu_map_shared_rank(const void *p, uint32_t rank, const char *file, int line);
uint32_t dsm_emu_cluster_ctarank(void);

/* Called by the kernel in place of the emulator's flag store (ch05.pingpong_flags): a flag stored into
 * the peer's mailbox (its slot, or a word of its shared memory) carries its value plus probe_delta; a
 * CTA's store into its own mailbox (the initial value) is left alone. */
void probe_pp_flag_store(uint32_t *p, uint32_t v, int release, int gpu_scope, const char *file, int line);
void probe_pp_flag_store(uint32_t *p, uint32_t v, int release, int gpu_scope, const char *file, int line)
{
    if (probe_delta) {
        unsigned b = dsm_emu_self->block_idx.x;
        int peer;
        if (pp_running_slots && (p == pp_running_slots + b || p == pp_running_slots + (b ^ 1u)))
            peer = p == pp_running_slots + (b ^ 1u);
        else
            peer = dsm_emu_map_shared_rank(p, dsm_emu_cluster_ctarank(), file, line) != (void *)p;
        if (peer) {
            v += probe_delta;
            probe_added++;
        }
    }
    dsm_emu_flag_store(p, v, release, gpu_scope, file, line);
}

/* Called by the kernel in place of the emulator's fence. */
void probe_pp_fence(const char *file, int line);
void probe_pp_fence(const char *file, int line)
{
    unsigned b = dsm_emu_self->block_idx.x;
    if (pp_running_slots && b < PROBE_CTAS) {
        volatile uint32_t *peer = pp_running_slots + (b ^ 1u);
        if (probe_fences[b] < PROBE_FENCES)
            probe_seen[b][probe_fences[b]++] = *peer;
        if (probe_delta) {
            *peer += probe_delta;
            probe_added++;
        }
    }
    dsm_emu_fence(file, line);
}
#endif

static void probe_reset(uint32_t delta)
{
    probe_delta = delta;
    probe_added = 0;
    memset(probe_fences, 0, sizeof probe_fences);
    memset(probe_seen, 0, sizeof probe_seen);
}

/* Runs l with a random number added to every token on its way and checks every receipt against
 * it (pp_run_and_check); a kernel whose tokens travel by a route the probe does not see (a plain
 * store through a mapped pointer) is checked with plain tokens, and says so. */
static inline void pp_expect_forwarded_tokens(pp_launch l)
{
    pp_tokens x = {0, 0, 0x10000u + test_random_below(0x10000u), &probe_added};
    probe_reset(x.delta);
    pp_run_and_check_ex(&l, &x);
    if (!probe_added)
        print_message("%s sends its tokens by plain stores: the probe sees only st.shared::cluster "
                      "(dsm_st_shared_cluster_u32), st.async and the fence after a slot's store; what it forwards "
                      "is not checked\n", l.name);
    probe_reset(0);
}

/* pp_expect_forwarded_tokens for a receiver that polls a flag: one that waits for the exact token it
 * expects never sees the probe's changed one and blocks, which is fine (it forwards only a token it
 * read); one that takes any new word must forward that word, plus 1. Returns 1 if it blocked. */
static inline int pp_expect_forwarded_or_awaited_tokens(pp_launch l)
{
    int stalled = 0;
    pp_tokens x = {0, 0, 0x10000u + test_random_below(0x10000u), &probe_added, &stalled};
    probe_reset(x.delta);
    pp_run_and_check_ex(&l, &x);
    if (!stalled && !probe_added)
        fail_msg("%s: the test found no flag store into the peer's mailbox to add to (it sees "
                 "dsm_st_*_cluster_u32 and dsm_st_*_gpu_u32)", l.name);
    probe_reset(0);
    return stalled;
}

#endif
