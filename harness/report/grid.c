/* grid.c - a kernel's tuning landscape for the report: its median time
 * over the two parameters that vary the most, at one size, the others held at
 * the fastest configuration's values (a slice through the best). */
#include "report/grid.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PARAMS_MAX 16

struct params {
    char names[PARAMS_MAX][MMB_REPORT_NAME_MAX];
    double values[PARAMS_MAX];
    size_t n;
};

/* "a=1;b=2" -> names and values. False when a value is not a number. */
static bool params_parse(const char *text, struct params *p)
{
    p->n = 0;
    const char *s = text;
    while (*s) {
        const char *end = strchr(s, ';');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        const char *eq = memchr(s, '=', len);
        if (!eq || p->n == PARAMS_MAX || (size_t)(eq - s) >= MMB_REPORT_NAME_MAX)
            return false;
        char value[64];
        size_t vlen = len - (size_t)(eq - s) - 1;
        if (vlen == 0 || vlen >= sizeof value)
            return false;
        memcpy(value, eq + 1, vlen);
        value[vlen] = '\0';
        char *vend;
        double v = strtod(value, &vend);
        if (*vend != '\0')
            return false;
        snprintf(p->names[p->n], MMB_REPORT_NAME_MAX, "%.*s", (int)(eq - s), s);
        p->values[p->n++] = v;
        s += len;
        if (*s == ';')
            s++;
    }
    return true;
}

static bool params_same_names(const struct params *a, const struct params *b)
{
    if (a->n != b->n)
        return false;
    for (size_t i = 0; i < a->n; i++)
        if (strcmp(a->names[i], b->names[i]) != 0)
            return false;
    return true;
}

static size_t values_insert(double *vals, size_t n, double v)
{
    size_t i = 0;
    while (i < n && vals[i] < v)
        i++;
    if (i < n && vals[i] == v)
        return n;
    if (n == MMB_REPORT_GRID_MAX)
        return n;
    memmove(vals + i + 1, vals + i, (n - i) * sizeof *vals);
    vals[i] = v;
    return n + 1;
}

static size_t values_find(const double *vals, size_t n, double v)
{
    for (size_t i = 0; i < n; i++)
        if (vals[i] == v)
            return i;
    return n;
}

/* Same GPU, kernel, shape, dtype and cache mode; any status. */
static bool row_in_slice(const struct mmb_report_data *d, const struct mmb_report_row *rr, size_t gpu,
                         size_t kernel, const struct mmb_report_shape *s)
{
    const struct mmb_row *r = &rr->r;
    return rr->gpu == gpu && rr->kernel == kernel && s->m == r->m && s->n == r->n && s->k == r->k &&
           strcmp(r->dtype, d->dtype) == 0 && (!d->cache[0] || !r->cache[0] || strcmp(d->cache, r->cache) == 0);
}

/* Distinct values of each parameter over the ok rows of the slice. False when a
 * row's parameters are not numbers or not the best configuration's names. */
static bool values_collect(const struct mmb_report_data *d, size_t gpu, size_t kernel, const struct mmb_report_shape *s,
                           const struct params *bp, double (*vals)[MMB_REPORT_GRID_MAX], size_t *nvals)
{
    struct params p;
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_report_row *rr = &d->rows[i];
        if (!rr->selected || !row_in_slice(d, rr, gpu, kernel, s))
            continue;
        if (!params_parse(rr->r.params, &p) || !params_same_names(&p, bp))
            return false;
        for (size_t j = 0; j < p.n; j++)
            nvals[j] = values_insert(vals[j], nvals[j], p.values[j]);
    }
    return true;
}

/* The two parameters with the most values, kept in profile order. False when
 * fewer than two vary. */
static bool axes_pick(const struct params *bp, const size_t *nvals, size_t *x, size_t *y)
{
    size_t a = PARAMS_MAX, b = PARAMS_MAX;
    for (size_t j = 0; j < bp->n; j++) {
        if (nvals[j] < 2)
            continue;
        if (a == PARAMS_MAX || nvals[j] > nvals[a]) {
            b = a;
            a = j;
        } else if (b == PARAMS_MAX || nvals[j] > nvals[b]) {
            b = j;
        }
    }
    if (b == PARAMS_MAX)
        return false;
    *x = a < b ? a : b;
    *y = a < b ? b : a;
    return true;
}

/* The slice through the best configuration (parameters x and y free), failed
 * cells included. */
static void slice_fill(const struct mmb_report_data *d, size_t gpu, size_t kernel, const struct mmb_report_shape *s,
                       const struct params *bp, size_t x, size_t y, struct mmb_report_grid *g)
{
    for (size_t iy = 0; iy < MMB_REPORT_GRID_MAX; iy++)
        for (size_t ix = 0; ix < MMB_REPORT_GRID_MAX; ix++)
            g->ms[iy][ix] = NAN;
    struct params p;
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_report_row *rr = &d->rows[i];
        if (!row_in_slice(d, rr, gpu, kernel, s) || !params_parse(rr->r.params, &p) || !params_same_names(&p, bp))
            continue;
        bool on_slice = true;
        for (size_t j = 0; j < p.n; j++)
            if (j != x && j != y && p.values[j] != bp->values[j])
                on_slice = false;
        size_t ix = values_find(g->xs, g->nx, p.values[x]), iy = values_find(g->ys, g->ny, p.values[y]);
        if (!on_slice || ix == g->nx || iy == g->ny)
            continue;
        if (rr->selected) {
            if (isnan(g->ms[iy][ix]) || rr->r.time_ms_median < g->ms[iy][ix])
                g->ms[iy][ix] = rr->r.time_ms_median;
            g->why[iy][ix] = NULL;
        } else if (isnan(g->ms[iy][ix]) && !g->why[iy][ix]) {
            g->why[iy][ix] = mmb_status_text(rr->r.status);
        }
    }
    for (size_t iy = 0; iy < g->ny; iy++)
        for (size_t ix = 0; ix < g->nx; ix++) {
            g->cells += !isnan(g->ms[iy][ix]);
            g->failed += g->why[iy][ix] != NULL;
        }
}

bool mmb_report_grid_build(const struct mmb_report_data *d, size_t gpu, size_t kernel, size_t shape,
                           struct mmb_report_grid *g)
{
    memset(g, 0, sizeof *g);
    const struct mmb_report_row *best = mmb_report_best(d, gpu, kernel, shape);
    if (!best)
        return false;
    const struct mmb_report_shape *s = &d->shapes[shape];
    struct params bp;
    if (!params_parse(best->r.params, &bp) || bp.n < 2)
        return false;
    double vals[PARAMS_MAX][MMB_REPORT_GRID_MAX];
    size_t nvals[PARAMS_MAX] = {0}, x, y;
    if (!values_collect(d, gpu, kernel, s, &bp, vals, nvals) || !axes_pick(&bp, nvals, &x, &y))
        return false;
    snprintf(g->xname, sizeof g->xname, "%s", bp.names[x]);
    snprintf(g->yname, sizeof g->yname, "%s", bp.names[y]);
    memcpy(g->xs, vals[x], nvals[x] * sizeof(double));
    memcpy(g->ys, vals[y], nvals[y] * sizeof(double));
    g->nx = nvals[x];
    g->ny = nvals[y];
    /* the parameters held, as the captions name them */
    for (size_t j = 0, o = 0; j < bp.n; j++) {
        if (j == x || j == y || nvals[j] < 2)
            continue;
        int w = snprintf(g->fixed + o, sizeof g->fixed - o, "%s%s=%g", o ? ", " : "", bp.names[j], bp.values[j]);
        o += w > 0 ? (size_t)w : 0;
        if (o >= sizeof g->fixed)
            break;
    }
    slice_fill(d, gpu, kernel, s, &bp, x, y, g);
    g->best_x = values_find(g->xs, g->nx, bp.values[x]);
    g->best_y = values_find(g->ys, g->ny, bp.values[y]);
    g->best_row = (size_t)(best - d->rows);
    return g->cells >= 4;
}
