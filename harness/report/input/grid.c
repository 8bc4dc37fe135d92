/* grid.c - a kernel's tuning landscape for the report's heatmaps and grid tables.
 * Two parameters: one per axis. More: the column is the parameter that leaves the
 * fewest cells empty (and then the fewest rows), and each row is one combination of
 * the others that the space allows, so that the restrictions' holes do not fill
 * the figure (seed 002's space: rows (block_size_x, block_size_y, tile_size_y),
 * columns tile_size_x, 44 cells, none restricted). */
#include "report/input/grid.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/params.h"
#include "report/input/labels.h"
#include "report/input/select.h"

#define PARAMS_MAX 16

struct params {
    char names[PARAMS_MAX][MMB_REPORT_NAME_MAX];
    double values[PARAMS_MAX];
    size_t n;
};

/* "a=1;b=2" -> names and values. False when the text is not name=integer pairs. */
static bool params_parse(const char *text, struct params *p)
{
    p->n = 0;
    struct mmb_params_item item;
    int more;
    for (const char *s = text; (more = mmb_params_next(&s, &item)) != 0;) {
        if (more < 0 || p->n == PARAMS_MAX || item.name_len >= MMB_REPORT_NAME_MAX)
            return false;
        snprintf(p->names[p->n], MMB_REPORT_NAME_MAX, "%.*s", (int)item.name_len, item.name);
        p->values[p->n++] = (double)item.value;
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

/* Same GPU, kernel, shape, dtype and cache mode; any status and profile. */
static bool row_in_place(const struct mmb_report_data *d, const struct mmb_report_row *rr, size_t gpu,
                         size_t kernel, const struct mmb_report_shape *s)
{
    const struct mmb_row *r = &rr->r;
    return rr->gpu == gpu && rr->kernel == kernel && s->m == r->m && s->n == r->n && s->k == r->k &&
           strcmp(r->dtype, d->dtype) == 0 && (!d->cache[0] || !r->cache[0] || strcmp(d->cache, r->cache) == 0);
}

static bool row_ok_timed(const struct mmb_report_row *rr)
{
    return rr->r.status == MMB_STATUS_OK && isfinite(rr->r.time_ms_median) && rr->r.time_ms_median > 0;
}

/* The profile with the most configurations there that are not restricted, the main
 * one first of equals, and its fastest ok row; false when none has an ok row. */
static bool profile_pick(const struct mmb_report_data *d, size_t gpu, size_t kernel, const struct mmb_report_shape *s,
                         size_t *profile, size_t *best)
{
    size_t count[MMB_REPORT_PROFILES_MAX] = {0}, top = 0;
    bool any = false;
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_report_row *rr = &d->rows[i];
        if (rr->profile < MMB_REPORT_PROFILES_MAX && row_in_place(d, rr, gpu, kernel, s) &&
            rr->r.status != MMB_STATUS_RESTRICTED)
            count[rr->profile]++;
    }
    for (size_t p = 0; p < d->nprofiles && p < MMB_REPORT_PROFILES_MAX; p++)
        if (count[p] > top || (count[p] == top && count[p] && (int)p == d->main)) {
            top = count[p];
            *profile = p;
        }
    for (size_t i = 0; top && i < d->nrows; i++) {
        const struct mmb_report_row *rr = &d->rows[i];
        if (rr->profile == *profile && row_in_place(d, rr, gpu, kernel, s) && row_ok_timed(rr) &&
            (!any || rr->r.time_ms_median < d->rows[*best].r.time_ms_median)) {
            *best = i;
            any = true;
        }
    }
    return any;
}

/* The configurations of the slice that are not restricted. */
struct slice {
    struct params *p;  /* [n] */
    size_t *row;       /* [n]: row index */
    size_t n;
};

/* The rows of the profile at that place. */
static bool row_in_slice(const struct mmb_report_data *d, const struct mmb_report_row *rr, size_t gpu, size_t kernel,
                         const struct mmb_report_shape *s, size_t profile)
{
    return rr->profile == profile && row_in_place(d, rr, gpu, kernel, s);
}

static bool slice_collect(const struct mmb_report_data *d, size_t gpu, size_t kernel, const struct mmb_report_shape *s,
                          size_t profile, const struct params *bp, struct slice *sl, size_t *restricted)
{
    size_t cap = 0;
    for (size_t i = 0; i < d->nrows; i++)
        cap += row_in_slice(d, &d->rows[i], gpu, kernel, s, profile);
    sl->p = malloc((cap ? cap : 1) * sizeof *sl->p);
    sl->row = malloc((cap ? cap : 1) * sizeof *sl->row);
    sl->n = 0;
    if (!sl->p || !sl->row)
        return false;
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_report_row *rr = &d->rows[i];
        if (!row_in_slice(d, rr, gpu, kernel, s, profile))
            continue;
        if (rr->r.status == MMB_STATUS_RESTRICTED) {
            (*restricted)++;
            continue;
        }
        if (!params_parse(rr->r.params, &sl->p[sl->n]) || !params_same_names(&sl->p[sl->n], bp))
            return false;
        sl->row[sl->n++] = i;
    }
    return true;
}

/* Do a and b agree on every parameter but x? */
static bool same_row(const struct params *a, const struct params *b, size_t x)
{
    for (size_t j = 0; j < a->n; j++)
        if (j != x && a->values[j] != b->values[j])
            return false;
    return true;
}

/* The representative configurations of the rows (one per combination of the
 * parameters other than x) and the distinct values of x; false when either
 * outgrows the grid. cells counts distinct (row, x) pairs. */
static bool layout(const struct slice *sl, size_t x, size_t *reps, size_t *nrows, double *xs, size_t *nx, size_t *cells)
{
    *nrows = *nx = *cells = 0;
    bool seen[MMB_REPORT_GRID_MAX][MMB_REPORT_GRID_MAX] = {{false}};
    for (size_t i = 0; i < sl->n; i++) {
        size_t r = 0;
        while (r < *nrows && !same_row(&sl->p[reps[r]], &sl->p[i], x))
            r++;
        if (r == *nrows) {
            if (*nrows == MMB_REPORT_GRID_MAX)
                return false;
            reps[(*nrows)++] = i;
        }
        double v = sl->p[i].values[x];
        size_t c = 0;
        while (c < *nx && xs[c] != v)
            c++;
        if (c == *nx) {
            if (*nx == MMB_REPORT_GRID_MAX)
                return false;
            xs[(*nx)++] = v;
        }
        if (!seen[r][c]) {
            seen[r][c] = true;
            (*cells)++;
        }
    }
    return true;
}

static int double_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Rows ordered by their parameters' values (the column parameter x aside), in the
 * profile's order. */
struct rep_order {
    const struct slice *sl;
    size_t x;
};

static int rep_cmp(const void *a, const void *b, void *ctx)
{
    const struct rep_order *o = ctx;
    const struct params *p = &o->sl->p[*(const size_t *)a], *q = &o->sl->p[*(const size_t *)b];
    for (size_t j = 0; j < p->n; j++)
        if (j != o->x && p->values[j] != q->values[j])
            return p->values[j] < q->values[j] ? -1 : 1;
    return 0;
}

/* The column parameter: with two, the first (the other is the rows'); with more,
 * the one that leaves the fewest cells empty, then the fewest rows. */
static bool axis_pick(const struct slice *sl, size_t nparams, size_t *best_x)
{
    size_t reps[MMB_REPORT_GRID_MAX], nrows, nx, cells;
    double xs[MMB_REPORT_GRID_MAX];
    long best_empty = -1;
    size_t best_rows = 0;
    for (size_t x = 0; x < nparams; x++) {
        if (!layout(sl, x, reps, &nrows, xs, &nx, &cells) || nx < 2 || nrows < 2)
            continue;
        long empty = (long)(nrows * nx - cells);
        if (nparams == 2 && x == 1 && best_empty >= 0)
            continue;
        if (best_empty < 0 || empty < best_empty || (empty == best_empty && nrows < best_rows)) {
            best_empty = empty;
            best_rows = nrows;
            *best_x = x;
        }
    }
    return best_empty >= 0;
}

static void labels_fill(const struct slice *sl, const struct params *bp, size_t x, const size_t *reps,
                        struct mmb_report_grid *g)
{
    char names[512] = "", legend_src[512] = "";
    for (size_t j = 0; j < bp->n; j++) {
        if (j == x)
            continue;
        char item[160], ab[96];
        snprintf(item, sizeof item, "%s=0", bp->names[j]);
        mmb_report_label_params(item, ab, sizeof ab);
        ab[strcspn(ab, "=")] = '\0';
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", names[0] ? ", " : "",
                 bp->n == 2 ? bp->names[j] : ab);
        snprintf(legend_src + strlen(legend_src), sizeof legend_src - strlen(legend_src), "%s%s",
                 legend_src[0] ? ";" : "", item);
    }
    snprintf(g->yname, sizeof g->yname, "%s", names);
    if (bp->n > 2)
        mmb_report_label_params_legend(legend_src, g->legend, sizeof g->legend);
    for (size_t r = 0; r < g->ny; r++) {
        const struct params *p = &sl->p[reps[r]];
        g->ylabels[r][0] = '\0';
        for (size_t j = 0; j < p->n; j++)
            if (j != x)
                snprintf(g->ylabels[r] + strlen(g->ylabels[r]), sizeof g->ylabels[r] - strlen(g->ylabels[r]), "%s%g",
                         g->ylabels[r][0] ? ", " : "", p->values[j]);
    }
}

static void cells_fill(const struct mmb_report_data *d, const struct slice *sl, size_t x, const size_t *reps,
                       struct mmb_report_grid *g)
{
    for (size_t iy = 0; iy < MMB_REPORT_GRID_MAX; iy++)
        for (size_t ix = 0; ix < MMB_REPORT_GRID_MAX; ix++)
            g->ms[iy][ix] = NAN;
    for (size_t i = 0; i < sl->n; i++) {
        size_t iy = 0, ix = 0;
        while (iy < g->ny && !same_row(&sl->p[reps[iy]], &sl->p[i], x))
            iy++;
        while (ix < g->nx && g->xs[ix] != sl->p[i].values[x])
            ix++;
        if (iy == g->ny || ix == g->nx)
            continue;
        const struct mmb_report_row *rr = &d->rows[sl->row[i]];
        if (row_ok_timed(rr)) {
            if (isnan(g->ms[iy][ix]) || rr->r.time_ms_median < g->ms[iy][ix])
                g->ms[iy][ix] = rr->r.time_ms_median;
            g->why[iy][ix] = NULL;
        } else if (isnan(g->ms[iy][ix]) && !g->why[iy][ix]) {
            g->why[iy][ix] = mmb_status_text(rr->r.status);
        }
        if ((size_t)(rr - d->rows) == g->best_row) {
            g->best_x = ix;
            g->best_y = iy;
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
    struct params bp;
    if (!mmb_report_select_best(d, gpu, kernel, shape) ||
        !profile_pick(d, gpu, kernel, &d->shapes[shape], &g->profile, &g->best_row) ||
        !params_parse(d->rows[g->best_row].r.params, &bp) || bp.n < 2)
        return false;
    struct slice sl = {NULL, NULL, 0};
    size_t x = 0, reps[MMB_REPORT_GRID_MAX], cells;
    bool ok = slice_collect(d, gpu, kernel, &d->shapes[shape], g->profile, &bp, &sl, &g->restricted) &&
              axis_pick(&sl, bp.n, &x) &&
              layout(&sl, x, reps, &g->ny, g->xs, &g->nx, &cells);
    if (ok) {
        snprintf(g->xname, sizeof g->xname, "%s", bp.names[x]);
        qsort(g->xs, g->nx, sizeof *g->xs, double_cmp);
        qsort_r(reps, g->ny, sizeof *reps, rep_cmp, &(struct rep_order){&sl, x});
        labels_fill(&sl, &bp, x, reps, g);
        cells_fill(d, &sl, x, reps, g);
    }
    free(sl.p);
    free(sl.row);
    return ok && g->cells >= 4;
}
