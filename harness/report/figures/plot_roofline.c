/* plot_roofline.c - the hierarchical roofline, as Nsight Compute draws it: the FP32
 * roof and a bandwidth roof per memory level (DRAM from the GPU's peak; L2, L1 and
 * shared memory from the roofs Nsight Compute measured, devices.h), each kernel placed
 * once per level by its intensity there (2MNK over the bytes that level moved: DRAM,
 * L2 and L1 from their byte counters, shared memory from its wavefronts at 128 bytes
 * each). A level is drawn on a GPU only where that GPU has its roof; the caption names
 * what was left out. Two families: each GPU's figure, every kernel at every square
 * size (1k, 4k and 8k labelled; circled points wrote their output to L2 only, so their
 * DRAM intensity counts reads alone), and each ladder profile's figure per GPU at its
 * reference size, an arrow from each step to the next at each level. */
#include "report/figures/figures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/file.h"
#include "report/figures/gp.h"
#include "report/figures/panels.h"
#include "report/input/out.h"
#include "report/input/profiles.h"
#include "report/input/row.h"
#include "report/input/select.h"

/* The memory levels, in the order the figure names them, with their point types and
 * roof dash types. */
enum level { LEVEL_DRAM, LEVEL_L2, LEVEL_L1, LEVEL_SMEM, LEVELS };
static const char *const level_names[] = {"DRAM", "L2", "L1", "shared"};
static const int level_pt[] = {7, 6, 8, 4};
static const int level_dt[] = {1, 2, 4, 5};
/* bytes an SM's shared memory serves in one wavefront: 32 banks of 4 bytes */
#define SMEM_WAVEFRONT_BYTES 128.0

/* What the panels share. */
struct roofline {
    int (*blocks)[MMB_REPORT_KERNELS_MAX][LEVELS]; /* [GPU][kernel][level]: block of the .dat, -1 none */
    int *l2_block;                                /* [GPU]: circled points, -1 none */
    struct mmb_gp_range x, y;                     /* shared by every GPU */
    bool seen[MMB_REPORT_KERNELS_MAX];
    bool level_seen[LEVELS];
    bool (*unroofed)[LEVELS]; /* [GPU][level]: the rows have its bytes, the GPU no roof */
    bool any_l2;
};

static double level_bytes(const struct mmb_report_row *r, enum level l)
{
    switch (l) {
    case LEVEL_DRAM:
        return r->r.dram_read_bytes + r->r.dram_write_bytes;
    case LEVEL_L2:
        return r->r.l2_bytes;
    case LEVEL_L1:
        return r->r.l1_bytes;
    default:
        return r->r.smem_wavefronts * SMEM_WAVEFRONT_BYTES;
    }
}

static double level_roof(const struct mmb_report *rep, size_t g, enum level l)
{
    const struct mmb_report_device *dv = &rep->devices[g];
    return l == LEVEL_DRAM ? rep->data.gpus[g].peak_gbps
           : l == LEVEL_L2 ? dv->roof_l2
           : l == LEVEL_L1 ? dv->roof_l1
                           : dv->roof_smem;
}

/* The label of a point of the every-size figure: 1k, 4k and 8k only, so that the
 * labels of neighbouring sizes do not pile up; "" for the others. */
static void size_label(long long n, char *out, size_t len)
{
    if (n == 1024 || n == 4096 || n == 8192)
        snprintf(out, len, "%lldk", n / 1024);
    else
        out[0] = '\0';
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
            bool roofed = level_roof(rep, g, (enum level)l) > 0;
            double last_x = NAN, last_y = NAN; /* the kernel's last labelled point */
            for (size_t s = 0; s < d->nshapes && peaks; s++) {
                const struct mmb_report_row *r = mmb_report_select_best(d, g, k, s);
                double bytes = r ? level_bytes(r, (enum level)l) : NAN, gf = r ? mmb_report_row_gflops(r) : NAN;
                if (!r || !mmb_gp_square(&d->shapes[s]) || !(bytes > 0) || !isfinite(gf))
                    continue;
                if (!roofed && l != LEVEL_DRAM) { /* a point without its roof says nothing */
                    rl->unroofed[g][l] = true;
                    continue;
                }
                if (rl->blocks[g][k][l] < 0) {
                    fprintf(o.f, "%s# %s, %s\n", nb ? "\n\n" : "", d->kernels[k], level_names[l]);
                    rl->blocks[g][k][l] = nb++;
                }
                double in = 2.0 * (double)r->r.m * (double)r->r.n * (double)r->r.k / bytes;
                char label[32] = "";
                if (l == LEVEL_DRAM)
                    size_label(d->shapes[s].m, label, sizeof label);
                /* a label within a label's width of the kernel's last one would print over it */
                if (label[0] && fabs(log10(in / last_x)) < 0.12 && fabs(log10(gf / last_y)) < 0.06)
                    label[0] = '\0';
                if (label[0])
                    last_x = in, last_y = gf;
                fprintf(o.f, "%.9g %.9g \"%s\"  # %s\n", in, gf, label, r->r.params[0] ? r->r.params : "-");
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
                    level_dt[l]);
        }
    for (size_t k = 0; k < d->nkernels; k++)
        for (int l = 0; l < LEVELS; l++) {
            int b = rl->blocks[g][k][l];
            if (b < 0)
                continue;
            mmb_gp_term(f, &n);
            fprintf(f, "\"%s.dat\" index %d using 1:2 with linespoints ls %zu lw 1 %s", dat, b, k + 1,
                    l == LEVEL_DRAM ? "" : l == LEVEL_L2 ? "pt 6 " : l == LEVEL_L1 ? "pt 8 " : "pt 4 ");
            if (l == LEVEL_DRAM && !pos->shared) {
                fputs("title ", f);
                mmb_gp_string(f, d->kernels[k]);
            } else {
                fputs("notitle", f);
            }
            if (l != LEVEL_DRAM)
                continue;
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
                        level_pt[l], level_names[l]);
            }
    fputc('\n', f);
}

static void roofline_legend_write(FILE *f, const struct mmb_report *rep, const struct mmb_gp_pos *pos, const void *ctx)
{
    const struct roofline *rl = ctx;
    const struct mmb_report_data *d = &rep->data;
    size_t entries = rl->any_l2;
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

/* " Left out for want of a measured roof: the NVIDIA H200's L2, L1 points (...)." for
 * each GPU whose rows have a level's bytes but that lacks its roof; "" when none. */
static void unroofed_write(const struct mmb_report *rep, const struct roofline *rl, char *out, size_t len)
{
    size_t used = 0, ngpus = 0;
    out[0] = '\0';
    for (size_t g = 0; g < rep->data.ngpus && used < len; g++) {
        size_t n = 0;
        for (int l = LEVEL_L2; l < LEVELS && used < len; l++) {
            if (!rl->unroofed[g][l])
                continue;
            int w = n ? snprintf(out + used, len - used, ", %s", level_names[l])
                      : snprintf(out + used, len - used, "%s the %s's %s", ngpus ? ";" : " Left out for want of a "
                                                                                          "measured roof:",
                                 rep->data.gpus[g].name, level_names[l]);
            used += w > 0 ? (size_t)w : 0;
            n++;
        }
        ngpus += n > 0;
    }
    if (ngpus && used < len)
        snprintf(out + used, len - used, " points (scripts/gpu/ncu-stalls.sh on that GPU measures the roofs).");
    else if (used >= len)
        out[0] = '\0';
}

static void caption_write(const struct mmb_report *rep, const struct roofline *rl, char *out, size_t len)
{
    char left[400];
    unroofed_write(rep, rl, left, sizeof left);
    bool smem_roof = false;
    for (size_t g = 0; g < rep->data.ngpus; g++)
        smem_roof = smem_roof || level_roof(rep, g, LEVEL_SMEM) > 0;
    if (smem_roof && !rl->level_seen[LEVEL_SMEM])
        snprintf(left + strlen(left), sizeof left - strlen(left),
                 " No shared-memory points: these rows lack smem_wavefronts.");
    snprintf(out, len,
             "Each kernel's best configuration at each square size (1k, 4k and 8k labelled), placed by arithmetic "
             "intensity, 2MNK over the bytes a memory level moved, and GFLOP/s, under the FP32 roof and a bandwidth "
             "roof per level, as Nsight Compute measured them (log scales). Filled: DRAM; open circles: L2; "
             "triangles: L1 (global memory); squares: shared memory (wavefronts x 128 B). A point right of a level's "
             "ridge cannot be limited by that level; the Speed-of-Light bars say what is. Circled points kept their "
             "output in L2: DRAM bytes are then reads alone.%s",
             left);
}

/* ---- each ladder profile's roofline at its reference size ---------------------------- */

struct ladder_roof {
    size_t p, g, n;
    size_t steps[MMB_REPORT_KERNELS_MAX];
    const struct mmb_report_row *best[MMB_REPORT_KERNELS_MAX]; /* [kernel] */
    int block[MMB_REPORT_KERNELS_MAX][LEVELS];                 /* [step][level]: -1 none */
    int arrows[LEVELS];                                        /* block of each level's arrows, -1 none */
    int labels;                                                /* block of the DRAM points' labels, -1 none */
    bool levels[LEVELS];
    struct mmb_report_shape size;
    struct mmb_gp_range x, y;
    char name[160], size_text[96];
};

static double ladder_intensity(const struct mmb_report_row *r, enum level l)
{
    double bytes = level_bytes(r, l);
    return bytes > 0 ? 2.0 * (double)r->r.m * (double)r->r.n * (double)r->r.k / bytes : NAN;
}

/* Per step and level one point (a block each), then per level the arrows from each
 * step to the next that has a point there: x y dx dy. */
static int ladder_roof_data(struct mmb_report *rep, struct ladder_roof *lr, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    struct mmb_report_out o;
    if (mmb_report_out_open(&o, err, errlen) != 0)
        return -1;
    fprintf(o.f, "# %s: each step of profile %s at %s on %s, best configuration: intensity at each level, "
                 "GFLOP/s\n",
            lr->name, d->profiles[lr->p].name, lr->size_text, d->gpus[lr->g].name);
    int nb = 0;
    for (size_t j = 0; j < lr->n; j++)
        for (int l = 0; l < LEVELS; l++) {
            const struct mmb_report_row *r = lr->best[lr->steps[j]];
            double in = ladder_intensity(r, (enum level)l), gf = mmb_report_row_gflops(r);
            lr->block[j][l] = -1;
            if (!(level_roof(rep, lr->g, (enum level)l) > 0) || !isfinite(in) || !isfinite(gf))
                continue;
            fprintf(o.f, "%s# %s, %s\n%.9g %.9g\n", nb ? "\n\n" : "", d->kernels[lr->steps[j]], level_names[l], in, gf);
            lr->block[j][l] = nb++;
            lr->levels[l] = true;
            mmb_gp_range_add(&lr->x, in);
            mmb_gp_range_add(&lr->y, gf);
        }
    for (int l = 0; l < LEVELS; l++) {
        lr->arrows[l] = -1;
        const struct mmb_report_row *from = NULL;
        for (size_t j = 0; j < lr->n; j++) {
            if (lr->block[j][l] < 0)
                continue;
            const struct mmb_report_row *to = lr->best[lr->steps[j]];
            if (from) {
                if (lr->arrows[l] < 0) {
                    fprintf(o.f, "\n\n# arrows from each step to the next, %s: x y dx dy\n", level_names[l]);
                    lr->arrows[l] = nb++;
                }
                double x0 = ladder_intensity(from, (enum level)l), y0 = mmb_report_row_gflops(from);
                double x1 = ladder_intensity(to, (enum level)l), y1 = mmb_report_row_gflops(to);
                fprintf(o.f, "%.9g %.9g %.9g %.9g  # %s -> %s\n", x0, y0, x1 - x0, y1 - y0, from->r.kernel,
                        to->r.kernel);
            }
            from = to;
        }
    }
    /* the DRAM points named by their step number (the name's leading digits), or by the
     * name when it has none: the kernels' colours repeat on a long ladder */
    lr->labels = -1;
    for (size_t j = 0; j < lr->n; j++) {
        const struct mmb_report_row *r = lr->best[lr->steps[j]];
        if (lr->block[j][LEVEL_DRAM] < 0)
            continue;
        if (lr->labels < 0) {
            fputs("\n\n# labels of the DRAM points: x y text\n", o.f);
            lr->labels = nb++;
        }
        const char *name = d->kernels[lr->steps[j]];
        size_t digits = strspn(name, "0123456789");
        fprintf(o.f, "%.9g %.9g \"%.*s\"\n", ladder_intensity(r, LEVEL_DRAM), mmb_report_row_gflops(r),
                digits ? (int)digits : 12, name);
    }
    const struct mmb_report_gpu *gp = &d->gpus[lr->g];
    for (int l = 0; l < LEVELS; l++) {
        double roof = level_roof(rep, lr->g, (enum level)l);
        if (roof > 0 && lr->levels[l])
            mmb_gp_range_add(&lr->x, gp->peak_gflops / roof / 3);
    }
    mmb_gp_range_add(&lr->y, gp->peak_gflops * 1.5);
    return mmb_gp_commit(rep, &o, lr->name, "dat", err, errlen);
}

static int ladder_roof_script(struct mmb_report *rep, struct ladder_roof *lr, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    struct mmb_report_figure *fig = mmb_report_state_figure_add(rep, lr->name, MMB_REPORT_GROUP_SECTION, (int)lr->g);
    struct mmb_report_out o;
    if (!fig || mmb_report_out_open(&o, err, errlen) != 0)
        return mmb_failf(err, errlen, "out of memory");
    char gpu[128], sel[64];
    mmb_report_state_gpu_label(rep, lr->g, gpu, sizeof gpu);
    mmb_report_state_selection(rep, (int)lr->g, sel, sizeof sel);
    snprintf(fig->title, sizeof fig->title, "%s: the roofline of the kernel ladder (profile %s) at %s (%s)", gpu,
             d->profiles[lr->p].name, lr->size_text, sel);
    char levels[96] = "";
    for (int l = 0; l < LEVELS; l++)
        if (lr->levels[l])
            snprintf(levels + strlen(levels), sizeof levels - strlen(levels), "%s%s", levels[0] ? ", " : "",
                     level_names[l]);
    snprintf(fig->caption, sizeof fig->caption,
             "Each step of profile %s at its best configuration at %s, placed once per memory level (%s) by its "
             "intensity there, 2MNK over the bytes the level moved (shared memory: wavefronts x 128 B), under that "
             "level's roof as Nsight Compute measured it and the FP32 roof (log scales). Arrows lead from each step "
             "to the next in the profile's order, one path per level: a step moves right where it moves fewer bytes "
             "at a level, up where it is faster. Levels without a measured roof on this GPU are left out.",
             d->profiles[lr->p].name, lr->size_text, levels);
    mmb_gp_range_finish(&lr->x);
    mmb_gp_range_finish(&lr->y);
    mmb_gp_script_begin(o.f, rep, lr->name, fig->title, (struct mmb_gp_canvas){1600, 1100});
    mmb_gp_panel_begin(o.f, rep);
    fputs("    set title ", o.f);
    mmb_gp_string(o.f, fig->title);
    fputs("\n    set xlabel \"Arithmetic intensity (FLOP per byte moved at each level, log scale)\"\n", o.f);
    mmb_gp_ylabel(o.f, &mmb_gp_alone, "GFLOP/s (log scale)");
    mmb_gp_range_set(o.f, 'x', &lr->x);
    mmb_gp_range_set(o.f, 'y', &lr->y);
    fputs("    set samples 1000\n", o.f);
    roofs_write(o.f, rep, lr->g, &lr->x, false);
    fputs("    set key outside right top vertical samplen 2 spacing 1.1\n", o.f);
    int n = 0;
    for (int l = 0; l < LEVELS; l++)
        if (lr->levels[l]) {
            mmb_gp_term(o.f, &n);
            fprintf(o.f, "roof%d(x) with lines lw %.1f dt %d lc rgb \"#303030\" notitle", l,
                    l == LEVEL_DRAM ? 3.5 : 2.5, level_dt[l]);
        }
    for (int l = 0; l < LEVELS; l++)
        if (lr->arrows[l] >= 0) {
            mmb_gp_term(o.f, &n);
            fprintf(o.f, "\"%s.dat\" index %d using 1:2:3:4 with vectors head filled size screen 0.012,20 lw 1.5 "
                         "dt %d lc rgb \"#606060\" notitle",
                    lr->name, lr->arrows[l], level_dt[l]);
        }
    for (size_t j = 0; j < lr->n; j++)
        for (int l = 0; l < LEVELS; l++) {
            if (lr->block[j][l] < 0)
                continue;
            mmb_gp_term(o.f, &n);
            fprintf(o.f, "\"%s.dat\" index %d using 1:2 with points ls %zu pt %d ps 2.2 * PS lw 2 ", lr->name,
                    lr->block[j][l], lr->steps[j] + 1, level_pt[l]);
            bool first = true;
            for (int m = 0; m < l; m++)
                first = first && lr->block[j][m] < 0;
            if (first) {
                fputs("title ", o.f);
                mmb_gp_string(o.f, d->kernels[lr->steps[j]]);
            } else {
                fputs("notitle", o.f);
            }
        }
    if (lr->labels >= 0) {
        mmb_gp_term(o.f, &n);
        fprintf(o.f, "\"%s.dat\" index %d using 1:2:3 with labels left offset 0.9,-0.3 font F%d tc rgb \"#303030\" "
                     "notitle",
                lr->name, lr->labels, MMB_GP_FONT_PT - 6);
    }
    for (int l = 0; l < LEVELS; l++)
        if (lr->levels[l]) {
            mmb_gp_term(o.f, &n);
            fprintf(o.f, "NaN with points pt %d ps 2 * PS lw 2 lc rgb \"#404040\" title \"%s\"", level_pt[l],
                    level_names[l]);
        }
    fputc('\n', o.f);
    mmb_gp_script_end(o.f);
    return mmb_gp_commit(rep, &o, lr->name, "gp", err, errlen);
}

static int ladder_roof_write(struct mmb_report *rep, size_t p, size_t g, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    struct mmb_report_shape sizes[2];
    if (!mmb_report_profile_sizes(d, p, g, sizes) || !isfinite(d->gpus[g].peak_gflops))
        return 0;
    struct ladder_roof *lr = calloc(1, sizeof *lr);
    if (!lr)
        return mmb_failf(err, errlen, "out of memory");
    lr->p = p;
    lr->g = g;
    lr->size = sizes[0];
    lr->x = mmb_gp_range_new(true);
    lr->y = mmb_gp_range_new(true);
    mmb_report_profile_best(d, p, g, d->dtype, &lr->size, lr->best);
    size_t all[MMB_REPORT_KERNELS_MAX], nall = mmb_report_profile_kernels(d, p, all);
    for (size_t j = 0; j < nall; j++)
        if (lr->best[all[j]] && ladder_intensity(lr->best[all[j]], LEVEL_DRAM) > 0)
            lr->steps[lr->n++] = all[j];
    int rc = 0;
    if (lr->n >= 2) {
        char pslug[MMB_REPORT_NAME_MAX];
        mmb_gpu_slug(d->profiles[p].name, pslug, sizeof pslug);
        snprintf(lr->name, sizeof lr->name, "%s-roofline-%s", pslug, d->gpus[g].slug);
        mmb_report_shape_label(&lr->size, lr->size_text, sizeof lr->size_text);
        rc = ladder_roof_data(rep, lr, err, errlen);
        if (rc == 0)
            rc = ladder_roof_script(rep, lr, err, errlen);
    }
    free(lr);
    return rc;
}

static int ladder_rooflines(struct mmb_report *rep, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    size_t ps[MMB_REPORT_PROFILES_MAX];
    size_t np = mmb_report_profiles_of(d, MMB_REPORT_ROLE_LADDER, ps);
    for (size_t j = 0; j < np; j++)
        for (size_t g = 0; g < d->ngpus; g++)
            if (ladder_roof_write(rep, ps[j], g, err, errlen) != 0)
                return -1;
    return 0;
}

int mmb_report_plot_roofline(struct mmb_report *rep, char *err, size_t errlen)
{
    struct mmb_report_data *d = &rep->data;
    size_t n = d->ngpus ? d->ngpus : 1;
    struct roofline rl = {calloc(n, sizeof *rl.blocks), calloc(n, sizeof *rl.l2_block), mmb_gp_range_new(true),
                          mmb_gp_range_new(true), {false}, {false}, calloc(n, sizeof *rl.unroofed), false};
    bool *has = calloc(n, sizeof *has);
    if (!rl.blocks || !rl.l2_block || !rl.unroofed || !has) {
        free(rl.blocks);
        free(rl.l2_block);
        free(rl.unroofed);
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
    free(rl.unroofed);
    free(has);
    if (rc == 0)
        rc = ladder_rooflines(rep, err, errlen);
    return rc;
}
