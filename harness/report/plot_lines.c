/* plot_lines.c - line figures against matrix size: GFLOP/s, % of cuBLAS, DRAM
 * bandwidth and its % of peak, one table row per kind. A GPU's figure is one
 * panel; the side-by-side figure is the same panels on ranges every GPU shares. */
#include "report/figures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "report/gp.h"
#include "report/panels.h"

static double value_gflops(const struct mmb_report_data *d, const struct mmb_report_row *r)
{
    (void)d;
    return mmb_report_gflops(r);
}

static double value_pct_cublas(const struct mmb_report_data *d, const struct mmb_report_row *r)
{
    if (d->cublas < 0 || (int)r->kernel == d->cublas)
        return NAN;
    const struct mmb_report_row *c = mmb_report_best(d, r->gpu, (size_t)d->cublas, (size_t)r->shape);
    return c ? 100.0 * c->r.time_ms_median / r->r.time_ms_median : NAN;
}

static double value_gbps(const struct mmb_report_data *d, const struct mmb_report_row *r)
{
    (void)d;
    return mmb_report_dram_gbps(r);
}

static double value_pct_peak(const struct mmb_report_data *d, const struct mmb_report_row *r)
{
    (void)d;
    return mmb_report_dram_pct(r);
}

enum ref_line { REF_PEAK_GFLOPS, REF_PEAK_GBPS, REF_100_CUBLAS, REF_100_PEAK };

/* One row per figure kind drawn as one line per kernel against size. */
static const struct line_kind {
    const char *name;
    const char *short_name; /* in the README's list of figures left out */
    const char *title;
    const char *ylabel;
    const char *caption;
    const char *lacks;       /* why a GPU has no such figure */
    bool log;
    bool circle_l2;          /* mark points whose output stayed in L2 */
    enum ref_line ref;
    double (*value)(const struct mmb_report_data *d, const struct mmb_report_row *r);
} line_kinds[] = {
    {"gflops", "GFLOP/s", "GFLOP/s against matrix size", "GFLOP/s (2MNK / median time)",
     "Throughput of each kernel's best configuration at every size, beside cuBLAS (black) and the GPU's FP32 peak (dotted); log scale.",
     "no timed rows", true, false, REF_PEAK_GFLOPS, value_gflops},
    {"pct-cublas", "% of cuBLAS", "% of cuBLAS against matrix size", "% of cuBLAS (cuBLAS time / kernel time)",
     "Each kernel's speed relative to cuBLAS on the same GPU at the same size; 100% is as fast as cuBLAS.",
     "no cuBLAS row at the sizes its kernels ran", false, false, REF_100_CUBLAS, value_pct_cublas},
    {"bandwidth", "DRAM bandwidth", "achieved DRAM bandwidth against matrix size", "DRAM bandwidth (GB/s, log scale)",
     "DRAM bandwidth that each kernel's best configuration achieves (DRAM byte counters over kernel time), under the GPU's peak (dotted), log scale; a circled point wrote less than half its output to DRAM because it stayed in L2.",
     "no DRAM counters (counter columns empty)", true, true, REF_PEAK_GBPS, value_gbps},
    {"bandwidth-pct", "DRAM bandwidth %", "DRAM bandwidth utilisation against matrix size", "DRAM bandwidth (% of peak, log scale)",
     "The same bandwidth as a percentage of the GPU's peak DRAM bandwidth (log scale), as the NvBench plots of seed 004 show it.",
     "no DRAM counters (counter columns empty)", true, true, REF_100_PEAK, value_pct_peak},
};

/* What one GPU's panel of a line kind has: the block of each kernel in its .dat. */
struct line_panel {
    int block[64];      /* per kernel: index in the .dat, -1 without points */
    int l2_block;       /* circled points, -1 when none */
    size_t points;
};

static int line_data_write(struct mmb_report *rep, const struct line_kind *lk, size_t g, const char *name,
                           struct line_panel *p, struct mmb_gp_range *y, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    struct mmb_report_out o;
    if (mmb_report_out_open(&o, err, errlen) != 0)
        return -1;
    fprintf(o.f, "# %s: %s on %s\n# shape-index value l2-low  # kernel, params, shape\n", name, lk->title,
            d->gpus[g].name);
    int blocks = 0;
    p->points = 0;
    p->l2_block = -1;
    size_t l2 = 0;
    for (size_t k = 0; k < d->nkernels && k < MMB_COUNT(p->block); k++) {
        p->block[k] = -1;
        for (size_t s = 0; s < d->nshapes; s++) {
            const struct mmb_report_row *r = mmb_report_best(d, g, k, s);
            double v = r ? lk->value(d, r) : NAN;
            if (!isfinite(v))
                continue;
            if (p->block[k] < 0) {
                if (blocks)
                    fputs("\n\n", o.f);
                p->block[k] = blocks++;
            }
            char label[96];
            mmb_report_shape_label(&d->shapes[s], label, sizeof label);
            fprintf(o.f, "%zu %.9g %d  # %s, %s, %s\n", s, v, r->l2_low, d->kernels[k],
                    r->r.params[0] ? r->r.params : "-", label);
            mmb_gp_range_add(y, v);
            p->points++;
            l2 += lk->circle_l2 && r->l2_low;
        }
    }
    if (l2) {
        fputs("\n\n# points whose DRAM writes stayed in L2\n", o.f);
        p->l2_block = blocks++;
        for (size_t k = 0; k < d->nkernels; k++)
            for (size_t s = 0; s < d->nshapes; s++) {
                const struct mmb_report_row *r = mmb_report_best(d, g, k, s);
                double v = r ? lk->value(d, r) : NAN;
                if (isfinite(v) && r->l2_low)
                    fprintf(o.f, "%zu %.9g\n", s, v);
            }
    }
    if (p->points == 0) {
        mmb_report_out_discard(&o);
        return 0;
    }
    return mmb_gp_commit(rep, &o, name, "dat", err, errlen);
}

static double ref_value(const struct line_kind *lk, const struct mmb_report_gpu *gpu)
{
    switch (lk->ref) {
    case REF_PEAK_GFLOPS:
        return gpu->peak_gflops;
    case REF_PEAK_GBPS:
        return gpu->peak_gbps;
    default:
        return 100.0;
    }
}

/* Short, so that the legend stays on one or two rows; the value is written on
 * the line itself (ref_label). */
static const char *ref_title(const struct line_kind *lk)
{
    switch (lk->ref) {
    case REF_PEAK_GFLOPS:
        return "FP32 peak";
    case REF_PEAK_GBPS:
        return "DRAM peak";
    case REF_100_CUBLAS:
        return "cuBLAS = 100%";
    default:
        return "peak = 100%";
    }
}

static void ref_label(FILE *f, const struct line_kind *lk, const struct mmb_report_gpu *gpu)
{
    if (lk->ref == REF_PEAK_GFLOPS && isfinite(gpu->peak_gflops))
        fprintf(f, "    set label \"%.1f TFLOP/s\" at graph 0.99, first %.9g right offset 0,0.8 tc rgb \"#404040\"\n",
                gpu->peak_gflops / 1000, gpu->peak_gflops);
    if (lk->ref == REF_PEAK_GBPS && isfinite(gpu->peak_gbps))
        fprintf(f, "    set label \"%.0f GB/s\" at graph 0.99, first %.9g right offset 0,0.8 tc rgb \"#404040\"\n",
                gpu->peak_gbps, gpu->peak_gbps);
}

/* What the panels of one line kind share. */
struct lines {
    const struct line_kind *lk;
    struct line_panel *panels;       /* [GPU] */
    struct mmb_gp_range y;           /* shared by every GPU */
    bool seen[64];                   /* [kernel]: drawn in some panel */
    bool any_l2;                     /* some panel circles points */
};

static void line_panel_write(FILE *f, const struct mmb_report *rep, size_t g, const char *dat, const char *title,
                             const struct mmb_gp_pos *pos, const void *ctx)
{
    const struct lines *ls = ctx;
    const struct line_kind *lk = ls->lk;
    const struct line_panel *p = &ls->panels[g];
    const struct mmb_gp_range *y = &ls->y;
    const struct mmb_report_data *d = &rep->data;
    mmb_gp_panel_begin(f, rep);
    mmb_gp_panel_box(f, pos);
    fputs("    set title ", f);
    mmb_gp_string(f, title);
    fputc('\n', f);
    mmb_gp_ylabel(f, pos, lk->ylabel);
    mmb_gp_shapes_xtics(f, d, pos);
    mmb_gp_range_set(f, 'y', y);
    ref_label(f, lk, &d->gpus[g]);
    if (!pos->shared)
        fputs("    set key outside below center horizontal samplen 3 spacing 1.1 width 1 height 1\n", f);
    int n = 0;
    for (size_t k = 0; k < d->nkernels && k < MMB_COUNT(p->block); k++) {
        if (p->block[k] < 0)
            continue;
        mmb_gp_term(f, &n);
        fprintf(f, "\"%s.dat\" index %d using 1:2 with linespoints ls %zu title ", dat, p->block[k], k + 1);
        mmb_gp_string(f, d->kernels[k]);
    }
    double ref = ref_value(lk, &d->gpus[g]);
    if (isfinite(ref)) {
        mmb_gp_term(f, &n);
        fprintf(f, "%.9g with lines lc rgb \"#404040\" dt 3 lw 2.5 title ", ref);
        mmb_gp_string(f, ref_title(lk));
    }
    if (p->l2_block >= 0) {
        mmb_gp_term(f, &n);
        fprintf(f, "\"%s.dat\" index %d using 1:2 with points pt 6 ps 4.5 * PS lw 1.5 lc rgb \"#404040\" title \"output stayed in L2\"",
                dat, p->l2_block);
    }
    fputc('\n', f);
}

/* The shared legend: every kernel any panel draws, the reference line, the circles. */
static void line_legend_write(FILE *f, const struct mmb_report *rep, const struct mmb_gp_pos *pos, const void *ctx)
{
    const struct lines *ls = ctx;
    const struct line_kind *lk = ls->lk;
    const bool *seen = ls->seen, any_l2 = ls->any_l2;
    const struct mmb_report_data *d = &rep->data;
    size_t entries = 1 + any_l2;
    for (size_t k = 0; k < d->nkernels && k < 64; k++)
        entries += seen[k];
    mmb_gp_legend_begin(f, pos, entries);
    int n = 0;
    for (size_t k = 0; k < d->nkernels && k < 64; k++) {
        if (!seen[k])
            continue;
        mmb_gp_term(f, &n);
        fprintf(f, "NaN with linespoints ls %zu title ", k + 1);
        mmb_gp_string(f, d->kernels[k]);
    }
    mmb_gp_term(f, &n);
    fputs("NaN with lines lc rgb \"#404040\" dt 3 lw 2.5 title ", f);
    mmb_gp_string(f, ref_title(lk));
    if (any_l2) {
        mmb_gp_term(f, &n);
        fputs("NaN with points pt 6 ps 4.5 * PS lw 1.5 lc rgb \"#404040\" title \"output stayed in L2\"", f);
    }
    fputc('\n', f);
}

/* GPU g's data file; a GPU with points adds its reference line to the range. */
static int line_data(struct mmb_report *rep, size_t g, const char *name, bool *has, void *ctx, char *err,
                     size_t errlen)
{
    struct lines *ls = ctx;
    struct line_panel *p = &ls->panels[g];
    int rc = line_data_write(rep, ls->lk, g, name, p, &ls->y, err, errlen);
    if (rc == 0 && p->points == 0)
        mmb_report_omit_add(rep, (int)g, ls->lk->short_name, ls->lk->lacks);
    if (p->points == 0)
        return rc;
    *has = true;
    ls->any_l2 = ls->any_l2 || p->l2_block >= 0;
    for (size_t k = 0; k < rep->data.nkernels && k < MMB_COUNT(ls->seen); k++)
        ls->seen[k] = ls->seen[k] || p->block[k] >= 0;
    mmb_gp_range_add(&ls->y, ref_value(ls->lk, &rep->data.gpus[g]));
    return rc;
}

static int line_kind_write(struct mmb_report *rep, const struct line_kind *lk, char *err, size_t errlen)
{
    struct mmb_report_data *d = &rep->data;
    struct line_panel *panels = calloc(d->ngpus ? d->ngpus : 1, sizeof *panels);
    bool *has = calloc(d->ngpus ? d->ngpus : 1, sizeof *has);
    if (!panels || !has) {
        free(panels);
        free(has);
        mmb_errorf(err, errlen, "out of memory");
        return -1;
    }
    struct lines ls = {lk, panels, mmb_gp_range_new(lk->log), {false}, false};
    const struct mmb_report_panels figs = {lk->name, has, line_data, line_panel_write, line_legend_write, &ls};
    int rc = mmb_report_panels_data(rep, &figs, err, errlen);
    mmb_gp_range_finish(&ls.y);
    /* one figure per GPU, then every GPU side by side, on the ranges every GPU shares */
    if (rc == 0)
        rc = mmb_report_panels_each(rep, &figs, lk->title, lk->caption, (struct mmb_gp_canvas){1600, 1000}, err,
                                    errlen);
    if (rc == 0) {
        char name[160], sel[64], title[640], caption[640];
        snprintf(name, sizeof name, "gpus-%s", lk->name);
        mmb_report_selection(rep, -1, sel, sizeof sel);
        snprintf(title, sizeof title, "Every GPU: %s (%s, shared axes)", lk->title, sel);
        snprintf(caption, sizeof caption,
                 "%s against matrix size for every GPU side by side, on shared axes, oldest generation first.",
                 lk->short_name);
        rc = mmb_report_panels_gpus(rep, &figs, name, title, caption, err, errlen);
    }
    free(panels);
    free(has);
    return rc;
}

int mmb_report_plot_lines(struct mmb_report *rep, char *err, size_t errlen)
{
    for (size_t i = 0; i < MMB_COUNT(line_kinds); i++)
        if (line_kind_write(rep, &line_kinds[i], err, errlen) != 0)
            return -1;
    return 0;
}
