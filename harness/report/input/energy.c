/* energy.c - the report's energy groups, fronts and throttled rows (energy.h). */
#include "report/input/energy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/throttle.h"

bool mmb_report_energy_row(const struct mmb_report_row *r)
{
    return r->r.status == MMB_STATUS_OK && isfinite(r->r.energy_j) && r->r.energy_j > 0 &&
           isfinite(r->r.time_ms_median) && r->r.time_ms_median > 0;
}

bool mmb_report_energy_any(const struct mmb_report_data *d)
{
    for (size_t i = 0; i < d->nrows; i++)
        if (mmb_report_energy_row(&d->rows[i]))
            return true;
    return false;
}

bool mmb_report_energy_throttled(const struct mmb_report_row *r)
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
        g->throttled += mmb_report_energy_throttled(&d->rows[g->rows[i]]);
    }
}

void mmb_report_energy_groups_free(struct mmb_report_energy_group *g, size_t n)
{
    for (size_t i = 0; g && i < n; i++) {
        free(g[i].rows);
        free(g[i].front);
    }
    free(g);
}

long mmb_report_energy_groups(const struct mmb_report_data *d, int role, struct mmb_report_energy_group **out)
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
        if (taken[i] || !mmb_report_energy_row(first) ||
            (role >= 0 && (int)d->profiles[first->profile].role != role))
            continue;
        size_t m = 0;
        for (size_t j = i; j < d->nrows; j++)
            if (!taken[j] && mmb_report_energy_row(&d->rows[j]) && same_group(first, &d->rows[j])) {
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
    mmb_report_energy_groups_free(groups, n);
    return -1;
}
