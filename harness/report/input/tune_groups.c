/* tune_groups.c - the tuned problems of the report's data: rows of a profile named
 * tune* grouped by GPU, kernel, size, dtype and cache mode, each with its fastest
 * configuration, its cuBLAS reference and its rows counted by status. Published
 * rows of a tuned kernel and size (the Kernel Tuner notebook's GTX TITAN X times)
 * join as groups of their own, so that the section and the figure can set them
 * beside the measured. */
#include "report/input/tune_groups.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "results/csv_name.h"

bool mmb_report_tune_group_row(const struct mmb_report_row *r)
{
    return mmb_csv_name_tuning(r->r.profile);
}

static bool same_place(const struct mmb_report_tune_group *g, const struct mmb_report_row *r)
{
    return r->gpu == g->gpu && r->r.m == g->m && r->r.n == g->n && r->r.k == g->k && !strcmp(r->r.dtype, g->dtype) &&
           !strcmp(r->r.cache, g->cache);
}

bool mmb_report_tune_group_member(const struct mmb_report_tune_group *g, const struct mmb_report_row *r)
{
    return r->kernel == g->kernel && same_place(g, r) && mmb_report_tune_group_row(r) == g->tuned &&
           (g->tuned || r->published);
}

bool mmb_report_tune_group_same_problem(const struct mmb_report_tune_group *a, const struct mmb_report_tune_group *b)
{
    return a->kernel == b->kernel && a->m == b->m && a->n == b->n && a->k == b->k && !strcmp(a->dtype, b->dtype);
}

bool mmb_report_tune_groups_any(const struct mmb_report *rep)
{
    for (size_t i = 0; i < rep->data.nrows; i++)
        if (mmb_report_tune_group_row(&rep->data.rows[i]) && (int)rep->data.rows[i].kernel != rep->data.cublas)
            return true;
    return false;
}

size_t mmb_report_tune_groups(const struct mmb_report_data *d, struct mmb_report_tune_group *gs)
{
    size_t n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < d->nrows; i++) {
            const struct mmb_report_row *r = &d->rows[i];
            bool tuned = mmb_report_tune_group_row(r);
            if ((int)r->kernel == d->cublas || (pass == 0 ? !tuned : tuned || !r->published))
                continue;
            size_t j = 0;
            while (j < n && !mmb_report_tune_group_member(&gs[j], r))
                j++;
            if (j == n) {
                if (n == MMB_REPORT_TUNE_GROUPS_MAX)
                    continue;
                struct mmb_report_tune_group g = {.gpu = r->gpu, .kernel = r->kernel, .m = r->r.m, .n = r->r.n,
                                                  .k = r->r.k, .tuned = pass == 0, .profile = r->profile};
                snprintf(g.dtype, sizeof g.dtype, "%s", r->r.dtype);
                snprintf(g.cache, sizeof g.cache, "%s", r->r.cache);
                /* published rows join a kernel and size that was tuned, nothing else */
                bool tuned_here = pass == 0;
                for (size_t t = 0; t < n && !tuned_here; t++)
                    tuned_here = gs[t].tuned && mmb_report_tune_group_same_problem(&gs[t], &g);
                if (!tuned_here)
                    continue;
                gs[n++] = g;
            }
            struct mmb_report_tune_group *g = &gs[j];
            if ((unsigned)r->r.status < MMB_STATUS_COUNT)
                g->by_status[r->r.status]++;
            if (r->r.status == MMB_STATUS_OK && isfinite(r->r.time_ms_median) &&
                (!g->best || r->r.time_ms_median < d->rows[g->best - 1].r.time_ms_median))
                g->best = i + 1;
        }
    /* cuBLAS of the group's own run first: another profile's was measured at another time */
    for (size_t j = 0; j < n; j++)
        for (int own = 1; own >= 0 && !gs[j].cublas; own--)
            for (size_t i = 0; i < d->nrows; i++) {
                const struct mmb_report_row *r = &d->rows[i];
                if ((int)r->kernel == d->cublas && r->r.status == MMB_STATUS_OK && same_place(&gs[j], r) &&
                    (!own || r->profile == gs[j].profile) &&
                    (!gs[j].cublas || r->r.time_ms_median < d->rows[gs[j].cublas - 1].r.time_ms_median))
                    gs[j].cublas = i + 1;
            }
    return n;
}
