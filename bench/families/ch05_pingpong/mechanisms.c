/* mechanisms.c: ch05_pingpong, part 1: what runs: every signalling mechanism, its kernels in the course and the probe, the harnesses, the like-for-like pairs and the run's configurations. */
#include <stdio.h>
#include <string.h>

#include "pp_bench.h"

DSM_DECLARE_KERNEL(pp_seed_dsmem);
DSM_DECLARE_KERNEL(pp_seed_global);
DSM_DECLARE_KERNEL(pp_mbar_arrive);
DSM_DECLARE_KERNEL(pp_mbar_st_async);
DSM_DECLARE_KERNEL(pp_flag_relaxed);
DSM_DECLARE_KERNEL(pp_flag_release);
DSM_DECLARE_KERNEL(pp_flag_global);
DSM_DECLARE_KERNEL(pp_flag_global_relaxed);
DSM_DECLARE_KERNEL(ppp_seed_dsmem);
DSM_DECLARE_KERNEL(ppp_seed_gmem);
DSM_DECLARE_KERNEL(ppp_mbar_arrive);
DSM_DECLARE_KERNEL(ppp_st_async);
DSM_DECLARE_KERNEL(ppp_flag_relaxed);
DSM_DECLARE_KERNEL(ppp_flag_release);
DSM_DECLARE_KERNEL(ppp_flag_gmem_relaxed);
DSM_DECLARE_KERNEL(ppp_flag_gmem_release);

static dsm_kernel_t k_seed_dsmem(void) { return DSM_KERNEL(pp_seed_dsmem); }
static dsm_kernel_t k_seed_global(void) { return DSM_KERNEL(pp_seed_global); }
static dsm_kernel_t k_mbar_arrive(void) { return DSM_KERNEL(pp_mbar_arrive); }
static dsm_kernel_t k_mbar_st_async(void) { return DSM_KERNEL(pp_mbar_st_async); }
static dsm_kernel_t k_flag_relaxed(void) { return DSM_KERNEL(pp_flag_relaxed); }
static dsm_kernel_t k_flag_release(void) { return DSM_KERNEL(pp_flag_release); }
static dsm_kernel_t k_flag_global(void) { return DSM_KERNEL(pp_flag_global); }
static dsm_kernel_t k_flag_global_relaxed(void) { return DSM_KERNEL(pp_flag_global_relaxed); }
static dsm_kernel_t p_seed_dsmem(void) { return DSM_KERNEL(ppp_seed_dsmem); }
static dsm_kernel_t p_seed_gmem(void) { return DSM_KERNEL(ppp_seed_gmem); }
static dsm_kernel_t p_mbar_arrive(void) { return DSM_KERNEL(ppp_mbar_arrive); }
static dsm_kernel_t p_st_async(void) { return DSM_KERNEL(ppp_st_async); }
static dsm_kernel_t p_flag_relaxed(void) { return DSM_KERNEL(ppp_flag_relaxed); }
static dsm_kernel_t p_flag_release(void) { return DSM_KERNEL(ppp_flag_release); }
static dsm_kernel_t p_flag_gmem_relaxed(void) { return DSM_KERNEL(ppp_flag_gmem_relaxed); }
static dsm_kernel_t p_flag_gmem_release(void) { return DSM_KERNEL(ppp_flag_gmem_release); }

/* In the order of the chapter; each global-memory twin right after its DSMEM partner. */
const pp_mechanism pp_mechanisms[MECHANISMS] = {
    {"seed_dsmem", "remote store + cluster barrier per hop (seed 000)", "DSMEM", k_seed_dsmem, p_seed_dsmem, 0,
     VIA_DSMEM_STORE, 1, 0, "pp_seed_dsmem", "ch05.pingpong_seed"},
    {"seed_gmem", "global store + __threadfence + cluster barrier per hop (seed 000)", "global", k_seed_global,
     p_seed_gmem, 1, VIA_GLOBAL, 1, 0, "pp_seed_global", "ch05.pingpong_seed"},
    {"flag_relaxed", "flag, relaxed: remote st.relaxed.cluster, poll of own shared memory", "DSMEM",
     k_flag_relaxed, p_flag_relaxed, 0, VIA_DSMEM_STORE, 0, 0, "pp_flag_relaxed", "ch05.pingpong_flags"},
    {"flag_gmem_relaxed", "flag, relaxed: st.relaxed.gpu into the peer's slot, ld.relaxed.gpu poll", "global",
     k_flag_global_relaxed, p_flag_gmem_relaxed, 1, VIA_GLOBAL, 0, 0, "pp_flag_global_relaxed", "ch05.pingpong_flags"},
    {"flag_release", "flag, release/acquire: remote st.release.cluster, ld.acquire.cluster poll", "DSMEM",
     k_flag_release, p_flag_release, 0, VIA_DSMEM_STORE, 0, 0, "pp_flag_release", "ch05.pingpong_flags"},
    {"flag_gmem_release", "flag, release/acquire: st.release.gpu into the peer's slot, ld.acquire.gpu poll",
     "global", k_flag_global, p_flag_gmem_release, 1, VIA_GLOBAL, 0, 0, "pp_flag_global", "ch05.pingpong_flags"},
    {"st_async", "st.async + mbarrier complete_tx, parity wait (DSMEM only)", "DSMEM", k_mbar_st_async, p_st_async,
     0, VIA_ST_ASYNC, 0, 1, "pp_mbar_st_async", "ch05.pingpong_mbarrier"},
    {"mbar_arrive", "remote store + remote mbarrier arrive, parity wait (DSMEM only)", "DSMEM", k_mbar_arrive,
     p_mbar_arrive, 0, VIA_DSMEM_STORE, 0, 1, "pp_mbar_arrive", "ch05.pingpong_mbarrier"},
};
_Static_assert(sizeof pp_mechanisms / sizeof pp_mechanisms[0] == MECHANISMS, "MECHANISMS counts the table");

const pp_pair pp_pairs[PAIRS] = {
    {"barrier", "cluster barrier per hop (the seed's design)", "seed_dsmem", "seed_gmem"},
    {"relaxed", "relaxed flag", "flag_relaxed", "flag_gmem_relaxed"},
    {"release", "release/acquire flag", "flag_release", "flag_gmem_release"},
};

/* The course harness is the exercises' kernels at the deep dive's 128 threads; the same kernels
 * with one warp; and the benchmark's own probe kernels (bench/kernels/ch05_pingpong_probe.cu). */
const pp_harness pp_harnesses[HARNESSES] = {
    {"course", "", "exercise kernels, 128 threads", THREADS, 0},
    {"course_1warp", "_1warp", "exercise kernels, 32 threads", 32, 0},
    {"probe", "_probe", "probe kernels, 32 threads", 32, 1},
};

/* The index of mechanism `key` in pp_mechanisms[]. */
int pp_index_of_mechanism(const char *key)
{
    for (int i = 0; i < MECHANISMS; ++i)
        if (strcmp(pp_mechanisms[i].key, key) == 0)
            return i;
    return 0; /* not reached: every pair names mechanisms of the table */
}

dsm_kernel_t pp_kernel_of(const pp_config *c)
{
    return pp_harnesses[c->harness].probe ? c->m->probe() : c->m->course();
}

/* Hops that CTA 0's cycles cover: the probe starts its clock after the first round trip. */
double pp_timed_hops(const pp_config *c, uint32_t rounds)
{
    return pp_harnesses[c->harness].probe ? 2.0 * (rounds - 1) : 2.0 * rounds;
}

/* The run's configurations: every mechanism in every harness, then the seed's two kernels at its
 * own 1000 round trips (course harness). Returns how many. */
int pp_configurations(const pp_sizes *sz, int dry, pp_config *out)
{
    int n = 0;
    for (int h = 0; h < HARNESSES; ++h)
        for (int i = 0; i < MECHANISMS; ++i) {
            pp_config *c = &out[n++];
            c->m = &pp_mechanisms[i];
            c->harness = h;
            c->rounds = h == H_COURSE ? sz->rounds : sz->rounds_other;
            c->repeats = h == H_COURSE ? sz->repeats : sz->repeats_other;
            snprintf(c->key, sizeof c->key, "%s%s", pp_mechanisms[i].key, pp_harnesses[h].suffix);
            if (pp_harnesses[h].probe) {
                snprintf(c->who, sizeof c->who, "%s (the benchmark's probe kernel ppp_%s)", c->key, pp_mechanisms[i].key);
                snprintf(c->kernel, sizeof c->kernel, "ppp_%s", pp_mechanisms[i].key);
            } else {
                snprintf(c->who, sizeof c->who, "%s (%s, exercise %s)", c->key, pp_mechanisms[i].kernel_name,
                         pp_mechanisms[i].exercise);
                snprintf(c->kernel, sizeof c->kernel, "%s", pp_mechanisms[i].kernel_name);
            }
        }
    for (int i = 0; i < 2; ++i) {
        pp_config *c = &out[n++];
        c->m = &pp_mechanisms[i]; /* seed_dsmem, seed_gmem */
        c->harness = H_COURSE;
        c->rounds = dry ? sz->rounds : SEED_ROUNDS;
        c->repeats = sz->repeats;
        snprintf(c->key, sizeof c->key, "%s_1000", pp_mechanisms[i].key);
        snprintf(c->who, sizeof c->who, "%s (%s, exercise %s)", c->key, pp_mechanisms[i].kernel_name,
                 pp_mechanisms[i].exercise);
        snprintf(c->kernel, sizeof c->kernel, "%s", pp_mechanisms[i].kernel_name);
    }
    return n;
}

/* The configuration of mechanism `key` in harness h (not the 1000-round variants); -1 if none. */
int pp_config_index(const pp_config *cfgs, int n, const char *key, int h)
{
    for (int i = 0; i < n; ++i)
        if (cfgs[i].harness == h && strcmp(cfgs[i].m->key, key) == 0 && strstr(cfgs[i].key, "_1000") == NULL)
            return i;
    return -1;
}
