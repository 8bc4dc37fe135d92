/* plot_tune.c - the spread of a tuned kernel's times: every configuration
 * that ran, sorted from fastest, one line per GPU on a log time axis, the fastest
 * circled and cuBLAS as a horizontal line. It shows what the heatmap cannot for a
 * space of four parameters: how many configurations are near the best, and how far
 * the worst are from it. */
#include "report/figures.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "report/gp.h"
#include "report/out.h"
#include "report/tune_groups.h"

typedef struct mmb_report_tune_group group;

static int compare_ms(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Measured GPUs differ in dash and marker as well as colour: the H100 and H200
 * lines lie on top of each other, and a large open marker around a small filled
 * one lets both show. */
static const int spread_dashes[] = {1, 2, 4, 5};
static const int spread_points[] = {4, 7, 8, 13};
static const double spread_sizes[] = {2.4, 1.2, 2.4, 1.2};

static void shape_text(const group *g, char *out, size_t len)
{
    struct mmb_report_shape s = {g->m, g->n, g->k};
    mmb_report_shape_label(&s, out, len);
}

static void ms_text(double ms, char *out, size_t len)
{
    snprintf(out, len, ms >= 100 ? "%.1f ms" : ms >= 10 ? "%.2f ms" : "%.3f ms", ms);
}

/* One spread figure: the groups it draws (each GPU's tuning of the problem, and
 * the published times), the longest of them and the time axis they share. */
struct spread {
    char name[160], shape[96];
    size_t members[MMB_REPORT_TUNE_GROUPS_MAX], n;
    size_t most;
    struct mmb_gp_range y;
};

/* gnuplot/<name>.dat: one block per group, its ok times sorted, fastest first. */
static int spread_data_write(struct mmb_report *rep, const group *gs, size_t ngroups, size_t first, struct spread *sp,
                             char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    const group *g0 = &gs[first];
    double *ms = malloc((d->nrows ? d->nrows : 1) * sizeof *ms);
    struct mmb_report_out o;
    if (!ms || mmb_report_out_open(&o, err, errlen) != 0) {
        free(ms);
        mmb_errorf(err, errlen, "out of memory");
        return -1;
    }
    fprintf(o.f, "# %s: median time (ms) of every ok configuration of %s at %s, fastest first; one block per GPU\n"
                 "# rank ms  # params\n",
            sp->name, d->kernels[g0->kernel], sp->shape);
    for (size_t j = first; j < ngroups; j++) {
        const group *g = &gs[j];
        /* published rows carry no cache mode of mmbench's: they join whatever it is */
        if (!mmb_report_tune_same_problem(g, g0) || (g->tuned && strcmp(g->cache, g0->cache)) ||
            g->by_status[MMB_STATUS_OK] < 2)
            continue;
        size_t n = 0;
        for (size_t i = 0; i < d->nrows; i++) {
            const struct mmb_report_row *r = &d->rows[i];
            if (mmb_report_tune_member(g, r) && r->r.status == MMB_STATUS_OK && isfinite(r->r.time_ms_median))
                ms[n++] = r->r.time_ms_median;
        }
        qsort(ms, n, sizeof *ms, compare_ms);
        fprintf(o.f, "%s# %s\n", sp->n ? "\n\n" : "", d->gpus[g->gpu].name);
        for (size_t i = 0; i < n; i++) {
            fprintf(o.f, "%zu %.9g\n", i + 1, ms[i]);
            mmb_gp_range_add(&sp->y, ms[i]);
        }
        if (g->cublas)
            mmb_gp_range_add(&sp->y, d->rows[g->cublas - 1].r.time_ms_median);
        sp->most = n > sp->most ? n : sp->most;
        sp->members[sp->n++] = j;
    }
    free(ms);
    if (sp->n == 0) {
        mmb_report_out_discard(&o);
        return 0;
    }
    mmb_gp_range_finish(&sp->y);
    return mmb_gp_commit(rep, &o, sp->name, "dat", err, errlen);
}

/* The plot: per group its line, its fastest circled and cuBLAS; then the legend's
 * entries for the circle and the cuBLAS lines. */
static void spread_terms(FILE *f, const struct mmb_report *rep, const group *gs, const struct spread *sp)
{
    const struct mmb_report_data *d = &rep->data;
    int terms = 0;
    size_t measured = 0;
    bool any_cublas = false;
    for (size_t b = 0; b < sp->n; b++) {
        const group *g = &gs[sp->members[b]];
        const struct mmb_report_row *best = &d->rows[g->best - 1];
        char gpu[128], t[256], bt[32], ct[32];
        mmb_report_gpu_label(rep, g->gpu, gpu, sizeof gpu);
        ms_text(best->r.time_ms_median, bt, sizeof bt);
        /* the colour each GPU has in the side-by-side figures; grey for published times */
        const char *color = g->tuned ? mmb_gp_gpu_color(g->gpu) : "#606060";
        size_t style = measured % MMB_COUNT(spread_dashes);
        int dt = g->tuned ? spread_dashes[style] : 3, pt = g->tuned ? spread_points[style] : 9;
        double ps = g->tuned ? spread_sizes[style] : 1.6;
        measured += g->tuned;
        /* the legend carries the numbers, so that two near-equal lines still read apart */
        snprintf(t, sizeof t, "%s: best %s", gpu, bt);
        if (g->cublas) {
            ms_text(d->rows[g->cublas - 1].r.time_ms_median, ct, sizeof ct);
            snprintf(t + strlen(t), sizeof t - strlen(t), ", cuBLAS %s", ct);
        }
        mmb_gp_term(f, &terms);
        fprintf(f, "\"%s.dat\" index %zu using 1:2 with linespoints dt %d pt %d ps %.1f * PS lw 2.5 lc rgb \"%s\" title ",
                sp->name, b, dt, pt, ps, color);
        mmb_gp_string(f, t);
        /* the fastest configuration: the first point of the block */
        mmb_gp_term(f, &terms);
        fprintf(f, "\"%s.dat\" index %zu every ::0::0 using 1:2 with points pt 6 ps 4.5 * PS lw 3 lc rgb \"%s\" notitle",
                sp->name, b, color);
        if (g->cublas) {
            mmb_gp_term(f, &terms);
            fprintf(f, "%.9g with lines dt %d lw 2 lc rgb \"%s\" notitle", d->rows[g->cublas - 1].r.time_ms_median,
                    style % 2 ? 4 : 2, color);
            any_cublas = true;
        }
    }
    mmb_gp_term(f, &terms);
    fputs("NaN with points pt 6 ps 4.5 * PS lw 3 lc rgb \"#404040\" title \"fastest configuration\"", f);
    if (any_cublas) {
        mmb_gp_term(f, &terms);
        fputs("NaN with lines dt 2 lw 2 lc rgb \"#404040\" title \"cuBLAS (dashed, colour of its GPU)\"", f);
    }
    fputc('\n', f);
}

static int spread_script_write(struct mmb_report *rep, const group *gs, const group *g0, const struct spread *sp,
                               char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    struct mmb_report_figure *fig = mmb_report_figure_add(rep, sp->name, MMB_REPORT_GROUP_TUNING, -1);
    struct mmb_report_out o;
    if (!fig || mmb_report_out_open(&o, err, errlen) != 0) {
        mmb_errorf(err, errlen, "out of memory");
        return -1;
    }
    snprintf(fig->title, sizeof fig->title, "Tuning %s at %s (%s, %s L2): every configuration's time, fastest first",
             d->kernels[g0->kernel], sp->shape, g0->dtype, g0->cache);
    snprintf(fig->caption, sizeof fig->caption,
             "Median time of every configuration of %s that ran at %s, sorted from fastest, one line per GPU (log "
             "scale); the fastest of each GPU is circled and its time is in the legend, and the dashed horizontal "
             "lines are cuBLAS on the same GPU. A flat start means many configurations are close to the best; "
             "restricted and failed configurations are not drawn (they are counted in the table above).",
             d->kernels[g0->kernel], sp->shape);
    mmb_gp_script_begin(o.f, rep, sp->name, fig->title, (struct mmb_gp_canvas){1600, 1000});
    mmb_gp_panel_begin(o.f, rep);
    fputs("    set title ", o.f);
    mmb_gp_string(o.f, fig->title);
    fputs("\n    set xlabel \"Configuration, fastest first (rank by median time)\"\n"
          "    set ylabel \"Median time (ms, log scale)\"\n",
          o.f);
    fprintf(o.f, "    set xrange [0:%zu.5]\n", sp->most);
    mmb_gp_range_set(o.f, 'y', &sp->y);
    fputs("    set format y \"%g\"\n", o.f);
    fputs("    set key outside below center horizontal maxcols 2 samplen 3 spacing 1.1 width 1 height 1\n", o.f);
    spread_terms(o.f, rep, gs, sp);
    mmb_gp_script_end(o.f);
    return mmb_gp_commit(rep, &o, sp->name, "gp", err, errlen);
}

/* The spread figure of gs[first]'s problem, every GPU that tuned it in it. */
static int spread_write(struct mmb_report *rep, const group *gs, size_t ngroups, size_t first, bool suffix, char *err,
                        size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    const group *g0 = &gs[first];
    struct spread sp = {.n = 0, .most = 0, .y = mmb_gp_range_new(true)};
    char kslug[MMB_REPORT_NAME_MAX];
    mmb_gpu_slug(d->kernels[g0->kernel], kslug, sizeof kslug);
    shape_text(g0, sp.shape, sizeof sp.shape);
    snprintf(sp.name, sizeof sp.name, "tune-spread-%s", kslug);
    if (suffix) /* the kernel was tuned at another size or cache mode too */
        snprintf(sp.name + strlen(sp.name), sizeof sp.name - strlen(sp.name), "-%s-%s-%s", sp.shape, g0->dtype,
                 g0->cache);
    if (spread_data_write(rep, gs, ngroups, first, &sp, err, errlen) != 0)
        return -1;
    return sp.n ? spread_script_write(rep, gs, g0, &sp, err, errlen) : 0;
}

int mmb_report_plot_tune(struct mmb_report *rep, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    group *gs = calloc(MMB_REPORT_TUNE_GROUPS_MAX, sizeof *gs);
    if (!gs) {
        mmb_errorf(err, errlen, "out of memory");
        return -1;
    }
    size_t n = mmb_report_tune_groups(d, gs);
    int rc = 0;
    /* one figure per tuned kernel and size (and cache mode), every GPU in it */
    for (size_t j = 0; j < n && rc == 0; j++) {
        bool first = gs[j].tuned, again = false;
        for (size_t i = 0; i < j && first; i++) {
            first = !(gs[i].tuned && mmb_report_tune_same_problem(&gs[i], &gs[j]) && !strcmp(gs[i].cache, gs[j].cache));
            again = again || (gs[i].tuned && gs[i].kernel == gs[j].kernel);
        }
        if (first)
            rc = spread_write(rep, gs, n, j, again, err, errlen);
    }
    free(gs);
    return rc;
}
