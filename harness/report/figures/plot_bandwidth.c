/* plot_bandwidth.c - memory traffic against matrix size, in three figure families
 * that share one data file per GPU (gnuplot/bandwidth-<GPU>.dat):
 *   bandwidth-<GPU>        the two definitions side by side: the DRAM traffic the
 *                          counters measured, and nvbench's declared bytes (seed
 *                          004's GlobalMem BW: A, B and C once); GB/s on the left
 *                          axis, % of the DRAM peak on the right, both linear;
 *   gpus-bandwidth-<kernel> seed 004's layout: one figure per kernel, the GPUs as
 *                          lines, both definitions;
 *   traffic-<GPU>          what each level moved over the compulsory bytes: DRAM,
 *                          and L1 and L2 where the CSV has their byte counters.
 * Square sizes are lines against N (log2); other shapes open markers at the N of
 * the same FLOP count; a dashed line marks where A, B and C outgrow each GPU's L2;
 * a diamond marks where a kernel's best configuration changes. */
#include "report/figures/figures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "core/dtype.h"
#include "core/error.h"
#include "core/file.h"
#include "report/figures/gp.h"
#include "report/input/labels.h"
#include "report/input/out.h"
#include "report/input/row.h"
#include "report/input/select.h"
#include "results/row.h"

/* Columns of the data file, after x (1). */
enum { C_GBPS = 2, C_PCT, C_DECL_GBPS, C_DECL_PCT, C_DRAM_X, C_L1_X, C_L2_X, C_SMEM_X, C_CHANGED, C_L2_LOW };

/* What one GPU's data file holds. */
struct bw_gpu {
    int square[MMB_REPORT_KERNELS_MAX]; /* block per kernel, -1 none */
    int rect[MMB_REPORT_KERNELS_MAX];
    size_t squares;                     /* square points with a measured bandwidth */
    bool declared, measured, l1, l2, smem, changes, l2_low;
    double gbps_max, decl_max, ratio_lo, ratio_hi;
    double kernel_gbps[MMB_REPORT_KERNELS_MAX], kernel_pct[MMB_REPORT_KERNELS_MAX]; /* largest of either definition */
};

/* Panels from 0.29 up, a legend strip of LEGEND_PX at the bottom. */
#define LEGEND_PX 190
#define PANEL_B 0.30
#define PANEL_T 0.86

static double elem_size(const struct mmb_report_data *d)
{
    enum mmb_dtype t;
    return mmb_dtype_parse(d->dtype, &t) ? (double)mmb_dtype_info(t)->size : 4.0;
}

static void point_write(FILE *f, const struct mmb_report_row *r, double x, bool changed, struct bw_gpu *b)
{
    size_t k = r->kernel;
    double need = mmb_row_compulsory_bytes(&r->r);
    double dram = r->r.dram_read_bytes + r->r.dram_write_bytes;
    double v[] = { mmb_report_row_dram_gbps(r),
                   mmb_report_row_dram_pct(r),
                   mmb_row_declared_gbps(&r->r),
                   mmb_row_declared_pct(&r->r),
                   dram / need,
                   r->r.l1_bytes / need,
                   r->r.l2_bytes / need,
                   r->r.smem_wavefronts * 128.0 / need }; /* a wavefront serves up to 128 bytes */
    fprintf(f, "%.6g", x);
    for (size_t i = 0; i < MMB_COUNT(v); i++)
        fprintf(f, isfinite(v[i]) ? " %.6g" : " NaN", v[i]);
    fprintf(f, " %d %d  # %lldx%lldx%lld, %s\n", changed, r->l2_low, r->r.m, r->r.n, r->r.k,
            r->r.params[0] ? r->r.params : "-");
    b->measured = b->measured || isfinite(v[0]);
    b->declared = b->declared || isfinite(v[2]);
    b->l1 = b->l1 || isfinite(v[5]);
    b->l2 = b->l2 || isfinite(v[6]);
    b->smem = b->smem || (isfinite(v[7]) && v[7] > 0);
    b->changes = b->changes || changed;
    b->l2_low = b->l2_low || r->l2_low;
    b->gbps_max = fmax(b->gbps_max, isfinite(v[0]) ? v[0] : 0);
    for (size_t i = 0; i < 4 && k < MMB_REPORT_KERNELS_MAX; i++)
        if (isfinite(v[i])) {
            double *to = i % 2 ? &b->kernel_pct[k] : &b->kernel_gbps[k];
            *to = fmax(*to, v[i]);
        }
    b->decl_max = fmax(b->decl_max, isfinite(v[2]) ? v[2] : 0);
    for (size_t i = 4; i < 8; i++)
        if (isfinite(v[i]) && v[i] > 0) {
            b->ratio_lo = fmin(b->ratio_lo, v[i]);
            b->ratio_hi = fmax(b->ratio_hi, v[i]);
        }
}

/* gnuplot/bandwidth-<GPU>.dat: per kernel a block of square sizes, then a block of
 * the other shapes. */
static int bw_data_write(struct mmb_report *rep, size_t g, struct bw_gpu *b, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    struct mmb_report_out o;
    char name[160];
    snprintf(name, sizeof name, "bandwidth-%s", d->gpus[g].slug);
    if (mmb_report_out_open(&o, err, errlen) != 0)
        return -1;
    fprintf(o.f, "# %s: memory traffic of each kernel's best configuration on %s\n"
                 "# x measured-GB/s measured-%% declared-GB/s declared-%% DRAM/compulsory L1/compulsory "
                 "L2/compulsory shared/compulsory config-changed output-in-L2\n",
            name, d->gpus[g].name);
    *b = (struct bw_gpu){.ratio_lo = INFINITY, .ratio_hi = 0};
    int blocks = 0;
    for (size_t k = 0; k < d->nkernels; k++) {
        for (int rect = 0; rect < 2; rect++) {
            int *at = rect ? &b->rect[k] : &b->square[k];
            *at = -1;
            const char *last = NULL;
            for (size_t s = 0; s < d->nshapes; s++) {
                const struct mmb_report_row *r = mmb_report_select_best(d, g, k, s);
                if (!r || mmb_gp_square(&d->shapes[s]) == (rect != 0))
                    continue;
                if (*at < 0) {
                    fprintf(o.f, "%s# %s, %s\n", blocks ? "\n\n" : "", d->kernels[k], rect ? "other shapes" : "squares");
                    *at = blocks++;
                }
                bool changed = !rect && last && strcmp(last, r->r.params) != 0;
                last = r->r.params;
                point_write(o.f, r, mmb_gp_size_x(&d->shapes[s]), changed, b);
                b->squares += !rect && isfinite(mmb_report_row_dram_gbps(r));
            }
        }
    }
    if (!b->measured || b->squares < 2) {
        mmb_report_out_discard(&o);
        b->squares = 0;
        return 0;
    }
    return mmb_gp_commit(rep, &o, name, "dat", err, errlen);
}

/* ---- the panels ------------------------------------------------------------------------ */

/* Plot box in screen coordinates. */
struct box {
    double l, r, b, t;
};

static void box_set(FILE *f, struct box x)
{
    fprintf(f, "    set lmargin at screen %.4f\n    set rmargin at screen %.4f\n    set bmargin at screen %.4f\n"
               "    set tmargin at screen %.4f\n",
            x.l, x.r, x.b, x.t);
}

/* The GB/s axis on the left, the same scale as % of peak on the right. */
static void gbps_axes(FILE *f, double max, double peak, bool ylabel, const char *what)
{
    double hi = max > 0 ? max * 1.15 : 1;
    fprintf(f, "    set yrange [0:%.6g]\n", hi);
    if (ylabel) {
        fputs("    set ylabel ", f);
        mmb_gp_string(f, what);
        fputc('\n', f);
    }
    if (peak > 0) {
        fprintf(f, "    set y2range [0:%.6g]\n    set y2tics nomirror\n    set y2label \"%% of the DRAM peak (%.0f GB/s)\"\n",
                100 * hi / peak, peak);
        fputs("    set format y2 \"%g\"\n", f);
    }
}

/* Kernel lines of one column of GPU g's data file. */
static void kernel_terms(FILE *f, const struct mmb_report *rep, const char *dat, const struct bw_gpu *b, int col,
                         bool titles, int *n)
{
    const struct mmb_report_data *d = &rep->data;
    for (size_t k = 0; k < d->nkernels; k++) {
        if (b->square[k] >= 0) {
            mmb_gp_term(f, n);
            fprintf(f, "\"%s.dat\" index %d using 1:%d with linespoints ls %zu ", dat, b->square[k], col, k + 1);
            if (titles) {
                fputs("title ", f);
                mmb_gp_string(f, d->kernels[k]);
            } else {
                fputs("notitle", f);
            }
            mmb_gp_term(f, n);
            fprintf(f, "\"%s.dat\" index %d using 1:($%d > 0 ? $%d : NaN) with points pt 12 ps 4 * PS lw 2 lc rgb "
                       "\"#303030\" notitle",
                    dat, b->square[k], C_CHANGED, col);
            mmb_gp_term(f, n);
            fprintf(f, "\"%s.dat\" index %d using 1:($%d > 0 ? $%d : NaN) with points pt 6 ps 5 * PS lw 1.5 lc rgb "
                       "\"#707070\" notitle",
                    dat, b->square[k], C_L2_LOW, col);
        }
        if (b->rect[k] >= 0) {
            mmb_gp_term(f, n);
            fprintf(f, "\"%s.dat\" index %d using 1:%d with points ls %zu pt %d lw 2.5 notitle", dat, b->rect[k], col,
                    k + 1, mmb_gp_open_point(rep, k));
        }
    }
}

static void marks_legend(FILE *f, const struct bw_gpu *b, int *n)
{
    mmb_gp_term(f, n);
    fputs("NaN with points pt 6 ps 2 * PS lw 2.5 lc rgb \"#404040\" title \"open: M×N×K\"", f);
    if (b->changes) {
        mmb_gp_term(f, n);
        fputs("NaN with points pt 12 ps 4 * PS lw 2 lc rgb \"#303030\" title \"best configuration changes\"", f);
    }
    if (b->l2_low) {
        mmb_gp_term(f, n);
        fputs("NaN with points pt 6 ps 5 * PS lw 1.5 lc rgb \"#707070\" title \"output stayed in L2\"", f);
    }
    mmb_gp_term(f, n);
    fputs("NaN with lines dt 2 lw 2 lc rgb \"#505050\" title \"A, B, C fill L2\"", f);
}

/* bandwidth-<GPU>: measured on the left, declared on the right. */

/* The strip under a figure's panels: a line sample per kernel with square sizes, then
 * the marks (configuration changes, L2-resident outputs); ends the multiplot. */
static void kernels_legend(FILE *f, const struct mmb_report_data *d, const struct bw_gpu *b,
                           const struct mmb_gp_pos *pos)
{
    size_t entries = 4 + b->changes + b->l2_low;
    for (size_t k = 0; k < d->nkernels; k++)
        entries += b->square[k] >= 0;
    mmb_gp_legend_strip(f, pos, entries, LEGEND_PX);
    int n = 0;
    for (size_t k = 0; k < d->nkernels; k++)
        if (b->square[k] >= 0) {
            mmb_gp_term(f, &n);
            fprintf(f, "NaN with linespoints ls %zu title ", k + 1);
            mmb_gp_string(f, d->kernels[k]);
        }
    marks_legend(f, b, &n);
    fputs("\n    unset multiplot\n", f);
}

static int bw_gpu_figure(struct mmb_report *rep, size_t g, const struct bw_gpu *b, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    char name[160], gpu[128], sel[64], l2[96];
    snprintf(name, sizeof name, "bandwidth-%s", d->gpus[g].slug);
    struct mmb_report_figure *fig = mmb_report_state_figure_add(rep, name, MMB_REPORT_GROUP_GPU, (int)g);
    struct mmb_report_out o;
    if (!fig || mmb_report_out_open(&o, err, errlen) != 0)
        return mmb_failf(err, errlen, "out of memory");
    mmb_report_state_gpu_label(rep, g, gpu, sizeof gpu);
    mmb_report_state_selection(rep, (int)g, sel, sizeof sel);
    snprintf(fig->title, sizeof fig->title, "%s: DRAM bandwidth, measured and declared (%s)", gpu, sel);
    snprintf(fig->caption, sizeof fig->caption,
             "Left: the DRAM bandwidth the counters measured (bytes read and written over the kernel's time). Right: "
             "nvbench's GlobalMem BW, which seed 004 plots: the compulsory bytes (A, B and C once) over the same time. "
             "Both in GB/s (left axis) and %% of the DRAM peak (right axis), linear; the dashed line is where A, B and C "
             "outgrow the L2, diamonds where a kernel's best configuration changes, circles where the output stayed in "
             "L2 (its writes uncounted).");
    const struct mmb_gp_canvas c = {1800, 1050};
    mmb_gp_script_begin(o.f, rep, name, fig->title, c);
    mmb_gp_multiplot_begin(o.f, fig->title);
    double peak = d->gpus[g].peak_gbps;
    snprintf(l2, sizeof l2, "L2 %.0f MiB", rep->devices[g].l2_mib);
    struct mmb_gp_pos pos = {true, 0, 2, 2, 1, c};
    for (int panel = 0; panel < 2; panel++) {
        mmb_gp_panel_begin(o.f, rep);
        box_set(o.f, panel ? (struct box){0.585, 0.915, PANEL_B, PANEL_T} : (struct box){0.07, 0.40, PANEL_B, PANEL_T});
        fputs("    unset key\n", o.f);
        pos.idx = (size_t)panel;
        mmb_gp_size_axis(o.f, d, &(struct mmb_gp_pos){false, 0, 1, 1, 1, c}, false);
        fputs(panel ? "    set title \"nvbench's declared bytes (A, B, C once) / time\"\n"
                    : "    set title \"Measured DRAM traffic / time (counters)\"\n",
              o.f);
        gbps_axes(o.f, panel ? b->decl_max : b->gbps_max, peak, true, "GB/s");
        mmb_gp_l2_mark(o.f, rep->devices[g].l2_mib, elem_size(d), "#505050", l2, 1);
        int n = 0;
        kernel_terms(o.f, rep, name, b, panel ? C_DECL_GBPS : C_GBPS, false, &n);
        fputc('\n', o.f);
    }
    pos.idx = 2;
    kernels_legend(o.f, d, b, &pos);
    mmb_gp_script_end(o.f);
    return mmb_gp_commit(rep, &o, name, "gp", err, errlen);
}

/* traffic-<GPU>: each level's bytes over the compulsory bytes; L1 and L2 panels
 * where the CSV has their byte counters. */
static int traffic_figure(struct mmb_report *rep, size_t g, const struct bw_gpu *b, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    char name[160], dat[160], gpu[128], sel[64], l2[96];
    snprintf(name, sizeof name, "traffic-%s", d->gpus[g].slug);
    snprintf(dat, sizeof dat, "bandwidth-%s", d->gpus[g].slug);
    struct mmb_report_figure *fig = mmb_report_state_figure_add(rep, name, MMB_REPORT_GROUP_GPU, (int)g);
    struct mmb_report_out o;
    if (!fig || mmb_report_out_open(&o, err, errlen) != 0)
        return mmb_failf(err, errlen, "out of memory");
    mmb_report_state_gpu_label(rep, g, gpu, sizeof gpu);
    mmb_report_state_selection(rep, (int)g, sel, sizeof sel);
    snprintf(fig->title, sizeof fig->title, "%s: bytes moved over the compulsory bytes (%s)", gpu, sel);
    snprintf(fig->caption, sizeof fig->caption,
             "What tiling does to traffic: each level's bytes over the compulsory bytes (A, B and C once), log scale; "
             "1 means every element crossed that level once. %s Left of the dashed line A, B and C fit in L2, so DRAM "
             "sees each byte about once whatever the kernel.",
             b->l1 || b->l2 ? (b->smem ? "L1 and L2 bytes are the l1tex__t_bytes and lts__t_bytes counters; L1's are "
                                         "global and local memory only, so a kernel that streams its tiles through "
                                         "shared memory has its own panel: shared-memory wavefronts x 128 bytes."
                                       : "L1 and L2 bytes are the l1tex__t_bytes and lts__t_bytes counters; L1's are "
                                         "global and local memory only, shared memory left out (these CSVs lack "
                                         "smem_wavefronts).")
                            : "L1 and L2 bytes are not in these CSVs (measured before mmbench read l1_bytes and "
                              "l2_bytes): only DRAM is drawn.");
    int panels = 1 + b->l1 + b->l2 + b->smem;
    const struct mmb_gp_canvas c = {panels == 1 ? 1600 : panels < 4 ? 2000 : 2400, 1050};
    mmb_gp_script_begin(o.f, rep, name, fig->title, c);
    mmb_gp_multiplot_begin(o.f, fig->title);
    static const struct {
        int col;
        const char *title;
    } levels[] = {{C_SMEM_X, "shared-memory bytes"}, {C_L1_X, "L1/TEX bytes (global)"}, {C_L2_X, "L2 bytes"},
                  {C_DRAM_X, "DRAM bytes"}};
    snprintf(l2, sizeof l2, "L2 %.0f MiB", rep->devices[g].l2_mib);
    double lo = b->ratio_lo < INFINITY ? pow(10, floor(log10(b->ratio_lo))) : 0.1;
    double hi = b->ratio_hi > 0 ? b->ratio_hi * 2 : 10;
    int at = 0;
    for (size_t i = 0; i < MMB_COUNT(levels); i++) {
        if ((i == 0 && !b->smem) || (i == 1 && !b->l1) || (i == 2 && !b->l2))
            continue;
        double gap = 0.06, w = (0.87 - gap * (panels - 1)) / panels, l = 0.10 + at * (w + gap);
        mmb_gp_panel_begin(o.f, rep);
        box_set(o.f, (struct box){l, l + w, PANEL_B, PANEL_T});
        fputs("    unset key\n", o.f);
        mmb_gp_size_axis(o.f, d, &(struct mmb_gp_pos){false, 0, 1, 1, 1, c}, false);
        fputs("    set title ", o.f);
        mmb_gp_string(o.f, levels[i].title);
        fprintf(o.f, "\n    set logscale y 10\n    set yrange [%.6g:%.6g]\n    set format y \"%%g×\"\n", lo, hi);
        /* one label for the row of panels: a multiplot keeps the last one set */
        fputs(at == 0 ? "    set ylabel \"bytes moved / compulsory bytes (log scale)\"\n" : "    unset ylabel\n", o.f);
        mmb_gp_l2_mark(o.f, rep->devices[g].l2_mib, elem_size(d), "#505050", l2, 1);
        fputs("    set arrow 2 from graph 0, first 1 to graph 1, first 1 nohead dt 3 lw 2 lc rgb \"#404040\" back\n", o.f);
        int n = 0;
        kernel_terms(o.f, rep, dat, b, levels[i].col, false, &n);
        fputc('\n', o.f);
        at++;
    }
    struct mmb_gp_pos pos = {true, 2, 3, 3, 1, c};
    kernels_legend(o.f, d, b, &pos);
    mmb_gp_script_end(o.f);
    return mmb_gp_commit(rep, &o, name, "gp", err, errlen);
}

/* ---- seed 004's layout: one figure per kernel, the GPUs as lines ------------------------------ */

static int kernel_gpus_figure(struct mmb_report *rep, size_t k, const struct bw_gpu *bs, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    size_t lines = 0;
    double gbps = 0, pct = 0;
    for (size_t g = 0; g < d->ngpus; g++)
        if (bs[g].squares && bs[g].square[k] >= 0) {
            lines++;
            gbps = fmax(gbps, bs[g].kernel_gbps[k]);
            pct = fmax(pct, bs[g].kernel_pct[k]);
        }
    if (lines < 2)
        return 0;
    char name[160], kslug[MMB_REPORT_NAME_MAX], sel[64];
    mmb_gpu_slug(d->kernels[k], kslug, sizeof kslug);
    snprintf(name, sizeof name, "gpus-bandwidth-%s", kslug);
    struct mmb_report_figure *fig = mmb_report_state_figure_add(rep, name, MMB_REPORT_GROUP_GPUS, -1);
    struct mmb_report_out o;
    if (!fig || mmb_report_out_open(&o, err, errlen) != 0)
        return mmb_failf(err, errlen, "out of memory");
    mmb_report_state_selection(rep, -1, sel, sizeof sel);
    snprintf(fig->title, sizeof fig->title, "%s: memory bandwidth on every GPU (%s)", d->kernels[k], sel);
    snprintf(fig->caption, sizeof fig->caption,
             "Seed 004's layout: one figure per kernel, a line per GPU, linear axes. Solid: DRAM traffic the counters "
             "measured; dashed with open markers: nvbench's declared bytes (A, B and C once), what seed 004's plots "
             "show. Left in GB/s, right as %% of each GPU's DRAM peak; the dashed vertical lines are where A, B and C "
             "outgrow each GPU's L2.");
    const struct mmb_gp_canvas c = {1800, 1050};
    mmb_gp_script_begin(o.f, rep, name, fig->title, c);
    mmb_gp_multiplot_begin(o.f, fig->title);
    for (int panel = 0; panel < 2; panel++) {
        mmb_gp_panel_begin(o.f, rep);
        box_set(o.f, panel ? (struct box){0.57, 0.96, PANEL_B, PANEL_T} : (struct box){0.085, 0.475, PANEL_B, PANEL_T});
        fputs("    unset key\n", o.f);
        mmb_gp_size_axis(o.f, d, &(struct mmb_gp_pos){false, 0, 1, 1, 1, c}, false);
        fputs(panel ? "    set title \"Bandwidth utilisation (% of each GPU's DRAM peak)\"\n"
                    : "    set title \"Memory bandwidth (GB/s)\"\n",
              o.f);
        fprintf(o.f, "    set yrange [0:%.6g]\n    set ylabel \"%s\"\n", (panel ? pct : gbps) * 1.15,
                panel ? "% of DRAM peak" : "GB/s");
        int n = 0, tag = 1;
        for (size_t g = 0; g < d->ngpus; g++) {
            char l2[160], gpu[96];
            mmb_report_label_gpu(d->gpus[g].name, gpu, sizeof gpu);
            snprintf(l2, sizeof l2, "%s L2 %.0f MiB", gpu, rep->devices[g].l2_mib);
            if (bs[g].squares && bs[g].square[k] >= 0)
                mmb_gp_l2_mark(o.f, rep->devices[g].l2_mib, elem_size(d), mmb_gp_gpu_color(g), l2, tag++);
        }
        for (size_t g = 0; g < d->ngpus; g++) {
            const struct bw_gpu *b = &bs[g];
            if (!b->squares || b->square[k] < 0)
                continue;
            char dat[160];
            snprintf(dat, sizeof dat, "bandwidth-%s", d->gpus[g].slug);
            for (int decl = 0; decl < 2; decl++) {
                mmb_gp_term(o.f, &n);
                fprintf(o.f, "\"%s.dat\" index %d using 1:%d with linespoints dt %d pt %d ps 2 * PS lw 2.5 lc rgb \"%s\" "
                             "notitle",
                        dat, b->square[k], panel ? (decl ? C_DECL_PCT : C_PCT) : (decl ? C_DECL_GBPS : C_GBPS),
                        decl ? 2 : 1, decl ? 6 : 7, mmb_gp_gpu_color(g));
            }
        }
        fputc('\n', o.f);
    }
    struct mmb_gp_pos pos = {true, 2, 3, 3, 1, c};
    mmb_gp_legend_strip(o.f, &pos, 2 * lines, LEGEND_PX);
    int n = 0;
    for (size_t g = 0; g < d->ngpus; g++) {
        if (!bs[g].squares || bs[g].square[k] < 0)
            continue;
        char gpu[96], t[160];
        mmb_report_label_gpu(d->gpus[g].name, gpu, sizeof gpu);
        for (int decl = 0; decl < 2; decl++) {
            snprintf(t, sizeof t, "%s, %s", gpu, decl ? "declared" : "measured");
            mmb_gp_term(o.f, &n);
            fprintf(o.f, "NaN with linespoints dt %d pt %d ps 2 * PS lw 2.5 lc rgb \"%s\" title ", decl ? 2 : 1,
                    decl ? 6 : 7, mmb_gp_gpu_color(g));
            mmb_gp_string(o.f, t);
        }
    }
    fputs("\n    unset multiplot\n", o.f);
    mmb_gp_script_end(o.f);
    return mmb_gp_commit(rep, &o, name, "gp", err, errlen);
}

int mmb_report_plot_bandwidth(struct mmb_report *rep, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    struct bw_gpu *bs = calloc(d->ngpus ? d->ngpus : 1, sizeof *bs);
    if (!bs)
        return mmb_failf(err, errlen, "out of memory");
    int rc = 0;
    for (size_t g = 0; g < d->ngpus && rc == 0; g++) {
        if (!mmb_report_select_gpu_has(d, g, NULL))
            continue;
        rc = bw_data_write(rep, g, &bs[g], err, errlen);
        if (rc == 0 && !bs[g].squares) {
            mmb_report_state_omit_add(rep, (int)g, "bandwidth", "no DRAM counters at two or more square sizes");
            mmb_report_state_omit_add(rep, (int)g, "traffic", "no DRAM counters at two or more square sizes");
        } else if (rc == 0) {
            rc = bw_gpu_figure(rep, g, &bs[g], err, errlen);
            if (rc == 0)
                rc = traffic_figure(rep, g, &bs[g], err, errlen);
        }
    }
    for (size_t k = 0; k < d->nkernels && rc == 0; k++)
        rc = kernel_gpus_figure(rep, k, bs, err, errlen);
    free(bs);
    return rc;
}
