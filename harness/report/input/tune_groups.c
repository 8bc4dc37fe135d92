/* tune_groups.c - the tuned problems of the report's data: rows of a tuning profile
 * grouped by profile, GPU, kernel, size, dtype and cache mode (two profiles are two
 * protocols and purposes, never one set of configurations), each with its fastest
 * configuration, its cuBLAS reference and its rows counted by status. Published
 * rows of a tuned kernel and size (the Kernel Tuner notebook's GTX TITAN X times)
 * join as groups of their own, so that the section and the figure can set them
 * beside the measured. A profile whose [tune] objective includes energy is a search
 * for the time/energy front: its rows are the Energy efficiency section's groups, not
 * tuned groups. Also the groups of configurations with energy, their fronts and
 * the throttled rows (tune_groups.h). */
#include "report/input/tune_groups.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/throttle.h"
#include "results/csv_name.h"

bool mmb_report_tune_group_row(const struct mmb_report_data *d, const struct mmb_report_row *r)
{
    return mmb_csv_name_tuning(r->r.profile) &&
           !(r->profile < d->nprofiles && d->profiles[r->profile].energy_objective);
}

static bool same_place(const struct mmb_report_tune_group *g, const struct mmb_report_row *r)
{
    return r->gpu == g->gpu && r->r.m == g->m && r->r.n == g->n && r->r.k == g->k && !strcmp(r->r.dtype, g->dtype) &&
           !strcmp(r->r.cache, g->cache);
}

bool mmb_report_tune_group_member(const struct mmb_report_data *d, const struct mmb_report_tune_group *g,
                                   const struct mmb_report_row *r)
{
    return r->kernel == g->kernel && same_place(g, r) &&
           (g->tuned ? mmb_report_tune_group_row(d, r) && r->profile == g->profile
                     : !mmb_csv_name_tuning(r->r.profile) && r->published);
}

bool mmb_report_tune_group_same_problem(const struct mmb_report_tune_group *a, const struct mmb_report_tune_group *b)
{
    return a->kernel == b->kernel && a->m == b->m && a->n == b->n && a->k == b->k && !strcmp(a->dtype, b->dtype) &&
           (!a->tuned || !b->tuned || a->profile == b->profile);
}

bool mmb_report_tune_groups_any(const struct mmb_report *rep)
{
    for (size_t i = 0; i < rep->data.nrows; i++)
        if (mmb_report_tune_group_row(&rep->data, &rep->data.rows[i]) &&
            (int)rep->data.rows[i].kernel != rep->data.cublas)
            return true;
    return false;
}

size_t mmb_report_tune_groups(const struct mmb_report_data *d, struct mmb_report_tune_group *gs)
{
    size_t n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < d->nrows; i++) {
            const struct mmb_report_row *r = &d->rows[i];
            bool tuned = mmb_report_tune_group_row(d, r);
            if ((int)r->kernel == d->cublas || (pass == 0 ? !tuned : mmb_csv_name_tuning(r->r.profile) || !r->published))
                continue;
            size_t j = 0;
            while (j < n && !mmb_report_tune_group_member(d, &gs[j], r))
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

/* ---- energy ---- */

bool mmb_report_tune_group_energy_row(const struct mmb_report_row *r)
{
    return r->r.status == MMB_STATUS_OK && isfinite(r->r.energy_j) && r->r.energy_j > 0 &&
           isfinite(r->r.time_ms_median) && r->r.time_ms_median > 0;
}

bool mmb_report_tune_group_energy_any(const struct mmb_report_data *d)
{
    for (size_t i = 0; i < d->nrows; i++)
        if (mmb_report_tune_group_energy_row(&d->rows[i]))
            return true;
    return false;
}

bool mmb_report_tune_group_throttled(const struct mmb_report_row *r)
{
    return mmb_throttle_text_throttled(r->r.throttle);
}

static bool same_group(const struct mmb_report_row *a, const struct mmb_report_row *b)
{
    return a->gpu == b->gpu && a->profile == b->profile && a->kernel == b->kernel && a->r.m == b->r.m &&
           a->r.n == b->r.n && a->r.k == b->r.k && !strcmp(a->r.dtype, b->r.dtype) && !strcmp(a->r.cache, b->r.cache);
}

static const struct mmb_report_data *sort_data; /* qsort has no context */

static int by_time(const void *pa, const void *pb)
{
    const struct mmb_report_row *a = &sort_data->rows[*(const size_t *)pa], *b = &sort_data->rows[*(const size_t *)pb];
    if (a->r.time_ms_median != b->r.time_ms_median)
        return a->r.time_ms_median < b->r.time_ms_median ? -1 : 1;
    return *(const size_t *)pa < *(const size_t *)pb ? -1 : *(const size_t *)pa > *(const size_t *)pb;
}

/* The front over rows sorted by time: a row is on it when it uses less energy than
 * every faster row (of equal times, the first). */
static void group_front(const struct mmb_report_data *d, struct mmb_report_energy_group *g)
{
    double least = INFINITY;
    g->fastest = 0;
    g->frugal = 0;
    for (size_t i = 0; i < g->n; i++) {
        const struct mmb_row *r = &d->rows[g->rows[i]].r;
        g->front[i] = r->energy_j < least;
        if (g->front[i]) {
            least = r->energy_j;
            g->frugal = i;
            g->nfront++;
        }
        g->throttled += mmb_report_tune_group_throttled(&d->rows[g->rows[i]]);
    }
}

void mmb_report_tune_group_energy_free(struct mmb_report_energy_group *g, size_t n)
{
    for (size_t i = 0; g && i < n; i++) {
        free(g[i].rows);
        free(g[i].front);
    }
    free(g);
}

long mmb_report_tune_group_energy(const struct mmb_report_data *d, int role, struct mmb_report_energy_group **out)
{
    *out = NULL;
    bool *taken = calloc(d->nrows ? d->nrows : 1, sizeof *taken);
    size_t *members = malloc((d->nrows ? d->nrows : 1) * sizeof *members);
    struct mmb_report_energy_group *groups = NULL;
    size_t n = 0, cap = 0;
    if (!taken || !members)
        goto oom;
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_report_row *first = &d->rows[i];
        if (taken[i] || !mmb_report_tune_group_energy_row(first) ||
            (role >= 0 && (int)d->profiles[first->profile].role != role))
            continue;
        size_t m = 0;
        for (size_t j = i; j < d->nrows; j++)
            if (!taken[j] && mmb_report_tune_group_energy_row(&d->rows[j]) && same_group(first, &d->rows[j])) {
                taken[j] = true;
                members[m++] = j;
            }
        if (m < MMB_REPORT_ENERGY_GROUP_MIN)
            continue;
        if (n == cap) {
            size_t c = cap ? 2 * cap : 8;
            struct mmb_report_energy_group *more = realloc(groups, c * sizeof *more);
            if (!more)
                goto oom;
            groups = more;
            cap = c;
        }
        struct mmb_report_energy_group *g = &groups[n];
        memset(g, 0, sizeof *g);
        g->rows = malloc(m * sizeof *g->rows);
        g->front = calloc(m, sizeof *g->front);
        if (!g->rows || !g->front) {
            free(g->rows);
            free(g->front);
            goto oom;
        }
        n++;
        memcpy(g->rows, members, m * sizeof *members);
        g->n = m;
        g->gpu = first->gpu;
        g->kernel = first->kernel;
        g->profile = first->profile;
        g->shape = (struct mmb_report_shape){first->r.m, first->r.n, first->r.k};
        sort_data = d;
        qsort(g->rows, m, sizeof *g->rows, by_time);
        group_front(d, g);
    }
    free(taken);
    free(members);
    *out = groups;
    return (long)n;
oom:
    free(taken);
    free(members);
    mmb_report_tune_group_energy_free(groups, n);
    return -1;
}

bool mmb_report_tune_group_energy_listed(const struct mmb_report_data *d, const struct mmb_report_energy_group *g)
{
    if (d->profiles[g->profile].role == MMB_REPORT_ROLE_TUNING)
        return true;
    if ((int)g->profile != d->main || d->ref < 0)
        return false;
    const struct mmb_report_shape *ref = &d->shapes[d->ref];
    return g->shape.m == ref->m && g->shape.n == ref->n && g->shape.k == ref->k;
}

const struct mmb_report_energy_group *mmb_report_tune_group_energy_top(const struct mmb_report_data *d,
                                                                       const struct mmb_report_energy_group *g,
                                                                       size_t n)
{
    const struct mmb_report_energy_group *top = NULL;
    double top_saved = -1;
    for (size_t i = 0; i < n; i++) {
        if (!mmb_report_tune_group_energy_listed(d, &g[i]))
            continue;
        double saved = 1 - d->rows[g[i].rows[g[i].frugal]].r.energy_j / d->rows[g[i].rows[g[i].fastest]].r.energy_j;
        if (saved > top_saved) {
            top_saved = saved;
            top = &g[i];
        }
    }
    return top;
}
