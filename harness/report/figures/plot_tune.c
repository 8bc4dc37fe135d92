/* plot_tune.c - what a tuned space looks like, three figures per tuned kernel and
 * size: the spread (every configuration's time over its GPU's best, sorted, one line
 * per GPU, the five fastest named: how many are near the best and how far the worst
 * are); one GPU against another, configuration by configuration (does the ranking
 * carry over?); and time against occupancy (is the fastest the fullest?). */
#include "report/figures/figures.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "core/error.h"
#include "core/file.h"
#include "report/figures/gp.h"
#include "report/input/labels.h"
#include "report/input/out.h"
#include "report/input/row.h"
#include "report/input/tune_groups.h"

/* GPUs differ in dash and marker as well as colour (their registry styles): the H100
 * and H200 lines lie on top of each other, and a large open marker around a small
 * filled one lets both show. */

static void shape_text(const struct mmb_report_tune_group *g, char *out, size_t len)
{
    struct mmb_report_shape s = {g->m, g->n, g->k};
    mmb_report_shape_label(&s, out, len);
}

/* The ok rows of a group, fastest first; returns how many (idx holds d->nrows). */
static int row_time_cmp(const void *a, const void *b, void *data)
{
    const struct mmb_report_data *d = data;
    double x = d->rows[*(const size_t *)a].r.time_ms_median, y = d->rows[*(const size_t *)b].r.time_ms_median;
    return (x > y) - (x < y);
}

static size_t group_rows(const struct mmb_report_data *d, const struct mmb_report_tune_group *g, size_t *idx)
{
    size_t n = 0;
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_report_row *r = &d->rows[i];
        if (mmb_report_tune_group_member(d, g, r) && r->r.status == MMB_STATUS_OK && isfinite(r->r.time_ms_median))
            idx[n++] = i;
    }
    if (n > 1)
        qsort_r(idx, n, sizeof *idx, row_time_cmp, (void *)d);
    return n;
}

/* One tuned problem: the groups that draw it (each GPU's tuning, the published
 * times), the most configurations any has, and its name. */
struct spread {
    char name[160], suffix[160], shape[96];
    size_t members[MMB_REPORT_TUNE_GROUPS_MAX], n;
    size_t most;
    double top;
};

/* gnuplot/tune-spread-<kernel>.dat: one block per group, its ok times over its best,
 * fastest first, with the configuration; then the first group's five fastest. */
static int spread_data_write(struct mmb_report *rep, const struct mmb_report_tune_group *gs, size_t ngroups,
                             size_t first, struct spread *sp, size_t *idx, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    const struct mmb_report_tune_group *g0 = &gs[first];
    struct mmb_report_out o;
    if (mmb_report_out_open(&o, err, errlen) != 0)
        return -1;
    fprintf(o.f, "# %s: median time of every ok configuration of %s at %s over its GPU's best, fastest first; one "
                 "block per GPU\n# rank time/best ms  # params\n",
            sp->name, d->kernels[g0->kernel], sp->shape);
    for (size_t j = first; j < ngroups; j++) {
        const struct mmb_report_tune_group *g = &gs[j];
        /* published rows carry no cache mode of mmbench's: they join whatever it is */
        if (!mmb_report_tune_group_same_problem(g, g0) || (g->tuned && strcmp(g->cache, g0->cache)) ||
            g->by_status[MMB_STATUS_OK] < 2)
            continue;
        size_t n = group_rows(d, g, idx);
        double best = d->rows[idx[0]].r.time_ms_median;
        fprintf(o.f, "%s# %s\n", sp->n ? "\n\n" : "", d->gpus[g->gpu].name);
        for (size_t i = 0; i < n; i++) {
            const struct mmb_report_row *r = &d->rows[idx[i]];
            char p[256];
            mmb_report_label_params(r->r.params, p, sizeof p);
            fprintf(o.f, "%zu %.6g %.6g \"%s\"\n", i + 1, r->r.time_ms_median / best, r->r.time_ms_median, p);
            sp->top = fmax(sp->top, r->r.time_ms_median / best);
        }
        sp->most = n > sp->most ? n : sp->most;
        sp->members[sp->n++] = j;
    }
    if (sp->n == 0) {
        mmb_report_out_discard(&o);
        return 0;
    }
    return mmb_gp_commit(rep, &o, sp->name, "dat", err, errlen);
}

static void spread_terms(FILE *f, const struct mmb_report *rep, const struct mmb_report_tune_group *gs,
                         const struct spread *sp)
{
    const struct mmb_report_data *d = &rep->data;
    int terms = 0;
    for (size_t b = 0; b < sp->n; b++) {
        const struct mmb_report_tune_group *g = &gs[sp->members[b]];
        const struct mmb_report_row *best = &d->rows[g->best - 1];
        char gpu[128], t[256];
        mmb_report_state_gpu_label(rep, g->gpu, gpu, sizeof gpu);
        /* published times (not tuned here): the GPU's colour, dotted */
        struct mmb_gp_style st = mmb_gp_gpu_style(g->gpu);
        const char *color = st.color;
        int dt = g->tuned ? st.dash : 3, pt = st.point;
        double ps = st.size;
        snprintf(t, sizeof t, "%s: best %.3g ms", gpu, best->r.time_ms_median);
        mmb_gp_term(f, &terms);
        fprintf(f,
                "\"%s.dat\" index %zu using 1:2 with linespoints dt %d pt %d ps %.1f * PS lw 2.5 lc rgb \"%s\" title ",
                sp->name, b, dt, pt, ps, color);
        mmb_gp_string(f, t);
        if (g->cublas) {
            /* cuBLAS on the same GPU, over that GPU's best: below 1 it is faster */
            mmb_gp_term(f, &terms);
            fprintf(f, "%.6g with lines dt %d lw 2 lc rgb \"%s\" notitle",
                    d->rows[g->cublas - 1].r.time_ms_median / best->r.time_ms_median, st.dash % 2 ? 4 : 2, color);
        }
    }
    mmb_gp_term(f, &terms);
    fputs("NaN with lines dt 2 lw 2 lc rgb \"#404040\" title \"cuBLAS on that GPU (dashed, its colour)\"", f);
    fputc('\n', f);
}

static int spread_script_write(struct mmb_report *rep, const struct mmb_report_tune_group *gs,
                               const struct mmb_report_tune_group *g0, const struct spread *sp, char *err,
                               size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    struct mmb_report_figure *fig = mmb_report_state_figure_add(rep, sp->name, MMB_REPORT_GROUP_TUNING, -1);
    struct mmb_report_out o;
    if (!fig || mmb_report_out_open(&o, err, errlen) != 0)
        return mmb_failf(err, errlen, "out of memory");
    snprintf(fig->title, sizeof fig->title, "Tuning %s at %s (%s, %s L2): every configuration's time over the best",
             d->kernels[g0->kernel], sp->shape, g0->dtype, g0->cache);
    snprintf(fig->caption, sizeof fig->caption,
             "Median time of every configuration of %s that ran at %s, over the best one's on the same GPU, sorted "
             "from fastest, one line per GPU (linear scale; the five fastest of the first GPU are named right of it); the dashed "
             "horizontal lines are cuBLAS on each GPU. A flat start means many configurations are close to the best. "
             "Restricted and failed configurations are not drawn (they are counted in the table above).",
             d->kernels[g0->kernel], sp->shape);
    mmb_gp_script_begin(o.f, rep, sp->name, fig->title, (struct mmb_gp_canvas){1600, 1000});
    mmb_gp_panel_begin(o.f, rep);
    fputs("    set title ", o.f);
    mmb_gp_string(o.f, fig->title);
    fputs("\n    set xlabel \"Configuration, fastest first (rank by median time)\"\n"
          "    set ylabel \"median time / the GPU's best\"\n",
          o.f);
    fprintf(o.f, "    set xrange [0:%zu.5]\n    set yrange [0:%.6g]\n", sp->most + 1, sp->top * 1.1);
    fputs("    set key outside below center horizontal maxcols 2 samplen 3 spacing 1.1 width 1 height 1\n", o.f);
    /* the five fastest of the first GPU, named in a list where the curve is low */
    const struct mmb_report_tune_group *g = &gs[sp->members[0]];
    size_t *idx = malloc((d->nrows ? d->nrows : 1) * sizeof *idx);
    size_t n = idx ? group_rows(d, g, idx) : 0;
    char gpu[96], list[1024];
    mmb_report_label_gpu(d->gpus[g->gpu].name, gpu, sizeof gpu);
    snprintf(list, sizeof list, "fastest on the %s:", gpu);
    for (size_t i = 0; i < n && i < 5; i++) {
        char p[256];
        mmb_report_label_params(d->rows[idx[i]].r.params, p, sizeof p);
        snprintf(list + strlen(list), sizeof list - strlen(list), "\\n%zu. %s  ×%.2f", i + 1, p,
                 d->rows[idx[i]].r.time_ms_median / d->rows[idx[0]].r.time_ms_median);
    }
    free(idx);
    /* in a margin of its own: over the plot it covered the curves */
    fprintf(o.f, "    set rmargin at screen 0.70\n    set label \"%s\" at screen 0.72, graph 0.98 left front font F%d "
                 "tc rgb \"#303030\"\n", list, MMB_GP_FONT_PT - 4);
    spread_terms(o.f, rep, gs, sp);
    mmb_gp_script_end(o.f);
    return mmb_gp_commit(rep, &o, sp->name, "gp", err, errlen);
}

/* ---- one GPU against another, and time against occupancy ------------------------------------------ */

/* tune-pair-<kernel>: the second tuned GPU's time against the first's, configuration by
 * configuration (matched by parameters), with y = x. */
static int pair_write(struct mmb_report *rep, const struct mmb_report_tune_group *a,
                      const struct mmb_report_tune_group *b, const struct spread *sp, size_t *idx, char *err,
                      size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    char name[200], na[96], nb[96];
    snprintf(name, sizeof name, "tune-pair-%s", sp->suffix);
    size_t n = group_rows(d, a, idx), points = 0;
    double lo = INFINITY, hi = 0;
    struct mmb_report_out o;
    if (mmb_report_out_open(&o, err, errlen) != 0)
        return -1;
    mmb_report_label_gpu(d->gpus[a->gpu].name, na, sizeof na);
    mmb_report_label_gpu(d->gpus[b->gpu].name, nb, sizeof nb);
    fprintf(o.f,
            "# %s: median time (ms) of each configuration on %s and on %s\n# %s-ms %s-ms rank-on-first  # params\n",
            name, na, nb, na, nb);
    for (size_t i = 0; i < n; i++) {
        const struct mmb_report_row *ra = &d->rows[idx[i]];
        for (size_t j = 0; j < d->nrows; j++) {
            const struct mmb_report_row *rb = &d->rows[j];
            if (!mmb_report_tune_group_member(d, b, rb) || rb->r.status != MMB_STATUS_OK ||
                strcmp(rb->r.params, ra->r.params))
                continue;
            fprintf(o.f, "%.6g %.6g %zu  # %s\n", ra->r.time_ms_median, rb->r.time_ms_median, i + 1, ra->r.params);
            lo = fmin(lo, fmin(ra->r.time_ms_median, rb->r.time_ms_median));
            hi = fmax(hi, fmax(ra->r.time_ms_median, rb->r.time_ms_median));
            points++;
            break;
        }
    }
    if (points < 3) {
        mmb_report_out_discard(&o);
        return 0;
    }
    if (mmb_gp_commit(rep, &o, name, "dat", err, errlen) != 0)
        return -1;
    struct mmb_report_figure *fig = mmb_report_state_figure_add(rep, name, MMB_REPORT_GROUP_TUNING, -1);
    if (!fig || mmb_report_out_open(&o, err, errlen) != 0)
        return mmb_failf(err, errlen, "out of memory");
    /* the plot prints the title in two lines: in one it ran past the square canvas */
    char line1[200], line2[300];
    snprintf(line1, sizeof line1, "Tuning %s at %s:", d->kernels[a->kernel], sp->shape);
    snprintf(line2, sizeof line2, "%s against %s, configuration by configuration", nb, na);
    snprintf(fig->title, sizeof fig->title, "%s %s", line1, line2);
    snprintf(fig->caption, sizeof fig->caption,
             "Each configuration of %s that ran on both GPUs: its median time on the %s (y) against the %s (x), log "
             "scales; on the solid line both are equal, the dotted lines are ±5%%. Points along the line mean the "
             "ranking carries over from one GPU to the other; the fastest of the first is circled.",
             d->kernels[a->kernel], nb, na);
    mmb_gp_script_begin(o.f, rep, name, fig->title, (struct mmb_gp_canvas){1300, 1100});
    mmb_gp_panel_begin(o.f, rep);
    fputs("    set title ", o.f);
    mmb_gp_string(o.f, line1);
    fputs(" . \"\\n\" . ", o.f);
    mmb_gp_string(o.f, line2);
    fprintf(o.f,
            "\n    set xlabel \"%s: median time (ms, log scale)\"\n    set ylabel \"%s: median time (ms, log "
            "scale)\"\n",
            na, nb);
    fprintf(o.f, "    set logscale xy\n    set xrange [%.6g:%.6g]\n    set yrange [%.6g:%.6g]\n    set size ratio -1\n",
            lo / 1.15, hi * 1.15, lo / 1.15, hi * 1.15);
    mmb_gp_log_tics(o.f, 'x', lo / 1.15, hi * 1.15);
    mmb_gp_log_tics(o.f, 'y', lo / 1.15, hi * 1.15);
    fputs("    unset key\n", o.f);
    fprintf(o.f, "    plot x with lines lw 2 lc rgb \"#404040\", 1.05 * x with lines dt 3 lw 1.5 lc rgb \"#808080\", "
                 "x / 1.05 with lines dt 3 lw 1.5 lc rgb \"#808080\", \\\n"
                 "         \"%s.dat\" using 1:2 with points pt 7 ps 1.8 * PS lc rgb \"%s\", \\\n"
                 "         \"\" every ::0::0 using 1:2 with points pt 6 ps 4.5 * PS lw 3 lc rgb \"#e4002b\"\n",
            name, mmb_gp_gpu_color(b->gpu));
    mmb_gp_script_end(o.f);
    return mmb_gp_commit(rep, &o, name, "gp", err, errlen);
}

/* The occupancy the figure of these groups shows (row.h): theoretical when every ok
 * row of every group has it. */
static enum mmb_report_occupancy occupancy_kind(const struct mmb_report_data *d, const struct mmb_report_tune_group *gs,
                                                const struct spread *sp, size_t *idx)
{
    enum mmb_report_occupancy kind = MMB_REPORT_OCCUPANCY_THEORETICAL;
    bool any = false;
    for (size_t m = 0; m < sp->n; m++) {
        const struct mmb_report_tune_group *g = &gs[sp->members[m]];
        if (!g->tuned)
            continue;
        size_t n = group_rows(d, g, idx);
        enum mmb_report_occupancy here = mmb_report_row_occupancy_kind(d, idx, n);
        if (n && here != MMB_REPORT_OCCUPANCY_THEORETICAL)
            kind = here == MMB_REPORT_OCCUPANCY_ACHIEVED || kind == MMB_REPORT_OCCUPANCY_ACHIEVED
                       ? MMB_REPORT_OCCUPANCY_ACHIEVED
                       : MMB_REPORT_OCCUPANCY_NONE;
        any = any || n;
    }
    return any ? kind : MMB_REPORT_OCCUPANCY_NONE;
}

/* tune-occupancy-<kernel>: median time against occupancy (theoretical, else achieved),
 * a colour per GPU. */
static int occupancy_write(struct mmb_report *rep, const struct mmb_report_tune_group *gs, const struct spread *sp,
                           size_t *idx, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    char name[200];
    snprintf(name, sizeof name, "tune-occupancy-%s", sp->suffix);
    enum mmb_report_occupancy kind = occupancy_kind(d, gs, sp, idx);
    const char *what = mmb_report_row_occupancy_text(kind);
    bool theoretical = kind == MMB_REPORT_OCCUPANCY_THEORETICAL;
    struct mmb_report_out o;
    if (mmb_report_out_open(&o, err, errlen) != 0)
        return -1;
    fprintf(o.f, "# %s: %s occupancy (%%) and median time (ms) of every ok configuration; a block per GPU\n", name,
            what);
    int blocks[MMB_REPORT_TUNE_GROUPS_MAX];
    size_t nb = 0, points = 0;
    for (size_t m = 0; m < sp->n; m++) {
        const struct mmb_report_tune_group *g = &gs[sp->members[m]];
        blocks[m] = -1;
        if (!g->tuned)
            continue;
        size_t n = group_rows(d, g, idx), here = 0;
        for (size_t i = 0; i < n; i++) {
            const struct mmb_report_row *r = &d->rows[idx[i]];
            double occ = mmb_report_row_occupancy(r, kind);
            if (!isfinite(occ))
                continue;
            if (blocks[m] < 0) {
                fprintf(o.f, "%s# %s\n", nb ? "\n\n" : "", d->gpus[g->gpu].name);
                blocks[m] = (int)nb++;
            }
            fprintf(o.f, "%.6g %.6g  # %s\n", occ, r->r.time_ms_median, r->r.params);
            here++;
        }
        points += here;
    }
    if (points < 4) {
        mmb_report_out_discard(&o);
        return 0;
    }
    if (mmb_gp_commit(rep, &o, name, "dat", err, errlen) != 0)
        return -1;
    const struct mmb_report_tune_group *g0 = &gs[sp->members[0]];
    struct mmb_report_figure *fig = mmb_report_state_figure_add(rep, name, MMB_REPORT_GROUP_TUNING, -1);
    if (!fig || mmb_report_out_open(&o, err, errlen) != 0)
        return mmb_failf(err, errlen, "out of memory");
    snprintf(fig->title, sizeof fig->title, "Tuning %s at %s: median time against %s occupancy",
             d->kernels[g0->kernel], sp->shape, what);
    snprintf(fig->caption, sizeof fig->caption,
             "Every configuration of %s that ran: its %s (%s) against its median time, a colour per GPU; the fastest "
             "is circled. When the fastest configurations are not the fullest, work per thread (registers, ILP) "
             "matters more than occupancy.",
             d->kernels[g0->kernel], theoretical ? "theoretical occupancy" : "achieved occupancy",
             theoretical ? "the warps its block size, registers and shared memory let reside on an SM, over the "
                           "SM's maximum, from the occupancy API"
                         : "active warps over the SM's maximum, sm__warps_active");
    mmb_gp_script_begin(o.f, rep, name, fig->title, (struct mmb_gp_canvas){1600, 1000});
    mmb_gp_panel_begin(o.f, rep);
    fputs("    set title ", o.f);
    mmb_gp_string(o.f, fig->title);
    fprintf(o.f, "\n    set xlabel \"%s occupancy (%% of the SM's warps)\"\n    set ylabel \"median time (ms)\"\n", what);
    /* occupancy on its whole scale, 0-100% in quarters; time over the points' own range (from 0 it
     * crowded every point into one corner), a twentieth of the height free above and below */
    fputs("    set xrange [0:100]\n    set xtics 0,25,100\n    set format x \"%g%%\"\n"
          "    set yrange [*:*]\n    set offsets 0, 0, graph 0.05, graph 0.05\n    set bmargin 7\n", o.f);
    fputs("    set key outside below center horizontal samplen 2 spacing 1.1\n", o.f);
    int n = 0;
    for (size_t m = 0; m < sp->n; m++) {
        if (blocks[m] < 0)
            continue;
        const struct mmb_report_tune_group *g = &gs[sp->members[m]];
        char gpu[128];
        mmb_report_state_gpu_label(rep, g->gpu, gpu, sizeof gpu);
        mmb_gp_term(o.f, &n);
        fprintf(o.f, "\"%s.dat\" index %d using 1:2 with points pt %d ps 2.2 * PS lw 2 lc rgb \"%s\" title ", name,
                blocks[m], mmb_gp_gpu_style(g->gpu).point, mmb_gp_gpu_color(g->gpu));
        mmb_gp_string(o.f, gpu);
        mmb_gp_term(o.f, &n);
        fprintf(o.f, "\"%s.dat\" index %d every ::0::0 using 1:2 with points pt 6 ps 4.5 * PS lw 3 lc rgb \"#e4002b\" "
                     "%s",
                name, blocks[m], n == 2 ? "title \"fastest\"" : "notitle");
    }
    fputc('\n', o.f);
    mmb_gp_script_end(o.f);
    return mmb_gp_commit(rep, &o, name, "gp", err, errlen);
}

/* The figures of gs[first]'s problem, every GPU that tuned it in them. */
static int tuned_write(struct mmb_report *rep, const struct mmb_report_tune_group *gs, size_t ngroups, size_t first,
                       bool suffix, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    const struct mmb_report_tune_group *g0 = &gs[first];
    struct spread sp = {.n = 0, .most = 0, .top = 1};
    char kslug[MMB_REPORT_NAME_MAX];
    mmb_gpu_slug(d->kernels[g0->kernel], kslug, sizeof kslug);
    shape_text(g0, sp.shape, sizeof sp.shape);
    snprintf(sp.suffix, sizeof sp.suffix, "%s", kslug);
    if (suffix) /* the kernel was tuned at another size or cache mode too */
        snprintf(sp.suffix + strlen(sp.suffix), sizeof sp.suffix - strlen(sp.suffix), "-%s-%s-%s", sp.shape, g0->dtype,
                 g0->cache);
    snprintf(sp.name, sizeof sp.name, "tune-spread-%s", sp.suffix);
    size_t *idx = malloc((d->nrows ? d->nrows : 1) * sizeof *idx);
    if (!idx)
        return mmb_failf(err, errlen, "out of memory");
    int rc = spread_data_write(rep, gs, ngroups, first, &sp, idx, err, errlen);
    if (rc == 0 && sp.n)
        rc = spread_script_write(rep, gs, g0, &sp, err, errlen);
    /* the first two GPUs that tuned it, by measurement */
    const struct mmb_report_tune_group *a = NULL, *b = NULL;
    for (size_t m = 0; m < sp.n && !b; m++) {
        const struct mmb_report_tune_group *g = &gs[sp.members[m]];
        if (g->tuned && !a)
            a = g;
        else if (g->tuned)
            b = g;
    }
    if (rc == 0 && a && b)
        rc = pair_write(rep, a, b, &sp, idx, err, errlen);
    if (rc == 0 && sp.n)
        rc = occupancy_write(rep, gs, &sp, idx, err, errlen);
    free(idx);
    return rc;
}

int mmb_report_plot_tune(struct mmb_report *rep, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    struct mmb_report_tune_group *gs = calloc(MMB_REPORT_TUNE_GROUPS_MAX, sizeof *gs);
    if (!gs)
        return mmb_failf(err, errlen, "out of memory");
    size_t n = mmb_report_tune_groups(d, gs);
    int rc = 0;
    /* one set of figures per tuned kernel and size (and cache mode), every GPU in it */
    for (size_t j = 0; j < n && rc == 0; j++) {
        bool first = gs[j].tuned, again = false;
        for (size_t i = 0; i < j && first; i++) {
            first = !(gs[i].tuned && mmb_report_tune_group_same_problem(&gs[i], &gs[j]) &&
                      !strcmp(gs[i].cache, gs[j].cache));
            again = again || (gs[i].tuned && gs[i].kernel == gs[j].kernel);
        }
        if (first)
            rc = tuned_write(rep, gs, n, j, again, err, errlen);
    }
    free(gs);
    return rc;
}
