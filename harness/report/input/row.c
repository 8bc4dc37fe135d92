/* row.c - the values of a report row that figures and tables need, from the row's
 * own column or derived from others (results/row.c), and whether a row can be drawn
 * in the utilisation bars, the bandwidth figures and the roofline; and rows grouped by
 * a key. */
#include "report/input/row.h"

#include <math.h>
#include <stdlib.h>

#include "results/row.h"

static bool positive(double v)
{
    return isfinite(v) && v > 0.0;
}

double mmb_report_row_gflops(const struct mmb_report_row *r)
{
    return mmb_row_gflops(&r->r);
}

double mmb_report_row_intensity(const struct mmb_report_row *r)
{
    return mmb_row_intensity(&r->r);
}

double mmb_report_row_dram_gbps(const struct mmb_report_row *r)
{
    return mmb_row_dram_gbps(&r->r);
}

double mmb_report_row_dram_pct(const struct mmb_report_row *r)
{
    return mmb_row_dram_pct(&r->r);
}

bool mmb_report_row_has_util(const struct mmb_report_row *r)
{
    return isfinite(r->r.sm_util_pct) && isfinite(r->r.dram_util_pct);
}

bool mmb_report_row_has_bandwidth(const struct mmb_report_row *r)
{
    return isfinite(mmb_report_row_dram_gbps(r));
}

bool mmb_report_row_has_roofline(const struct mmb_report_row *r)
{
    return positive(mmb_report_row_intensity(r)) && positive(mmb_report_row_gflops(r)) && positive(r->r.peak_gbps) &&
           positive(r->r.peak_gflops);
}

/* ---- occupancy ---------------------------------------------------------------------- */

enum mmb_report_occupancy mmb_report_row_occupancy_kind(const struct mmb_report_data *d, const size_t *rows, size_t n)
{
    bool all_theoretical = n > 0, any_achieved = false;
    for (size_t i = 0; i < n; i++) {
        const struct mmb_row *r = &d->rows[rows[i]].r;
        all_theoretical = all_theoretical && isfinite(r->theoretical_occupancy_pct);
        any_achieved = any_achieved || isfinite(r->occupancy_pct);
    }
    return all_theoretical ? MMB_REPORT_OCCUPANCY_THEORETICAL
           : any_achieved  ? MMB_REPORT_OCCUPANCY_ACHIEVED
                           : MMB_REPORT_OCCUPANCY_NONE;
}

double mmb_report_row_occupancy(const struct mmb_report_row *r, enum mmb_report_occupancy kind)
{
    return kind == MMB_REPORT_OCCUPANCY_THEORETICAL ? r->r.theoretical_occupancy_pct
           : kind == MMB_REPORT_OCCUPANCY_ACHIEVED  ? r->r.occupancy_pct
                                                    : NAN;
}

const char *mmb_report_row_occupancy_text(enum mmb_report_occupancy kind)
{
    return kind == MMB_REPORT_OCCUPANCY_THEORETICAL ? "theoretical"
           : kind == MMB_REPORT_OCCUPANCY_ACHIEVED  ? "achieved"
                                                    : "";
}

/* ---- grouping ---------------------------------------------------------------------- */

/* What the comparison of positions reads. */
struct group_sort {
    const struct mmb_report_data *d;
    const size_t *rows; /* position -> row; NULL: the position is the row */
    int (*key)(const struct mmb_report_row *a, const struct mmb_report_row *b);
};

static const struct mmb_report_row *row_at(const struct group_sort *s, size_t pos)
{
    return &s->d->rows[s->rows ? s->rows[pos] : pos];
}

/* By key, ties by position: the first entry of a run of equal keys is the position
 * where the key first appears. */
static int position_cmp(const void *a, const void *b, void *ctx)
{
    const struct group_sort *s = ctx;
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    int c = s->key(row_at(s, x), row_at(s, y));
    return c ? c : (x > y) - (x < y);
}

static int size_cmp(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

long mmb_report_row_group(const struct mmb_report_data *d, const size_t *rows, size_t n,
                          int (*key)(const struct mmb_report_row *a, const struct mmb_report_row *b), size_t *group,
                          size_t *first)
{
    size_t ngroups = 0;
    size_t *pos = malloc((n ? n : 1) * sizeof *pos);
    if (!pos)
        return -1;
    for (size_t i = 0; i < n; i++)
        pos[i] = i;
    struct group_sort s = {d, rows, key};
    if (n > 1)
        qsort_r(pos, n, sizeof *pos, position_cmp, &s);
    for (size_t j = 0; j < n; j++)
        if (j == 0 || key(row_at(&s, pos[j - 1]), row_at(&s, pos[j])) != 0)
            first[ngroups++] = pos[j];
    if (ngroups > 1)
        qsort(first, ngroups, sizeof *first, size_cmp);
    size_t g = 0;
    for (size_t j = 0; j < n; j++) {
        if (j == 0 || key(row_at(&s, pos[j - 1]), row_at(&s, pos[j])) != 0)
            g = (size_t)((const size_t *)bsearch(&pos[j], first, ngroups, sizeof *first, size_cmp) - first);
        group[pos[j]] = g;
    }
    free(pos);
    return (long)ngroups;
}
