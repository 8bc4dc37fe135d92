/* plot_ladder.c - the kernel ladder (profiles named ladder*): per GPU, every step of
 * the profile in its order as horizontal bars of TFLOP/s at two sizes (the
 * reference size and the profile's largest square one), each labelled with its
 * speed-up over the step above, its share of the FP32 peak and of cuBLAS in the same
 * run; the top axis reads the bars as % of the FP32 peak. Bars lie flat so that the
 * steps' names read level and their labels have room. */
#include "report/figures/figures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dtype.h"
#include "core/error.h"
#include "core/file.h"
#include "report/figures/gp.h"
#include "report/input/out.h"
#include "report/input/profiles.h"
#include "report/input/row.h"
#include "results/row.h"

/* the reference size dark, the larger one light: one hue, told apart in grey too */
static const char *const size_colors[] = {"#0072B2", "#8cc4e8"};

struct ladder {
    size_t p, g;
    size_t steps[MMB_REPORT_KERNELS_MAX], n;
    struct mmb_report_shape sizes[2];
    size_t nsizes;
    const struct mmb_report_row *best[2][MMB_REPORT_KERNELS_MAX]; /* [size][kernel] */
    char name[160], sizes_text[200];
    const char *dtype;
    double top; /* TFLOP/s of the longest bar */
};

/* One bar's label: TFLOP/s, x over the step above, % FP32, % cuBLAS. */
static void bar_label(const struct mmb_report_data *d, const struct ladder *l, size_t s, size_t j, char *out,
                      size_t len)
{
    const struct mmb_report_row *r = l->best[s][l->steps[j]];
    const struct mmb_report_row *above = j ? l->best[s][l->steps[j - 1]] : NULL;
    const struct mmb_report_row *cub = d->cublas >= 0 ? l->best[s][d->cublas] : NULL;
    double tf = mmb_report_row_gflops(r) / 1000, fp = mmb_row_fp32_pct(&r->r);
    snprintf(out, len, tf < 1 ? "%.2f" : "%.1f", tf);
    if (above)
        snprintf(out + strlen(out), len - strlen(out), "  ×%.2f", above->r.time_ms_median / r->r.time_ms_median);
    if (isfinite(fp))
        snprintf(out + strlen(out), len - strlen(out), strcmp(r->r.dtype, "f32") ? "  %.0f%% peak" : "  %.0f%% FP32",
                 fp);
    if (cub && cub != r) {
        /* near cuBLAS a tenth tells 94.7 from 95 */
        double pct = 100 * cub->r.time_ms_median / r->r.time_ms_median;
        snprintf(out + strlen(out), len - strlen(out), pct >= 90 ? "  %.1f%% cuBLAS" : "  %.0f%% cuBLAS", pct);
    }
}

static int ladder_data(struct mmb_report *rep, struct ladder *l, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    struct mmb_report_out o;
    if (mmb_report_out_open(&o, err, errlen) != 0)
        return -1;
    fprintf(o.f, "# %s: TFLOP/s of each step of profile %s at %s on %s, best configuration\n"
                 "# step-index TFLOP/s-per-size... label-per-size... short-label  # kernel\n",
            l->name, d->profiles[l->p].name, l->sizes_text, d->gpus[l->g].name);
    for (size_t j = 0; j < l->n; j++) {
        fprintf(o.f, "%zu", j);
        for (size_t s = 0; s < 2; s++) {
            const struct mmb_report_row *r = s < l->nsizes ? l->best[s][l->steps[j]] : NULL;
            fprintf(o.f, r ? " %.6g" : " NaN", r ? mmb_report_row_gflops(r) / 1000 : 0.0);
        }
        for (size_t s = 0; s < 2; s++) {
            char label[160] = "";
            if (s < l->nsizes && l->best[s][l->steps[j]])
                bar_label(d, l, s, j, label, sizeof label);
            else if (s < l->nsizes) /* say so, rather than leave a gap that reads as zero */
                mmb_report_shape_label(&l->sizes[s], label + snprintf(label, sizeof label, "no ok row at "), 96);
            fprintf(o.f, " \"%s\"", label);
        }
        /* the short label of large type (slides, print): TFLOP/s and % cuBLAS at the first size */
        const struct mmb_report_row *r = l->best[0][l->steps[j]], *cub = d->cublas >= 0 ? l->best[0][d->cublas] : NULL;
        char brief[64] = "";
        if (r)
            snprintf(brief, sizeof brief, cub && cub != r ? "%.1f  (%.0f%%)" : "%.1f",
                     mmb_report_row_gflops(r) / 1000, cub ? 100 * cub->r.time_ms_median / r->r.time_ms_median : 0);
        fprintf(o.f, " \"%s\"  # %s\n", brief, d->kernels[l->steps[j]]);
    }
    return mmb_gp_commit(rep, &o, l->name, "dat", err, errlen);
}

static int ladder_script(struct mmb_report *rep, const struct ladder *l, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    struct mmb_report_figure *fig = mmb_report_state_figure_add(rep, l->name, MMB_REPORT_GROUP_SECTION, (int)l->g);
    struct mmb_report_out o;
    if (!fig || mmb_report_out_open(&o, err, errlen) != 0)
        return mmb_failf(err, errlen, "out of memory");
    /* a slide of slides.tex: the ladders in the report's element type, which the summary tells */
    fig->deck = l->dtype && !strcmp(l->dtype, d->dtype);
    char gpu[128], sel[64], shapes[2][96];
    mmb_report_state_gpu_label(rep, l->g, gpu, sizeof gpu);
    mmb_report_state_selection(rep, (int)l->g, sel, sizeof sel);
    if (strcmp(l->dtype, d->dtype) != 0) /* "f32, cold L2" in the ladder's own dtype */
        snprintf(sel, sizeof sel, "%s%s%s%s", l->dtype, d->cache[0] ? ", " : "", d->cache[0] ? d->cache : "", d->cache[0] ? " L2" : "");
    /* the peak of the ladder's pipe: the FP32 pipe's for f32, the tensor cores' for f16 */
    const struct mmb_report_row *any = NULL;
    for (size_t j = 0; j < l->n && !any; j++)
        any = l->best[0][l->steps[j]] ? l->best[0][l->steps[j]] : l->best[1][l->steps[j]];
    enum mmb_dtype dt;
    const struct mmb_pipe_info *dpipe = mmb_dtype_parse(l->dtype, &dt) ? mmb_pipe_info(mmb_dtype_info(dt)->pipe) : NULL;
    double peak = any && isfinite(any->r.peak_gflops)  ? any->r.peak_gflops / 1000
                  : !strcmp(l->dtype, "f32")           ? d->gpus[l->g].peak_gflops / 1000
                                                       : NAN; /* rows without their pipe's peak: no top axis */
    const char *pipe = any && any->r.pipe[0] ? any->r.pipe : dpipe ? dpipe->text : "fp32";
    pipe = strcmp(pipe, "fp32") ? pipe : "FP32";
    for (size_t s = 0; s < l->nsizes; s++)
        mmb_report_shape_label(&l->sizes[s], shapes[s], sizeof shapes[s]);
    snprintf(fig->title, sizeof fig->title, "%s: the kernel ladder (profile %s) at %s (%s)", gpu,
             d->profiles[l->p].name, l->sizes_text, sel);
    snprintf(fig->caption, sizeof fig->caption,
             "Each step of profile %s at its best configuration, in the profile's order (top to bottom), TFLOP/s on "
             "a linear axis (the top axis reads it as %% of the %s peak, dotted) at %s%s%s. Beside each bar: its "
             "TFLOP/s, × over the step above it at the same size, %% of the %s peak and %% of cuBLAS in the same "
             "run. What limits each step is in the table below.",
             d->profiles[l->p].name, pipe, shapes[0], l->nsizes > 1 ? " (dark) and " : "", l->nsizes > 1 ? shapes[1] : "",
             pipe);
    /* room right of the longest bar for its label (about a third of the width) */
    double xmax = fmax(l->top / 0.66, isfinite(peak) ? peak * 1.03 : 0);
    int h = 220 + (int)(l->n * (l->nsizes > 1 ? 78 : 52));
    mmb_gp_script_begin(o.f, rep, l->name, fig->title, (struct mmb_gp_canvas){1600, h});
    mmb_gp_panel_begin(o.f, rep);
    /* large type (LARGE: the slides and print presets, the slide of slides.tex): a
     * shorter title, the first size only, labels of TFLOP/s and % cuBLAS */
    char brief[400];
    snprintf(brief, sizeof brief, "%s: the ladder at %s, TFLOP/s (%% of cuBLAS)", gpu, shapes[0]);
    fputs("    set title (LARGE ? ", o.f);
    mmb_gp_string(o.f, brief);
    fputs(" : ", o.f);
    mmb_gp_string(o.f, fig->title);
    fputs(")\n    set xlabel \"TFLOP/s (2MNK / median time)\"\n    set ytics (", o.f);
    for (size_t j = 0; j < l->n; j++) {
        fputs(j ? ", " : "", o.f);
        mmb_gp_string(o.f, d->kernels[l->steps[j]]);
        fprintf(o.f, " %zu", j);
    }
    fprintf(o.f, ")\n    set yrange [%zu.6:-0.6]\n    set xrange [0:%.6g]\n", l->n - 1, xmax);
    fputs("    set grid xtics noytics\n    set ytics scale 0\n    set style fill solid 0.9 border lc rgb \"#202020\"\n",
          o.f);
    if (isfinite(peak)) {
        fprintf(o.f, "    set x2range [0:%.6g]\n    set x2tics 0, 20, 100 out\n"
                     "    set x2label \"%% of the %s peak (%.1f TFLOP/s)\"\n",
                100 * xmax / peak, pipe, peak);
        fprintf(o.f, "    set arrow from first %.6g, graph 0 to first %.6g, graph 1 nohead dt 3 lw 2.5 lc rgb \"#404040\"\n",
                peak, peak);
    }
    fputs("    set key top right opaque box samplen 1.5 title \"size\"\n", o.f);
    /* labels on an opaque ground: the peak line and the grid pass behind them */
    fputs("    set style textbox opaque noborder margins 0.5, 0.5\n", o.f);
    fputs("    if (LARGE) {\n    set key off\n", o.f);
    fprintf(o.f, "    plot \"%s.dat\" using ($2 / 2):1:($2 / 2):(0.3) with boxxyerror lc rgb \"%s\" notitle, \\\n"
                 "         \"\" using (valid(2) ? $2 : 0):1:6 with labels left offset 0.5,0 boxed font F%d notitle\n"
                 "    } else {\n",
            l->name, size_colors[0], MMB_GP_FONT_PT - 4);
    double off = l->nsizes > 1 ? 0.2 : 0, half = l->nsizes > 1 ? 0.18 : 0.3;
    int n = 0;
    for (size_t s = 0; s < l->nsizes; s++) {
        double dy = s == 0 ? -off : off;
        mmb_gp_term(o.f, &n);
        fprintf(o.f, "\"%s.dat\" using ($%zu / 2):($1%+.2f):($%zu / 2):(%.2f) with boxxyerror lc rgb \"%s\" title \"%s\"",
                l->name, s + 2, dy, s + 2, half, size_colors[s], shapes[s]);
        mmb_gp_term(o.f, &n);
        fprintf(o.f, "\"\" using (valid(%zu) ? $%zu : 0):($1%+.2f):%zu with labels left offset 0.5,0 boxed font F%d notitle",
                s + 2, s + 2, dy, s + 4, MMB_GP_FONT_PT - (l->nsizes > 1 ? 6 : 4));
    }
    fputs("\n    }\n", o.f);
    mmb_gp_script_end(o.f);
    return mmb_gp_commit(rep, &o, l->name, "gp", err, errlen);
}

static int ladder_write(struct mmb_report *rep, size_t p, size_t g, const char *dtype, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    struct ladder *l = calloc(1, sizeof *l);
    if (!l)
        return mmb_failf(err, errlen, "out of memory");
    l->p = p;
    l->g = g;
    l->dtype = dtype;
    l->nsizes = mmb_report_profile_sizes_in(d, p, g, dtype, l->sizes);
    size_t all[MMB_REPORT_KERNELS_MAX], nall = mmb_report_profile_kernels(d, p, all);
    for (size_t s = 0; s < l->nsizes; s++)
        mmb_report_profile_best(d, p, g, dtype, &l->sizes[s], l->best[s]);
    for (size_t j = 0; j < nall; j++) {
        bool any = false;
        for (size_t s = 0; s < l->nsizes; s++)
            if (l->best[s][all[j]]) {
                any = true;
                l->top = fmax(l->top, mmb_report_row_gflops(l->best[s][all[j]]) / 1000);
            }
        if (any)
            l->steps[l->n++] = all[j];
    }
    int rc = 0;
    if (l->n >= 2) {
        char a[96], b[96];
        mmb_report_profile_figure_name(d, p, g, dtype, l->name, sizeof l->name);
        mmb_report_shape_label(&l->sizes[0], a, sizeof a);
        if (l->nsizes > 1)
            mmb_report_shape_label(&l->sizes[1], b, sizeof b);
        snprintf(l->sizes_text, sizeof l->sizes_text, "%s%s%s", a, l->nsizes > 1 ? " and " : "", l->nsizes > 1 ? b : "");
        rc = ladder_data(rep, l, err, errlen);
        if (rc == 0)
            rc = ladder_script(rep, l, err, errlen);
    }
    free(l);
    return rc;
}

int mmb_report_plot_ladder(struct mmb_report *rep, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    size_t ps[MMB_REPORT_PROFILES_MAX];
    size_t np = mmb_report_profiles_of(d, MMB_REPORT_ROLE_LADDER, ps);
    for (size_t j = 0; j < np; j++)
    {
        const char *dtypes[MMB_DTYPE_COUNT];
        size_t nt = mmb_report_profile_dtypes(d, ps[j], dtypes);
        for (size_t t = 0; t < nt; t++)
            for (size_t g = 0; g < d->ngpus; g++)
                if (ladder_write(rep, ps[j], g, dtypes[t], err, errlen) != 0)
                    return -1;
    }
    return 0;
}
