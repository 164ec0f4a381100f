/* launch.c: dsm_launch on the emulator: checks the configuration as CUDA does, then runs every cluster under each schedule and compares the results. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "emu_api.h"

#define MAX_SCHEDULES 8
#define DEFAULT_SCHEDULES "asc,desc,random:1,interleave"

static emu_schedule schedules[MAX_SCHEDULES];
static int nschedules = -1;
static dsm_error_t pending_error = dsmSuccess;
static fiber_stacks pool;

/* CTA c exited: bulk stores still reading its memory, then copies in flight into or out of it. */
static void cta_exit(emu_launch *L, emu_cta *c)
{
    emu_bulk_store_cta_exit(L, c->rank);
    emu_async_complete_for_cta(L, c->rank);
}

/* Where the engine reaches the mechanisms (engine/emu_engine.h). */
static const emu_hooks hooks = {
    .progress = emu_async_progress,
    .poll_unchanged = emu_flag_unchanged,
    .thread_exit = emu_thread_exited,
    .cta_exit = cta_exit,
    .explain_stuck = emu_mbarriers_check_stuck,
    .cluster_end = emu_mbarriers_check_end,
    .cluster_free = emu_bulk_cluster_free,
    .mbarrier_wait = emu_async_land_on_wait,
    .mbarrier_waited = emu_async_observe,
    .mbarrier_stuck_hint = emu_bulk_stuck_hint,
};

static int parse_schedules(const char *spec, emu_schedule *out)
{
    char buf[256];
    int n = 0;
    snprintf(buf, sizeof buf, "%s", spec);
    for (char *save = NULL, *w = strtok_r(buf, ", ", &save); w; w = strtok_r(NULL, ", ", &save)) {
        if (n == MAX_SCHEDULES)
            return -1;
        emu_schedule s = {EMU_SCHED_ASC, 0};
        if (!strcasecmp(w, "asc"))
            s.kind = EMU_SCHED_ASC;
        else if (!strcasecmp(w, "desc"))
            s.kind = EMU_SCHED_DESC;
        else if (!strcasecmp(w, "interleave"))
            s.kind = EMU_SCHED_INTERLEAVE;
        else if (!strncasecmp(w, "random", 6)) {
            s.kind = EMU_SCHED_RANDOM;
            s.seed = w[6] == ':' ? strtoull(w + 7, NULL, 10) : 1;
        } else
            return -1;
        out[n++] = s;
    }
    return n;
}

dsm_error_t dsm_emu_set_schedules(const char *spec)
{
    emu_schedule tmp[MAX_SCHEDULES];
    int n = parse_schedules(spec ? spec : DEFAULT_SCHEDULES, tmp);
    if (n <= 0)
        return dsmErrorInvalidValue;
    memcpy(schedules, tmp, sizeof tmp);
    nschedules = n;
    return dsmSuccess;
}

static void default_schedules(void)
{
    if (nschedules > 0)
        return;
    const char *env = getenv("DSM_EMU_SCHEDULES");
    if (!env || dsm_emu_set_schedules(env) != dsmSuccess) {
        if (env)
            fprintf(stderr, "dsm-emu: ignoring DSM_EMU_SCHEDULES=\"%s\" (words: asc, desc, random:SEED, "
                            "interleave)\n", env);
        dsm_emu_set_schedules(DEFAULT_SCHEDULES);
    }
}

static dsm_error_t invalid(dsm_error_t err, const struct dsm_emu_kernel *k, const char *why, const char *fix)
{
    if (emu_report_begin(DSM_REPORT_INVALID_LAUNCH, err, "invalid launch: %s", why)) {
        emu_report_line("kernel", "%s (%s)", k ? k->name : "(null)", k ? k->file : "?");
        emu_report_line("on GPU", "the launch returns %s; the kernel does not run", dsm_error_name(err));
        emu_report_line("fix", "%s", fix);
        /* no schedule line: nothing ran */
        if (emu_report_verbose())
            emu_report_print();
    }
    return err;
}

static unsigned dim_product(dsm_dim3 d) { return d.x * d.y * d.z; }

/* The launch rules of a Hopper GPU (CUDA 12/13). */
static dsm_error_t validate(const dsm_launch_config *c, const struct dsm_emu_kernel *k, size_t static_bytes)
{
    char why[256];
    if (!k)
        return invalid(dsmErrorInvalidDeviceFunction, k, "no kernel", "pass DSM_KERNEL(name)");
    /* Error codes as an H200 returns them from cudaLaunchKernelExC (bench/results/launch_errors_h200.csv). */
    if (!c->grid.x || !c->grid.y || !c->grid.z || !c->block.x || !c->block.y || !c->block.z)
        return invalid(dsmErrorInvalidValue, k, "a grid or block dimension is 0",
                       "every dimension is at least 1");
    if (dim_product(c->block) > 1024 || c->block.z > 64) {
        snprintf(why, sizeof why, "%u x %u x %u = %u threads per block (at most 1024, z at most 64)", c->block.x,
                 c->block.y, c->block.z, dim_product(c->block));
        return invalid(dsmErrorInvalidValue, k, why, "use at most 1024 threads per block");
    }
    dsm_dim3 cl = c->cluster;
    if (c->grid.x % cl.x || c->grid.y % cl.y || c->grid.z % cl.z) {
        snprintf(why, sizeof why, "cluster dims (%u,%u,%u) do not divide grid dims (%u,%u,%u)", cl.x, cl.y, cl.z,
                 c->grid.x, c->grid.y, c->grid.z);
        return invalid(dsmErrorInvalidClusterSize, k, why, "make each grid dimension a multiple of the cluster's");
    }
    unsigned csize = dim_product(cl);
    int np = emu_kernel_non_portable(k);
    if (csize > 16 || (csize > 8 && !np)) {
        snprintf(why, sizeof why, "cluster of %u CTAs (portable limit 8; 16 only with the non-portable attribute)",
                 csize);
        return invalid(dsmErrorInvalidClusterSize, k, why,
                       csize > 16 ? "clusters have at most 16 CTAs"
                                  : "call dsm_func_set_non_portable_cluster_size_allowed(kernel, 1) first, or use "
                                    "at most 8 CTAs");
    }
    size_t maxdyn = (size_t)emu_kernel_max_dynamic_smem(k);
    if (c->dynamic_smem_bytes > maxdyn) {
        snprintf(why, sizeof why, "%zu bytes of dynamic shared memory, the kernel's limit is %zu", c->dynamic_smem_bytes,
                 maxdyn);
        return invalid(dsmErrorInvalidValue, k, why,
                       "raise the limit with dsm_func_set_max_dynamic_smem(kernel, bytes) (up to 227 KB minus "
                       "static shared memory)");
    }
    if (static_bytes + c->dynamic_smem_bytes > EMU_SMEM_PER_BLOCK_MAX) {
        snprintf(why, sizeof why, "%zu bytes of shared memory per block (static %zu + dynamic %zu), at most %zu",
                 static_bytes + c->dynamic_smem_bytes, static_bytes, c->dynamic_smem_bytes,
                 (size_t)EMU_SMEM_PER_BLOCK_MAX);
        return invalid(dsmErrorInvalidValue, k, why, "use less shared memory per block");
    }
    return dsmSuccess;
}

/* The most mbarrier phases (all mbarriers together) one cluster completed in
 * the last launch, over its clusters and schedules. */
static uint32_t last_mbarrier_phases;

uint32_t dsm_emu_last_mbarrier_phases(void) { return last_mbarrier_phases; }

static unsigned timeout_seconds(void)
{
    const char *e = getenv("DSM_EMU_TIMEOUT");
    int v = e ? atoi(e) : 0;
    return v > 0 ? (unsigned)v : 20;
}

/* Runs one cluster; a report or a caught fault unwinds to here. */
/* The most cluster-barrier phases one cluster completed in the last launch. */
static uint32_t last_cluster_barrier_phases;

uint32_t dsm_emu_last_cluster_barrier_phases(void) { return last_cluster_barrier_phases; }

static dsm_error_t run_one_cluster(emu_launch *L)
{
    dsm_error_t err;
    int why = sigsetjmp(L->abort_jmp, 1);
    if (why == 0)
        err = emu_run_cluster(L);
    else {
        emu_watchdog_stop();
        if (why != EMU_JMP_REPORTED)
            emu_fault_report(L, why);
        err = emu_report_error();
        if (err == dsmSuccess)
            err = dsmErrorUnknown;
    }
    emu_counts_cluster_end(L);
    uint32_t mbar_phases = 0;
    for (uint32_t i = 0; i < L->cluster.nmbars; i++)
        mbar_phases += L->cluster.mbars[i].phase;
    if (mbar_phases > last_mbarrier_phases)
        last_mbarrier_phases = mbar_phases;
    L->aborting = 0;
    if (L->cluster.phase > last_cluster_barrier_phases)
        last_cluster_barrier_phases = L->cluster.phase;
    emu_cluster_free(L);
    return err;
}

/* Runs every cluster of the grid once under L->sched. */
static dsm_error_t run_grid(emu_launch *L)
{
    dsm_launch_config *c = &L->cfg;
    dsm_dim3 n = DSM_DIM3(c->grid.x / c->cluster.x, c->grid.y / c->cluster.y, c->grid.z / c->cluster.z);
    dsm_error_t err = dsmSuccess;
    L->rng = L->sched.seed * 0x2545F4914F6CDD1Dull + 1;
    L->land_rng = L->sched.seed * 0x9E3779B97F4A7C15ull + 7;
    /* a new schedule: the accesses and releases of the last one are forgotten */
    emu_global_race_reset(false);
    emu_gpu_reset();
    L->cl_seq = 0;
    emu_watchdog_start(timeout_seconds());
    for (unsigned z = 0; z < n.z && !err; z++)
        for (unsigned y = 0; y < n.y && !err; y++)
            for (unsigned x = 0; x < n.x && !err; x++, L->cl_seq++) {
                L->cluster.id = DSM_DIM3(x, y, z);
                err = run_one_cluster(L);
            }
    emu_watchdog_stop();
    return err;
}

static dsm_error_t compare_schedules(emu_launch *L, const emu_schedule *first, const unsigned char *a,
                                     const unsigned char *b)
{
    char msg[1024];
    if (!emu_globals_compare(a, b, msg, sizeof msg))
        return dsmSuccess;
    char n1[96], n2[96];
    if (emu_report_begin(DSM_REPORT_SCHEDULE_DEPENDENT, dsmErrorRaceDetected,
                         "the results depend on the schedule: a data race")) {
        emu_report_line("first", "%s", emu_schedule_name(first, n1, sizeof n1));
        emu_report_line("then", "%s", emu_schedule_name(&L->sched, n2, sizeof n2));
        emu_report_line("differ", "%s", msg);
        emu_report_line("on GPU", "no error: results that change from run to run or from GPU to GPU");
        emu_report_line("fix", "find the unordered accesses: a peer read before the owner's cluster barrier, a "
                               "plain update that needs an atomic, a read of data the next phase overwrites");
        emu_report_end();
    }
    return dsmErrorRaceDetected;
}

static dsm_error_t check_poison(const unsigned char *before)
{
    char msg[512];
    if (!emu_globals_find_poison(before, msg, sizeof msg))
        return dsmSuccess;
    if (emu_report_begin(DSM_REPORT_UNINITIALIZED_READ, dsmErrorUninitializedRead,
                         "a result holds the shared-memory poison 0x%08X: shared memory was read before anyone "
                         "wrote it", EMU_POISON_WORD)) {
        emu_report_line("where", "%s", msg);
        emu_report_line("on GPU", "no error: garbage values in the result");
        emu_report_line("fix", "write shared memory before reading it; a peer's memory may be read only after "
                               "the owner wrote it and both passed a cluster barrier");
        emu_report_end(); /* names the schedule; prints unless dsm_emu_set_verbose(0) */
    }
    return dsmErrorUninitializedRead;
}

dsm_error_t dsm_launch(const dsm_launch_config *cfg, dsm_kernel_t kernel, void **args)
{
    const struct dsm_emu_kernel *k = kernel;
    emu_report_reset();
    last_cluster_barrier_phases = 0;
    if (!cfg)
        return dsmErrorInvalidValue;
    dsm_launch_config c = *cfg;
    last_mbarrier_phases = 0;
    if (!c.cluster.x) c.cluster.x = 1;
    if (!c.cluster.y) c.cluster.y = 1;
    if (!c.cluster.z) c.cluster.z = 1;
    size_t static_bytes = k && k->shared_begin ? (size_t)(k->shared_end - k->shared_begin) : 0;
    dsm_error_t err = validate(&c, k, static_bytes);
    if (err)
        return err;
    default_schedules();
    emu_fault_install();

    static emu_launch L; /* one launch at a time; static keeps the big struct off the stack */
    memset(&L, 0, sizeof L);
    L.kernel = k;
    L.cfg = c;
    L.args = args;
    L.threads_per_cta = dim_product(c.block);
    L.static_bytes = static_bytes;
    L.static_rounded = (static_bytes + 127) / 128 * 128;
    L.window_bytes = L.static_rounded + c.dynamic_smem_bytes;
    L.section = (unsigned char *)k->shared_begin;
    size_t nthreads = (size_t)dim_product(c.cluster) * L.threads_per_cta;
    const char *sk = getenv("DSM_EMU_STACK_KB");
    size_t stack = (size_t)(sk && atoi(sk) > 0 ? atoi(sk) : 64) * 1024;
    if (pool.count < nthreads || pool.size < stack) {
        fiber_stacks_free(&pool);
        if (fiber_stacks_init(&pool, nthreads, stack) != 0) {
            fprintf(stderr, "dsm-emu: cannot reserve %zu thread stacks of %zu KB\n", nthreads, stack / 1024);
            emu_fault_restore();
            return dsmErrorMemoryAllocation;
        }
    }
    L.stacks = pool;
    emu_hook = hooks;
    emu_cur = &L;
    /* plain accesses to the static shared section are device accesses (plain_access.c) */
    emu_section_lo = (uintptr_t)L.section;
    emu_section_len = L.section ? static_bytes : 0;

    unsigned char *initial = NULL, *first = NULL, *now = NULL;
    size_t total = 0;
    int ns = nschedules;
    if (emu_globals_bytes() > ((size_t)256 << 20))
        ns = 1; /* too big to run twice: one schedule only */
    emu_globals_snapshot(&initial, &total);
    emu_counts_launch_start(&L);
    for (int s = 0; s < ns && !err; s++) {
        L.sched = schedules[s];
        if (s > 0)
            emu_globals_restore(initial);
        err = run_grid(&L);
        emu_counts_schedule_done();
        if (err)
            break;
        err = check_poison(initial);
        if (err)
            break;
        if (ns > 1) {
            if (s == 0)
                emu_globals_snapshot(&first, &total);
            else {
                emu_globals_snapshot(&now, &total);
                err = compare_schedules(&L, &schedules[0], first, now);
                free(now);
                now = NULL;
            }
        }
    }
    free(initial);
    free(first);
    emu_global_race_reset(true);
    emu_gpu_reset();
    emu_shadow_pool_free();
    if (nthreads > 4096)
        fiber_stacks_discard(&pool);
    emu_fault_restore();
    emu_cur = NULL;
    emu_section_lo = 0;
    emu_section_len = 0;
    if (err && pending_error == dsmSuccess)
        pending_error = err;
    return dsmSuccess;
}

dsm_error_t dsm_device_synchronize(void)
{
    dsm_error_t e = pending_error;
    pending_error = dsmSuccess;
    return e;
}

dsm_error_t dsm_launch_sync(const dsm_launch_config *cfg, dsm_kernel_t kernel, void **args)
{
    dsm_error_t e = dsm_launch(cfg, kernel, args);
    if (e)
        return e;
    return dsm_device_synchronize();
}

/* For host_emu.c: memcpy back to the host reports a pending execution error, as cudaMemcpy does. */
dsm_error_t emu_take_pending_error(void) { return dsm_device_synchronize(); }
