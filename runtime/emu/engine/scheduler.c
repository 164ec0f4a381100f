/* scheduler.c: runs one cluster's threads as fibers under a deterministic schedule; finds deadlocks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu_engine.h"

emu_hooks emu_hook;

static uint64_t rng_next(uint64_t *s)
{
    /* splitmix64: small, good enough, reproducible from the seed */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void queue_push(emu_cta *c, uint32_t tid)
{
    c->queue[(c->q_head + c->q_len) % c->nthreads] = tid;
    c->q_len++;
}

static uint32_t queue_pop_at(emu_cta *c, uint32_t pos)
{
    uint32_t i = (c->q_head + pos) % c->nthreads;
    uint32_t h = c->q_head % c->nthreads;
    uint32_t tid = c->queue[i];
    c->queue[i] = c->queue[h];
    c->q_head = (c->q_head + 1) % c->nthreads;
    c->q_len--;
    return tid;
}

void emu_wake(emu_thread *t)
{
    t->state = EMU_RUNNABLE;
    queue_push(t->cta, t->tid);
}

void emu_activate_cta(emu_launch *L, emu_cta *c)
{
    if (L->section_owner == c || !L->static_bytes)
        return;
    if (L->section_owner && !L->section_owner->exited)
        memcpy(L->section_owner->window, L->section, L->static_bytes);
    memcpy(L->section, c->window, L->static_bytes);
    L->section_owner = c;
}

/* Switches from the running thread back to the scheduler. */
static void to_scheduler(emu_thread *t)
{
    emu_launch *L = emu_cur;
    if (emu_ww_pending && !emu_race_settle(L))
        emu_abort_launch();
    fiber_switch(&t->ctx, &L->sched_ctx);
    /* resumed: the scheduler made us current again */
}

void emu_schedule_point(emu_thread *t)
{
    emu_launch *L = emu_cur;
    if (L->sched.kind == EMU_SCHED_INTERLEAVE ||
        (L->sched.kind == EMU_SCHED_RANDOM && (L->switches * 2654435761u + t->tid) % 8 == 0))
        emu_yield(t);
}

void emu_block(emu_thread *t, emu_thread_state state)
{
    t->state = state;
    to_scheduler(t);
}

void emu_yield(emu_thread *t)
{
    emu_wake(t);
    to_scheduler(t);
}

static emu_thread *pick(emu_launch *L, uint32_t *last_cta)
{
    emu_cluster *cl = &L->cluster;
    int n = (int)cl->ncta;
    int chosen = -1;
    switch (L->sched.kind) {
    case EMU_SCHED_ASC:
        for (int r = 0; r < n && chosen < 0; r++)
            if (cl->ctas[r].q_len) chosen = r;
        break;
    case EMU_SCHED_DESC:
        for (int r = n - 1; r >= 0 && chosen < 0; r--)
            if (cl->ctas[r].q_len) chosen = r;
        break;
    case EMU_SCHED_INTERLEAVE:
        for (int k = 1; k <= n && chosen < 0; k++) {
            int r = (int)((*last_cta + (uint32_t)k) % (uint32_t)n);
            if (cl->ctas[r].q_len) chosen = r;
        }
        break;
    case EMU_SCHED_RANDOM: {
        if (*last_cta < (uint32_t)n && cl->ctas[*last_cta].q_len && (rng_next(&L->rng) & 1))
            chosen = (int)*last_cta;
        else {
            int ready = 0;
            for (int r = 0; r < n; r++)
                if (cl->ctas[r].q_len) ready++;
            if (ready) {
                int k = (int)(rng_next(&L->rng) % (uint64_t)ready);
                for (int r = 0; r < n; r++)
                    if (cl->ctas[r].q_len && k-- == 0) { chosen = r; break; }
            }
        }
        break;
    }
    }
    if (chosen < 0)
        return NULL;
    emu_cta *c = &cl->ctas[chosen];
    uint32_t pos = 0;
    if (L->sched.kind == EMU_SCHED_RANDOM)
        pos = (uint32_t)(rng_next(&L->rng) % c->q_len);
    *last_cta = (uint32_t)chosen;
    return &c->threads[queue_pop_at(c, pos)];
}

static void thread_main(void *arg)
{
    emu_thread *t = arg;
    emu_launch *L = emu_cur;
    L->kernel->entry(L->args);
    emu_hook.thread_exit(L, t);
    to_scheduler(t);
    abort(); /* an exited thread is never resumed */
}

static emu_thread *first_spinner(emu_launch *L)
{
    for (uint32_t r = 0; r < L->cluster.ncta; r++)
        for (uint32_t i = 0; i < L->cluster.ctas[r].nthreads; i++)
            if (L->cluster.ctas[r].threads[i].state == EMU_SPINNING)
                return &L->cluster.ctas[r].threads[i];
    return NULL;
}

/* Nothing else can run: wakes the pollers whose flag changed or that missed
 * progress since their poll. False when none may (a livelock). */
static bool wake_spinners(emu_launch *L)
{
    bool any = false;
    for (uint32_t r = 0; r < L->cluster.ncta; r++)
        for (uint32_t i = 0; i < L->cluster.ctas[r].nthreads; i++) {
            emu_thread *t = &L->cluster.ctas[r].threads[i];
            if (t->state == EMU_SPINNING && (t->poll_epoch != L->progress || !emu_hook.poll_unchanged(L, t))) {
                t->poll_key = 0; /* its next poll yields first */
                emu_wake(t);
                any = true;
            }
        }
    return any;
}

static void report_deadlock(emu_launch *L)
{
    emu_thread *spin = first_spinner(L);
    if (spin) {
        if (!emu_report_begin(DSM_REPORT_DEADLOCK, dsmErrorDeadlock,
                              "livelock: threads poll a flag that no thread will ever change"))
            return;
        emu_report_who(L, spin);
        emu_report_site("poll", spin->poll_site);
        if (spin->poll_cta >= 0)
            emu_report_line("flag", "rank %d's shared memory, offset 0x%zx, holds %u", spin->poll_cta,
                            spin->poll_off, spin->poll_value);
        else
            emu_report_line("flag", "global memory %p holds %u", (const void *)spin->poll_ptr, spin->poll_value);
    } else if (!emu_report_begin(DSM_REPORT_DEADLOCK, dsmErrorDeadlock,
                                 "deadlock: every live thread of the cluster is blocked"))
        return;
    emu_report_line("cluster", "(%u,%u,%u), barrier phase %u, %u live threads", L->cluster.id.x, L->cluster.id.y,
                    L->cluster.id.z, L->cluster.phase, L->cluster.live_threads);
    emu_report_cta_states(L);
    emu_report_line("on GPU", "the kernel hangs (no error is returned; the process never finishes)");
    if (spin)
        emu_report_line("fix", "the thread that should set the flag never does, or waits itself (on a barrier or "
                               "on another flag): check who writes the flag and that both sides agree on its value");
    else
        emu_report_line("fix", "every thread must reach the same barriers: look for an arrive, __syncthreads or "
                               "mbarrier arrival that some threads skip");
    emu_report_end();
}

static void setup_cta(emu_launch *L, emu_cta *c, uint32_t rank, dsm_dim3 ctaid)
{
    dsm_launch_config *cfg = &L->cfg;
    c->rank = rank;
    c->cluster_ctaid = ctaid;
    c->block_idx.x = L->cluster.id.x * cfg->cluster.x + ctaid.x;
    c->block_idx.y = L->cluster.id.y * cfg->cluster.y + ctaid.y;
    c->block_idx.z = L->cluster.id.z * cfg->cluster.z + ctaid.z;
    c->nthreads = L->threads_per_cta;
    c->live = c->nthreads;
    c->threads = calloc(c->nthreads, sizeof *c->threads);
    c->queue = calloc(c->nthreads, sizeof *c->queue);
    if (!c->threads || !c->queue || emu_window_alloc(L, c) != 0) {
        fprintf(stderr, "dsm-emu: out of memory for a CTA of %u threads\n", c->nthreads);
        abort();
    }
    emu_publication_start(L, c);
    for (uint32_t k = 0; k < EMU_MAX_CLUSTER; k++)
        c->vc[k] = 0;
    c->vc[rank] = 1;
    for (uint32_t i = 0; i < c->nthreads; i++) {
        emu_thread *t = &c->threads[i];
        t->cta = c;
        t->tid = i;
        t->epoch = 1;
        t->poll_cta = -1;
        t->relaxed_loc = -1;
        t->view.thread_idx.x = i % cfg->block.x;
        t->view.thread_idx.y = (i / cfg->block.x) % cfg->block.y;
        t->view.thread_idx.z = i / (cfg->block.x * cfg->block.y);
        t->view.block_idx = c->block_idx;
        t->view.block_dim = cfg->block;
        t->view.grid_dim = cfg->grid;
        fiber_make(&t->ctx, &L->stacks, (size_t)rank * c->nthreads + i, thread_main, t);
        emu_wake(t);
    }
}

void emu_cluster_free(emu_launch *L)
{
    emu_cluster *cl = &L->cluster;
    for (uint32_t r = 0; r < cl->ncta; r++) {
        emu_cta *c = &cl->ctas[r];
        emu_window_free(c);
        emu_shadow_free(c);
        emu_gpu_cta_free(c);
        emu_publication_free(c);
        for (uint32_t i = 0; c->threads && i < c->nthreads; i++)
            emu_tclock_free(&c->threads[i].known);
        free(c->threads);
        free(c->queue);
        memset(c, 0, sizeof *c);
    }
    for (uint32_t i = 0; i < cl->nmbars; i++) {
        emu_tclock_free(&cl->mbars[i].tvc);
        emu_parity_free(&cl->mbars[i]);
    }
    free(cl->mbars);
    cl->mbars = NULL;
    for (uint32_t i = 0; i < cl->nlocs; i++)
        emu_tclock_free(&cl->locs[i].tvc);
    free(cl->locs);
    cl->locs = NULL;
    free(cl->ops);
    cl->ops = NULL;
    emu_hook.cluster_free(L);
    cl->nops = cl->cap_ops = 0;
    cl->nlocs = cl->cap_locs = 0;
    cl->nmbars = cl->cap_mbars = 0;
    cl->ncta = 0;
    L->section_owner = NULL;
    emu_self_thread = NULL;
    dsm_emu_self = NULL;
}

dsm_error_t emu_run_cluster(emu_launch *L)
{
    emu_cluster *cl = &L->cluster;
    dsm_dim3 cd = L->cfg.cluster;
    cl->ncta = cd.x * cd.y * cd.z;
    cl->phase = 0;
    cl->live_threads = cl->ncta * L->threads_per_cta;
    cl->pending = cl->live_threads;
    memset(cl->phase_vc, 0, sizeof cl->phase_vc);
    for (uint32_t z = 0, r = 0; z < cd.z; z++)
        for (uint32_t y = 0; y < cd.y; y++)
            for (uint32_t x = 0; x < cd.x; x++, r++)
                setup_cta(L, &cl->ctas[r], r, DSM_DIM3(x, y, z));

    uint32_t last = L->sched.kind == EMU_SCHED_INTERLEAVE ? cl->ncta - 1 : 0;
    for (;;) {
        /* a random schedule also lands copies in flight between two threads' turns, one at a time */
        if (L->sched.kind == EMU_SCHED_RANDOM && L->cluster.nops && (rng_next(&L->land_rng) & 3) == 0)
            (void)emu_hook.progress(L);
        emu_thread *t = pick(L, &last);
        /* nothing can run: copies in flight land (all, or one at a time, as the schedule says), pollers whose
         * flag changed wake */
        while (!t && (emu_hook.progress(L) || wake_spinners(L)))
            t = pick(L, &last);
        if (!t)
            break;
        if (L->timeout_pending) {
            emu_watchdog_stop();
            emu_timeout_report(L);
            return emu_report_error();
        }
        emu_activate_cta(L, t->cta);
        L->last_thread = t;
        t->state = EMU_RUNNABLE;
        L->running = t;
        emu_self_thread = t;
        dsm_emu_self = &t->view;
        L->switches++;
        fiber_switch(&L->sched_ctx, &t->ctx);
        emu_self_thread = NULL;
        L->running = NULL;
    }
    if (emu_ww_pending && !emu_race_settle(L))
        return emu_report_error();
    if (cl->live_threads > 0) {
        if (!emu_hook.explain_stuck(L))
            report_deadlock(L);
        return emu_report_error();
    }
    emu_hook.cluster_end(L);
    return emu_report_pending() ? emu_report_error() : dsmSuccess;
}
