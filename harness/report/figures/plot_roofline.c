/* plot_roofline.c - the hierarchical roofline of each GPU: the FP32 roof and a
 * bandwidth roof for each memory level the data has (DRAM from the GPU's peak; L2
 * and L1 from the roofs scripts/ncu-compare.sh measured with Nsight Compute), and
 * each kernel at each square size placed once per level by its intensity there
 * (2MNK over the bytes that level moved: DRAM always, L2 and L1 where the CSV has
 * their byte counters). Points carry their size; circled points wrote their output
 * to L2 only, so their DRAM intensity counts reads alone. */
#include "report/figures/figures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "report/figures/gp.h"
#include "report/figures/panels.h"
#include "report/input/out.h"
#include "report/input/row.h"
#include "report/input/select.h"

/* The memory levels, in the order the figure names them. */
enum level { LEVEL_DRAM, LEVEL_L2, LEVEL_L1, LEVELS };
static const char *const level_names[] = {"DRAM", "L2", "L1"};

/* What the panels share. */
struct roofline {
    int (*blocks)[MMB_REPORT_KERNELS_MAX][LEVELS]; /* [GPU][kernel][level]: block of the .dat, -1 none */
    int *l2_block;                                /* [GPU]: circled points, -1 none */
    struct mmb_gp_range x, y;                     /* shared by every GPU */
    bool seen[MMB_REPORT_KERNELS_MAX];
    bool level_seen[LEVELS];
    bool any_l2;
};

static double level_bytes(const struct mmb_report_row *r, enum level l)
{
    switch (l) {
    case LEVEL_DRAM:
        return r->r.dram_read_bytes + r->r.dram_write_bytes;
    case LEVEL_L2:
        return r->r.l2_bytes;
    default:
        return r->r.l1_bytes;
    }
}

static double level_roof(const struct mmb_report *rep, size_t g, enum level l)
{
    const struct mmb_report_device *dv = &rep->devices[g];
    return l == LEVEL_DRAM ? rep->data.gpus[g].peak_gbps : l == LEVEL_L2 ? dv->roof_l2 : dv->roof_l1;
}

/* "1k" for 1024: short enough to sit beside a point. */
static void size_text(long long n, char *out, size_t len)
{
    if (n >= 1024 && n % 1024 == 0)
        snprintf(out, len, "%lldk", n / 1024);
    else
        snprintf(out, len, "%lld", n);
}

/* gnuplot/roofline-<GPU>.dat: per kernel and level a block, a point per square size:
 * intensity, GFLOP/s, size label. Sets has when the GPU has points. */
static int roofline_data(struct mmb_report *rep, size_t g, const char *name, bool *has, void *ctx, char *err,
                         size_t errlen)
{
    struct roofline *rl = ctx;
    const struct mmb_report_data *d = &rep->data;
    struct mmb_report_out o;
    if (mmb_report_out_open(&o, err, errlen) != 0)
        return -1;
    fprintf(o.f, "# %s: intensity (FLOP per byte of each level) and GFLOP/s on %s\n# intensity GFLOP/s size\n", name,
            d->gpus[g].name);
    int nb = 0;
    bool peaks = isfinite(d->gpus[g].peak_gbps) && isfinite(d->gpus[g].peak_gflops);
    for (size_t k = 0; k < d->nkernels; k++)
        for (int l = 0; l < LEVELS; l++) {
            rl->blocks[g][k][l] = -1;
            for (size_t s = 0; s < d->nshapes && peaks; s++) {
                const struct mmb_report_row *r = mmb_report_select_best(d, g, k, s);
                double bytes = r ? level_bytes(r, (enum level)l) : NAN, gf = r ? mmb_report_row_gflops(r) : NAN;
                if (!r || !mmb_gp_square(&d->shapes[s]) || !(bytes > 0) || !isfinite(gf))
                    continue;
                if (rl->blocks[g][k][l] < 0) {
                    fprintf(o.f, "%s# %s, %s\n", nb ? "\n\n" : "", d->kernels[k], level_names[l]);
                    rl->blocks[g][k][l] = nb++;
                }
                double in = 2.0 * (double)r->r.m * (double)r->r.n * (double)r->r.k / bytes;
                char label[32];
                size_text(d->shapes[s].m, label, sizeof label);
                fprintf(o.f, "%.9g %.9g %s  # %s\n", in, gf, label, r->r.params[0] ? r->r.params : "-");
                mmb_gp_range_add(&rl->x, in);
                mmb_gp_range_add(&rl->y, gf);
                rl->seen[k] = true;
                rl->level_seen[l] = true;
            }
        }
    rl->l2_block[g] = -1;
    for (size_t k = 0; k < d->nkernels && nb; k++)
        for (size_t s = 0; s < d->nshapes; s++) {
            const struct mmb_report_row *r = mmb_report_select_best(d, g, k, s);
            if (!r || !r->l2_low || !mmb_gp_square(&d->shapes[s]) || rl->blocks[g][k][LEVEL_DRAM] < 0)
                continue;
            if (rl->l2_block[g] < 0) {
                fputs("\n\n# outputs that stayed in L2: DRAM intensity from reads alone\n", o.f);
                rl->l2_block[g] = nb++;
            }
            fprintf(o.f, "%.9g %.9g\n", mmb_report_row_intensity(r), mmb_report_row_gflops(r));
        }
    if (nb == 0) {
        mmb_report_out_discard(&o);
        mmb_report_state_omit_add(rep, (int)g, "roofline",
                                  peaks ? "no DRAM counters (counter columns empty)"
                                        : "no peak_gbps or peak_gflops for this GPU");
        return 0;
    }
    *has = true;
    rl->any_l2 = rl->any_l2 || rl->l2_block[g] >= 0;
    /* the roofs' ridges, with room to their left for the slopes */
    for (int l = 0; l < LEVELS; l++) {
        double roof = level_roof(rep, g, (enum level)l);
        if (roof > 0)
            mmb_gp_range_add(&rl->x, d->gpus[g].peak_gflops / roof / 3);
    }
    mmb_gp_range_add(&rl->y, d->gpus[g].peak_gflops * 1.5);
    return mmb_gp_commit(rep, &o, name, "dat", err, errlen);
}

/* Each roof as a function, with its name and bandwidth written along it. */
static void roofs_write(FILE *f, const struct mmb_report *rep, size_t g, const struct mmb_gp_range *x, bool shared)
{
    const struct mmb_report_gpu *gp = &rep->data.gpus[g];
    fprintf(f, "    P = %.1f\n", gp->peak_gflops);
    for (int l = 0; l < LEVELS; l++) {
        double roof = level_roof(rep, g, (enum level)l);
        if (!(roof > 0))
            continue;
        fprintf(f, "    B%d = %.1f\n    roof%d(x) = x * B%d < P ? x * B%d : P\n", l, roof, l, l, l);
        /* the label sits on the slope, a third of the way from the left edge to the ridge */
        double ridge = gp->peak_gflops / roof, at = exp(log(x->lo) + (log(ridge) - log(x->lo)) * 0.45);
        if (at > x->lo * 1.3)
            fprintf(f, "    set label \"%s %.0f GB/s\" at %.6g, %.6g left rotate by 28 offset 0,0.7 tc rgb \"#303030\" "
                       "font F%d\n",
                    level_names[l], roof, at, at * roof, MMB_GP_FONT_PT - (shared ? 8 : 4));
    }
    fprintf(f, "    set label \"FP32 peak %.1f TFLOP/s\" at graph 0.98, first P * 1.18 right tc rgb \"#303030\"%s\n",
            gp->peak_gflops / 1000, shared ? " font F14" : "");
}

static void roofline_panel_write(FILE *f, const struct mmb_report *rep, size_t g, const char *dat, const char *title,
                                 const struct mmb_gp_pos *pos, const void *ctx)
{
    const struct roofline *rl = ctx;
    const struct mmb_report_data *d = &rep->data;
    mmb_gp_panel_begin(f, rep);
    mmb_gp_panel_box(f, pos);
    fputs("    set title ", f);
    mmb_gp_string(f, title);
    fputc('\n', f);
    if (mmb_gp_xlabel_here(pos))
        fputs(pos->shared ? "    set xlabel \"FLOP per byte moved (log scale)\"\n"
                          : "    set xlabel \"Arithmetic intensity (FLOP per byte moved at each level, log scale)\"\n",
              f);
    else
        fputs("    unset xlabel\n", f);
    mmb_gp_ylabel(f, pos, "GFLOP/s (log scale)");
    mmb_gp_range_set(f, 'x', &rl->x);
    mmb_gp_range_set(f, 'y', &rl->y);
    fputs("    set samples 1000\n", f);
    roofs_write(f, rep, g, &rl->x, pos->shared);
    if (!pos->shared)
        fputs("    set key outside below center horizontal maxrows 3 samplen 3 spacing 1.1 height 1\n", f);
    int n = 0;
    for (int l = 0; l < LEVELS; l++)
        if (level_roof(rep, g, (enum level)l) > 0) {
            mmb_gp_term(f, &n);
            fprintf(f, "roof%d(x) with lines lw %.1f dt %d lc rgb \"#303030\" notitle", l, l == LEVEL_DRAM ? 3.5 : 2.5,
                    l == LEVEL_DRAM ? 1 : l == LEVEL_L2 ? 2 : 4);
        }
    for (size_t k = 0; k < d->nkernels; k++)
        for (int l = 0; l < LEVELS; l++) {
            int b = rl->blocks[g][k][l];
            if (b < 0)
                continue;
            mmb_gp_term(f, &n);
            fprintf(f, "\"%s.dat\" index %d using 1:2 with linespoints ls %zu lw 1 %s", dat, b, k + 1,
                    l == LEVEL_DRAM ? "" : l == LEVEL_L2 ? "pt 6 " : "pt 8 ");
            if (l == LEVEL_DRAM && !pos->shared) {
                fputs("title ", f);
                mmb_gp_string(f, d->kernels[k]);
            } else {
                fputs("notitle", f);
            }
            mmb_gp_term(f, &n);
            fprintf(f, "\"%s.dat\" index %d using 1:2:3 with labels left offset 0.7,0 font F%d tc rgb \"#404040\" notitle",
                    dat, b, MMB_GP_FONT_PT - 8);
        }
    if (rl->l2_block[g] >= 0) {
        mmb_gp_term(f, &n);
        fprintf(f, "\"%s.dat\" index %d using 1:2 with points pt 6 ps 4.5 * PS lw 1.5 lc rgb \"#707070\" %s", dat,
                rl->l2_block[g], pos->shared ? "notitle" : "title \"output stayed in L2\"");
    }
    if (!pos->shared)
        for (int l = LEVEL_L2; l < LEVELS; l++)
            if (rl->level_seen[l]) {
                mmb_gp_term(f, &n);
                fprintf(f, "NaN with points pt %d ps 2 * PS lw 2 lc rgb \"#404040\" title \"%s intensity\"",
                        l == LEVEL_L2 ? 6 : 8, level_names[l]);
            }
    fputc('\n', f);
}

static void roofline_legend_write(FILE *f, const struct mmb_report *rep, const struct mmb_gp_pos *pos, const void *ctx)
{
    const struct roofline *rl = ctx;
    const struct mmb_report_data *d = &rep->data;
    size_t entries = rl->any_l2 + rl->level_seen[LEVEL_L2] + rl->level_seen[LEVEL_L1];
    for (size_t k = 0; k < d->nkernels; k++)
        entries += rl->seen[k];
    mmb_gp_legend_begin(f, pos, entries);
    int n = 0;
    for (size_t k = 0; k < d->nkernels; k++) {
        if (!rl->seen[k])
            continue;
        mmb_gp_term(f, &n);
        fprintf(f, "NaN with points ls %zu lw 2 title ", k + 1);
        mmb_gp_string(f, d->kernels[k]);
    }
    if (rl->any_l2) {
        mmb_gp_term(f, &n);
        fputs("NaN with points pt 6 ps 4.5 * PS lw 1.5 lc rgb \"#707070\" title \"output stayed in L2\"", f);
    }
    fputc('\n', f);
}

static void caption_write(const struct mmb_report *rep, const struct roofline *rl, char *out, size_t len)
{
    bool roofs = false;
    for (size_t g = 0; g < rep->data.ngpus; g++)
        roofs = roofs || level_roof(rep, g, LEVEL_L2) > 0 || level_roof(rep, g, LEVEL_L1) > 0;
    snprintf(out, len,
             "Each kernel's best configuration at each square size (labelled: 1k = 1024), placed by arithmetic "
             "intensity, 2MNK over the bytes a memory level moved, and GFLOP/s, under the FP32 roof and a bandwidth "
             "roof per level (log scales). A point right of a level's ridge cannot be limited by that level; that "
             "does not make it compute-bound: its distance to the FP32 roof is what the Speed-of-Light bars explain. "
             "Up to the size where A, B and C fit in L2 (circled: the output stayed in L2) DRAM bytes are the "
             "compulsory reads, so DRAM intensity is about N/4 whatever the kernel.%s%s",
             rl->level_seen[LEVEL_L2] || rl->level_seen[LEVEL_L1]
                 ? " Open circles and triangles: the same runs at L2 and L1."
                 : " L2 and L1 intensities need the l1_bytes and l2_bytes counters, which these CSVs lack.",
             roofs ? "" : " L2 and L1 roofs need the roof lines of scripts/ncu-compare.sh for this GPU.");
}

int mmb_report_plot_roofline(struct mmb_report *rep, char *err, size_t errlen)
{
    struct mmb_report_data *d = &rep->data;
    size_t n = d->ngpus ? d->ngpus : 1;
    struct roofline rl = {calloc(n, sizeof *rl.blocks), calloc(n, sizeof *rl.l2_block), mmb_gp_range_new(true),
                          mmb_gp_range_new(true), {false}, {false}, false};
    bool *has = calloc(n, sizeof *has);
    if (!rl.blocks || !rl.l2_block || !has) {
        free(rl.blocks);
        free(rl.l2_block);
        free(has);
        return mmb_failf(err, errlen, "out of memory");
    }
    const struct mmb_report_panels figs = {"roofline", has, roofline_data, roofline_panel_write, roofline_legend_write,
                                           &rl};
    int rc = mmb_report_panels_data(rep, &figs, err, errlen);
    mmb_gp_range_finish(&rl.x);
    mmb_gp_range_finish(&rl.y);
    char caption[1024];
    caption_write(rep, &rl, caption, sizeof caption);
    if (rc == 0)
        rc = mmb_report_panels_each(rep, &figs, "hierarchical roofline, square sizes", caption,
                                    (struct mmb_gp_canvas){1600, 1100}, err, errlen);
    if (rc == 0) {
        char sel[64], title[640];
        mmb_report_state_selection(rep, -1, sel, sizeof sel);
        snprintf(title, sizeof title, "Every GPU: hierarchical roofline (%s, shared axes)", sel);
        rc = mmb_report_panels_gpus(rep, &figs, "gpus-roofline", title,
                                    "The rooflines of every GPU side by side on shared axes, oldest generation first; "
                                    "markers and roofs as in each GPU's figure.",
                                    err, errlen);
    }
    free(rl.blocks);
    free(rl.l2_block);
    free(has);
    return rc;
}
