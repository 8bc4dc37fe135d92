/* report_tune.c - the report's tuning section: what `mmbench tune` found per GPU and
 * kernel (best configuration against cuBLAS, how many configurations were measured,
 * restricted or failed), the spread of times over a kernel's whole space on every
 * GPU, and small spaces (seed 000's naive block sizes) as a table beside the
 * published GTX TITAN X times. Tuned rows are those of a profile named tune*;
 * published rows of the same kernel and size join them for comparison. */
#include "report_tune.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_doc.h"
#include "report_gp.h"
#include "report_table.h"
#include "util.h"

#define MAX_GROUPS 64
#define TABLE_MAX_CONFIGS 32

/* One tuned problem: a kernel at one size, dtype and cache mode on one GPU. */
struct group {
    size_t gpu, kernel;
    long long m, n, k;
    char dtype[8], cache[8];
    bool tuned;                  /* from a tune* profile, not only published */
    size_t by_status[MMB_STATUS_COUNT];
    size_t best;                 /* row index + 1 of the fastest ok row, 0 none */
    size_t cublas;               /* row index + 1 of cuBLAS at the same problem, 0 none */
};

static bool is_tuned(const struct mmb_report_row *r)
{
    return strncmp(r->r.profile, "tune", 4) == 0;
}

static bool same_problem(const struct group *g, const struct mmb_report_row *r)
{
    return r->gpu == g->gpu && r->r.m == g->m && r->r.n == g->n && r->r.k == g->k &&
           !strcmp(r->r.dtype, g->dtype) && !strcmp(r->r.cache, g->cache);
}

/* Groups of tuned rows, then published rows of a tuned (kernel, size). */
static size_t groups_find(const struct mmb_report_data *d, struct group *gs)
{
    size_t n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < d->nrows; i++) {
            const struct mmb_report_row *r = &d->rows[i];
            if ((int)r->kernel == d->cublas || (pass == 0 ? !is_tuned(r) : !r->published))
                continue;
            size_t j = 0;
            while (j < n && !(gs[j].kernel == r->kernel && same_problem(&gs[j], r)))
                j++;
            if (j == n) {
                bool tuned_elsewhere = false; /* published rows join a tuned kernel and size only */
                for (size_t t = 0; t < n && pass == 1; t++)
                    tuned_elsewhere |= gs[t].tuned && gs[t].kernel == r->kernel && gs[t].m == r->r.m &&
                                       gs[t].n == r->r.n && gs[t].k == r->r.k && !strcmp(gs[t].dtype, r->r.dtype);
                if ((pass == 1 && !tuned_elsewhere) || n == MAX_GROUPS)
                    continue;
                struct group *g = &gs[n++];
                memset(g, 0, sizeof *g);
                g->gpu = r->gpu;
                g->kernel = r->kernel;
                g->m = r->r.m, g->n = r->r.n, g->k = r->r.k;
                snprintf(g->dtype, sizeof g->dtype, "%s", r->r.dtype);
                snprintf(g->cache, sizeof g->cache, "%s", r->r.cache);
                g->tuned = pass == 0;
            }
            struct group *g = &gs[j];
            if ((unsigned)r->r.status < MMB_STATUS_COUNT)
                g->by_status[r->r.status]++;
            if (r->r.status == MMB_STATUS_OK && isfinite(r->r.time_ms_median) &&
                (!g->best || r->r.time_ms_median < d->rows[g->best - 1].r.time_ms_median))
                g->best = i + 1;
        }
    for (size_t j = 0; j < n; j++)
        for (size_t i = 0; i < d->nrows; i++) {
            const struct mmb_report_row *r = &d->rows[i];
            if ((int)r->kernel == d->cublas && r->r.status == MMB_STATUS_OK && same_problem(&gs[j], r) &&
                (!gs[j].cublas || r->r.time_ms_median < d->rows[gs[j].cublas - 1].r.time_ms_median))
                gs[j].cublas = i + 1;
        }
    return n;
}

static void shape_text(const struct group *g, char *out, size_t len)
{
    struct mmb_report_shape s = {g->m, g->n, g->k};
    mmb_report_shape_label(&s, out, len);
}

/* ---- the spread of times over a kernel's space ---------------------------------------------- */

static int compare_ms(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int spread_write(struct mmb_report *rep, const struct group *gs, size_t ngroups, size_t first, char *err,
                        size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    const struct group *g0 = &gs[first];
    char kslug[MMB_REPORT_NAME_MAX], shape[96], name[160];
    mmb_gpu_slug(d->kernels[g0->kernel], kslug, sizeof kslug);
    shape_text(g0, shape, sizeof shape);
    snprintf(name, sizeof name, "tune-spread-%s", kslug);
    double *ms = malloc(d->nrows * sizeof *ms);
    struct mmb_report_out o;
    if (!ms || mmb_report_out_open(&o, err, errlen) != 0) {
        free(ms);
        mmb_errorf(err, errlen, "out of memory");
        return -1;
    }
    size_t members[MAX_GROUPS], nm = 0;
    struct mmb_gp_range y = mmb_gp_range_new(true);
    size_t most = 0;
    fprintf(o.f, "# %s: median time (ms) of every ok configuration of %s at %s, fastest first; one block per GPU\n",
            name, d->kernels[g0->kernel], shape);
    for (size_t j = first; j < ngroups; j++) {
        const struct group *g = &gs[j];
        /* published rows carry no cache mode of mmbench's: they join whatever it is */
        if (g->kernel != g0->kernel || g->m != g0->m || g->n != g0->n || g->k != g0->k || strcmp(g->dtype, g0->dtype) ||
            (g->tuned && strcmp(g->cache, g0->cache)) || g->by_status[MMB_STATUS_OK] < 2)
            continue;
        size_t n = 0;
        for (size_t i = 0; i < d->nrows; i++) {
            const struct mmb_report_row *r = &d->rows[i];
            if (r->kernel == g->kernel && same_problem(g, r) && r->r.status == MMB_STATUS_OK &&
                isfinite(r->r.time_ms_median) && (is_tuned(r) == g->tuned))
                ms[n++] = r->r.time_ms_median;
        }
        qsort(ms, n, sizeof *ms, compare_ms);
        fprintf(o.f, "%s# %s\n", nm ? "\n\n" : "", d->gpus[g->gpu].name);
        for (size_t i = 0; i < n; i++) {
            fprintf(o.f, "%zu %.9g\n", i + 1, ms[i]);
            mmb_gp_range_add(&y, ms[i]);
        }
        if (g->cublas)
            mmb_gp_range_add(&y, d->rows[g->cublas - 1].r.time_ms_median);
        most = n > most ? n : most;
        members[nm++] = j;
    }
    free(ms);
    if (nm == 0) {
        mmb_report_out_discard(&o);
        return 0;
    }
    mmb_gp_range_finish(&y);
    if (mmb_gp_commit(rep, &o, name, "dat", err, errlen) != 0)
        return -1;
    struct mmb_report_figure *fig = mmb_report_figure_add(rep, name, MMB_REPORT_GROUP_TUNING, -1);
    if (!fig || mmb_report_out_open(&o, err, errlen) != 0) {
        mmb_errorf(err, errlen, "out of memory");
        return -1;
    }
    snprintf(fig->title, sizeof fig->title, "Tuning %s at %s (%s, %s L2): every configuration's time, fastest first",
             d->kernels[g0->kernel], shape, g0->dtype, g0->cache);
    snprintf(fig->caption, sizeof fig->caption,
             "Median time of every configuration of %s that ran, sorted, one line per GPU (log scale); the dashed "
             "line of the same colour is cuBLAS on that GPU. A flat start means many configurations are near the best.",
             d->kernels[g0->kernel]);
    mmb_gp_script_begin(o.f, rep, name, fig->title, (struct mmb_gp_canvas){1600, 900});
    mmb_gp_panel_begin(o.f, rep);
    fputs("    set title ", o.f);
    mmb_gp_string(o.f, fig->title);
    fputs("\n    set xlabel \"Configuration, fastest first (rank)\"\n    set ylabel \"Median time (ms, log scale)\"\n"
          "    set logscale y\n    set format y \"%g\"\n",
          o.f);
    fprintf(o.f, "    set xrange [0.5:%zu.5]\n", most);
    mmb_gp_range_set(o.f, 'y', &y);
    fputs("    set key outside below center horizontal samplen 3 spacing 1.1 height 1\n", o.f);
    int terms = 0;
    for (size_t b = 0; b < nm; b++) {
        const struct group *g = &gs[members[b]];
        char gpu[128];
        mmb_report_gpu_label(rep, g->gpu, gpu, sizeof gpu);
        mmb_gp_term(o.f, &terms);
        /* the colour each GPU has in the side-by-side figures; grey for published times */
        const char *color = g->tuned ? mmb_gp_gpu_color(g->gpu) : "#606060";
        fprintf(o.f, "\"%s.dat\" index %zu using 1:2 with linespoints pt %zu ps 1.2 lw 2.5 %slc rgb \"%s\" title ",
                name, b, 4 + 2 * b, g->tuned ? "" : "dt 3 ", color);
        mmb_gp_string(o.f, gpu);
        if (g->cublas) {
            char t[160];
            snprintf(t, sizeof t, "cuBLAS, %s", gpu);
            mmb_gp_term(o.f, &terms);
            fprintf(o.f, "%.9g with lines dt 2 lw 2 lc rgb \"%s\" title ", d->rows[g->cublas - 1].r.time_ms_median,
                    color);
            mmb_gp_string(o.f, t);
        }
    }
    fputc('\n', o.f);
    mmb_gp_script_end(o.f);
    return mmb_gp_commit(rep, &o, name, "gp", err, errlen);
}

int mmb_report_plot_tune(struct mmb_report *rep, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    struct group *gs = calloc(MAX_GROUPS, sizeof *gs);
    if (!gs) {
        mmb_errorf(err, errlen, "out of memory");
        return -1;
    }
    size_t n = groups_find(d, gs);
    int rc = 0;
    for (size_t j = 0; j < n && rc == 0; j++) {
        bool first = gs[j].tuned;
        for (size_t i = 0; i < j && first; i++)
            first = !(gs[i].kernel == gs[j].kernel && gs[i].m == gs[j].m && gs[i].n == gs[j].n && gs[i].k == gs[j].k &&
                      !strcmp(gs[i].dtype, gs[j].dtype) && !strcmp(gs[i].cache, gs[j].cache));
        if (first)
            rc = spread_write(rep, gs, n, j, err, errlen);
    }
    free(gs);
    return rc;
}

/* ---- the README and LaTeX section ----------------------------------------------------------- */

static void status_counts(FILE *f, const struct group *g)
{
    const char *sep = "";
    for (size_t s = 0; s < MMB_STATUS_COUNT; s++)
        if (g->by_status[s]) {
            fprintf(f, "%s%zu %s", sep, g->by_status[s], mmb_status_text((enum mmb_status)s));
            sep = ", ";
        }
}

/* Seed 000's table: the time of every configuration on every GPU, side by side. */
static void config_table(FILE *md, FILE *tex, const struct mmb_report *rep, const struct group *gs, size_t n,
                         size_t first)
{
    const struct mmb_report_data *d = &rep->data;
    const struct group *g0 = &gs[first];
    size_t cols[MAX_GROUPS], nc = 0;
    for (size_t j = 0; j < n; j++)
        if (gs[j].kernel == g0->kernel && gs[j].m == g0->m && gs[j].n == g0->n && gs[j].k == g0->k &&
            !strcmp(gs[j].dtype, g0->dtype))
            cols[nc++] = j;
    /* the configurations, in the order the first tuned GPU's CSV has them */
    const char *params[TABLE_MAX_CONFIGS];
    size_t np = 0;
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_report_row *r = &d->rows[i];
        if (r->kernel != g0->kernel || r->r.status == MMB_STATUS_RESTRICTED || !same_problem(g0, r) ||
            !is_tuned(r))
            continue;
        bool seen = false;
        for (size_t p = 0; p < np && !seen; p++)
            seen = !strcmp(params[p], r->r.params);
        if (seen)
            continue;
        if (np == TABLE_MAX_CONFIGS)
            return; /* a large space: the spread figure shows it instead */
        params[np++] = r->r.params;
    }
    if (np < 2 || nc < 2)
        return;
    char shape[96];
    shape_text(g0, shape, sizeof shape);
    fprintf(md, "#### %s at %s: median time (ms) of every configuration\n\nThe fastest of each GPU is in bold; "
                "published times are the seed's own.\n\n| parameters |", d->kernels[g0->kernel], shape);
    fprintf(tex, "\\begin{table}\n\\centering\n\\caption{%s at %s: median time (ms) of every configuration}\n"
                 "\\begin{tabular}{l", d->kernels[g0->kernel], shape);
    for (size_t c = 0; c < nc; c++)
        fputc('r', tex);
    fputs("}\n\\toprule\nParameters", tex);
    for (size_t c = 0; c < nc; c++) {
        char gpu[128];
        mmb_report_gpu_label(rep, gs[cols[c]].gpu, gpu, sizeof gpu);
        fputc(' ', md);
        mmb_report_md_text(md, gpu);
        fputs(" |", md);
        fputs(" & ", tex);
        mmb_report_tex_text(tex, gpu);
    }
    fputs("\n| --- |", md);
    for (size_t c = 0; c < nc; c++)
        fputs(" ---: |", md);
    fputs(" \\\\\n\\midrule\n", tex);
    fputs("\n", md);
    for (size_t p = 0; p < np; p++) {
        fprintf(md, "| `%s` |", params[p]);
        mmb_report_tex_text(tex, params[p]);
        for (size_t c = 0; c < nc; c++) {
            const struct group *g = &gs[cols[c]];
            const struct mmb_report_row *hit = NULL;
            for (size_t i = 0; i < d->nrows && !hit; i++) {
                const struct mmb_report_row *r = &d->rows[i];
                if (r->kernel == g->kernel && same_problem(g, r) && is_tuned(r) == g->tuned &&
                    !strcmp(r->r.params, params[p]))
                    hit = r;
            }
            char cell[64] = "";
            if (hit && hit->r.status == MMB_STATUS_OK)
                snprintf(cell, sizeof cell, "%.1f", hit->r.time_ms_median);
            else if (hit)
                snprintf(cell, sizeof cell, "%s", mmb_status_text(hit->r.status));
            bool best = hit && g->best && hit == &d->rows[g->best - 1];
            fprintf(md, " %s%s%s |", best ? "**" : "", cell[0] ? cell : "-", best ? "**" : "");
            fprintf(tex, " & %s", best ? "\\textbf{" : "");
            mmb_report_tex_text(tex, cell[0] ? cell : "--");
            fputs(best ? "}" : "", tex);
        }
        fputs("\n", md);
        fputs(" \\\\\n", tex);
    }
    fputs("\n", md);
    fputs("\\bottomrule\n\\end{tabular}\n\\end{table}\n\n", tex);
}

int mmb_report_tune_section(const struct mmb_report *rep, FILE *md, FILE *tex)
{
    const struct mmb_report_data *d = &rep->data;
    struct group *gs = calloc(MAX_GROUPS, sizeof *gs);
    if (!gs)
        return -1;
    size_t n = groups_find(d, gs);
    size_t tuned = 0;
    for (size_t j = 0; j < n; j++)
        tuned += gs[j].tuned;
    if (tuned == 0) {
        free(gs);
        return 0;
    }
    fputs("## Tuning\n\nWhat `mmbench tune` found: each row is one kernel at one size on one GPU. Restricted "
          "configurations are those a profile's `restrict` expressions remove (Kernel Tuner's restrictions); "
          "they cost no run. The Kernel Tuner-loadable results are the T4 files beside each CSV "
          "(`data/<gpu>/<profile>-<kernel>-<size>-<dtype>.t4.json`).\n\n",
          md);
    fputs("| GPU | kernel | size | best configuration | ms | GFLOP/s | % of cuBLAS | configurations |\n"
          "| --- | --- | --- | --- | ---: | ---: | ---: | --- |\n",
          md);
    fputs("% Tuning: best configuration per GPU and kernel\n\\begin{table}\n\\centering\n\\caption{Tuning: best "
          "configuration per GPU and kernel}\n\\begin{tabular}{lllrrr}\n\\toprule\nGPU & Kernel & Best configuration "
          "& Time (ms) & GFLOP/s & \\% of cuBLAS \\\\\n\\midrule\n",
          tex);
    for (size_t j = 0; j < n; j++) {
        const struct group *g = &gs[j];
        char gpu[128], shape[96], pct[32] = "-";
        mmb_report_gpu_label(rep, g->gpu, gpu, sizeof gpu);
        shape_text(g, shape, sizeof shape);
        const struct mmb_report_row *b = g->best ? &d->rows[g->best - 1] : NULL;
        if (b && g->cublas)
            snprintf(pct, sizeof pct, "%.1f", 100.0 * d->rows[g->cublas - 1].r.time_ms_median / b->r.time_ms_median);
        fputs("| ", md);
        mmb_report_md_text(md, gpu);
        fprintf(md, " | %s | %s | `%s` | ", d->kernels[g->kernel], shape, b ? b->r.params : "-");
        if (b)
            fprintf(md, "%.3f | %.0f | %s | ", b->r.time_ms_median, mmb_report_gflops(b), pct);
        else
            fputs("- | - | - | ", md);
        status_counts(md, g);
        fputs(" |\n", md);
        mmb_report_tex_text(tex, gpu);
        fprintf(tex, " & %s & ", d->kernels[g->kernel]);
        mmb_report_tex_text(tex, b ? b->r.params : "--");
        if (b)
            fprintf(tex, " & %.3f & %.0f & %s \\\\\n", b->r.time_ms_median, mmb_report_gflops(b), pct);
        else
            fputs(" & -- & -- & -- \\\\\n", tex);
    }
    fputs("\\bottomrule\n\\end{tabular}\n\\end{table}\n\n", tex);
    fputs("\n", md);
    for (size_t i = 0; i < rep->nfigs; i++)
        if (rep->figs[i].group == MMB_REPORT_GROUP_TUNING && rep->figs[i].gpu == -1)
            mmb_report_md_figure(md, rep, &rep->figs[i]);
    for (size_t j = 0; j < n; j++) {
        bool first = gs[j].tuned;
        for (size_t i = 0; i < j && first; i++)
            first = !(gs[i].tuned && gs[i].kernel == gs[j].kernel && gs[i].m == gs[j].m && gs[i].n == gs[j].n &&
                      gs[i].k == gs[j].k && !strcmp(gs[i].dtype, gs[j].dtype));
        if (first)
            config_table(md, tex, rep, gs, n, j);
    }
    fputs("The heatmaps under each GPU's figures draw the same times over two parameters at a time.\n\n", md);
    free(gs);
    return 0;
}
