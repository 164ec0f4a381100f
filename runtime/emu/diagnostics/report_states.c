/* report_states.c: the lines of a deadlock or stuck report that say what each CTA's threads are doing. */
#include <stdio.h>
#include <stdlib.h>

#include "emu_diagnostics.h"

static const char *state_name(emu_thread_state s)
{
    switch (s) {
    case EMU_RUNNABLE: return "runnable";
    case EMU_AT_SYNCTHREADS: return "waiting at __syncthreads";
    case EMU_AT_CLUSTER_WAIT: return "waiting at barrier.cluster.wait";
    case EMU_AT_MBARRIER: return "waiting on an mbarrier";
    case EMU_SPINNING: return "polling a flag nothing changes";
    case EMU_EXITED: return "exited";
    }
    return "?";
}

/* One line per CTA, grouping threads by state and source line. */
void emu_report_cta_states(emu_launch *L)
{
    for (uint32_t r = 0; r < L->cluster.ncta; r++) {
        emu_cta *c = &L->cluster.ctas[r];
        char line[1024];
        size_t len = 0;
        line[0] = '\0';
        bool *done = calloc(c->nthreads, sizeof *done);
        for (uint32_t i = 0; i < c->nthreads && len < sizeof line - 200; i++) {
            if (done[i]) continue;
            emu_thread *a = &c->threads[i];
            uint32_t count = 0, first = i, last = i;
            for (uint32_t j = i; j < c->nthreads; j++) {
                emu_thread *b = &c->threads[j];
                if (!done[j] && b->state == a->state &&
                    (a->state == EMU_EXITED || (b->site.line == a->site.line && b->site.file == a->site.file))) {
                    done[j] = true;
                    count++;
                    last = j;
                }
            }
            len += (size_t)snprintf(line + len, sizeof line - len, "%s%u thread%s (%u..%u) %s", len ? "; " : "",
                                    count, count == 1 ? "" : "s", first, last, state_name(a->state));
            if (a->state == EMU_SPINNING) {
                char w[256];
                len += (size_t)snprintf(line + len, sizeof line - len, " at %s",
                                        emu_site_short(a->poll_site, w, sizeof w));
            } else if (a->state != EMU_EXITED && a->site.file)
                len += (size_t)snprintf(line + len, sizeof line - len, " at %s:%d", a->site.file, a->site.line);
            if (a->state == EMU_AT_MBARRIER)
                len += (size_t)snprintf(line + len, sizeof line - len, " (parity %u)", a->mbar_parity);
        }
        free(done);
        char label[16];
        snprintf(label, sizeof label, "rank %u", r);
        emu_report_line(label, "%s", line);
    }
}
