/* plot_heatmap.c - tuning landscapes: a kernel's median time over two of
 * its parameters at one size, the fastest configuration boxed. */
#include "report/figures/figures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "core/error.h"
#include "core/file.h"
#include "report/figures/gp.h"
#include "report/input/grid.h"
#include "report/input/out.h"

/* ---- tuning heatmaps ------------------------------------------------------------------------ */

static void cell_text(double ms, char *out, size_t len)
{
    snprintf(out, len, ms >= 100 ? "%.0f" : ms >= 10 ? "%.1f" : ms >= 1 ? "%.2f" : "%.3f", ms);
}

static void grid_tics(FILE *f, char axis, const double *v, size_t n)
{
    fprintf(f, "    set %ctics (", axis);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s\"%g\" %zu", i ? ", " : "", v[i], i);
    fprintf(f, ")\n    set %crange [-0.5:%zu.5]\n", axis, n - 1);
}

static void grid_row_tics(FILE *f, const struct mmb_report_grid *g)
{
    fputs("    set ytics (", f);
    for (size_t i = 0; i < g->ny; i++) {
        fputs(i ? ", " : "", f);
        mmb_gp_string(f, g->ylabels[i]);
        fprintf(f, " %zu", i);
    }
    fprintf(f, ")\n    set yrange [%zu.5:-0.5]\n", g->ny - 1);
}

/* One heatmap: the grid, its names and the colour scale: the span of the times of this
 * kernel's heatmaps on every GPU at the size, so that one colour is one time in each. */
struct heatmap {
    const struct mmb_report_grid *grid;
    size_t g, k;
    char name[160], ref[96], gpu[128], sel[64];
    double lo, hi;
    bool logcb; /* a slow corner (block_size_x=8, block_size_y=1) would wash the rest out */
    size_t ngpus; /* GPUs whose heatmaps of the kernel share the scale */
    char gpus[512]; /* their names, "A and B" */
};

/* gnuplot/<name>.dat: the ok cells with their label and whether it is written in
 * white, then the cells that did not run with their status. */
static int heatmap_data_write(struct mmb_report *rep, const struct heatmap *h, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    const struct mmb_report_grid *grid = h->grid;
    struct mmb_report_out o;
    if (mmb_report_out_open(&o, err, errlen) != 0)
        return -1;
    fprintf(o.f, "# %s: median time (ms) of %s over %s x %s at %s on %s\n# x-index y-index ms label dark-cell\n",
            h->name, d->kernels[h->k], grid->xname, grid->yname, h->ref, d->gpus[h->g].name);
    for (size_t iy = 0; iy < grid->ny; iy++)
        for (size_t ix = 0; ix < grid->nx; ix++) {
            double ms = grid->ms[iy][ix];
            if (isnan(ms))
                continue;
            char t[32];
            cell_text(ms, t, sizeof t);
            /* white text on the dark half of the palette */
            double at = h->logcb ? log(ms / h->lo) / log(h->hi / h->lo) : h->hi > h->lo ? (ms - h->lo) / (h->hi - h->lo) : 0;
            bool dark = at < 0.55;
            fprintf(o.f, "%zu %zu %.9g \"%s\" %d\n", ix, iy, ms, t, dark);
        }
    if (grid->failed) {
        fputs("\n\n# configurations that did not run: status\n", o.f);
        for (size_t iy = 0; iy < grid->ny; iy++)
            for (size_t ix = 0; ix < grid->nx; ix++)
                if (grid->why[iy][ix])
                    fprintf(o.f, "%zu %zu \"%s\"\n", ix, iy, grid->why[iy][ix]);
    }
    return mmb_gp_commit(rep, &o, h->name, "dat", err, errlen);
}

/* The colour scale: its range, and on a log scale a few labelled steps of each
 * decade (decades alone may leave a single tic), finer when the range is narrow. */
static void heatmap_colorbox(FILE *f, const struct heatmap *h)
{
    /* viridis: monotone in lightness, so it reads in greyscale too */
    fputs("    set palette defined (0 \"#440154\", 1 \"#3b528b\", 2 \"#21918c\", 3 \"#5ec962\", 4 \"#fde725\")\n", f);
    fprintf(f, "    set cbrange [%.9g:%.9g]\n", h->lo, h->hi > h->lo ? h->hi : h->lo * 1.01 + 1e-9);
    char scale[96] = "";
    if (h->ngpus == 2)
        snprintf(scale, sizeof scale, "; one scale for both GPUs");
    else if (h->ngpus > 2)
        snprintf(scale, sizeof scale, "; one scale for all %zu GPUs", h->ngpus);
    fprintf(f, "    set cblabel \"median time (ms%s%s)\"\n    set colorbox\n    unset key\n", h->logcb ? ", log scale" : "",
            scale);
    if (!h->logcb)
        return;
    static const double fine[] = {1, 1.5, 2, 3, 5, 7}, coarse[] = {1, 2, 5};
    bool narrow = h->hi / h->lo < 30;
    const double *steps = narrow ? fine : coarse;
    size_t nsteps = narrow ? MMB_COUNT(fine) : MMB_COUNT(coarse);
    fputs("    set logscale cb\n    set cbtics (", f);
    int tics = 0;
    /* over whole exponents, never a product that underflows to 0 and stays there;
     * lo and hi are positive, finite times, so at most ~600 decades */
    double e0 = floor(log10(h->lo)), e1 = ceil(log10(h->hi));
    for (double e = fmax(e0, -400); e <= fmin(e1, 400); e++)
        for (size_t i = 0; i < nsteps; i++) {
            double dec = pow(10, e);
            if (steps[i] * dec >= h->lo && steps[i] * dec <= h->hi)
                fprintf(f, "%s%.10g", tics++ ? ", " : "", steps[i] * dec);
        }
    fputs(")\n", f);
}

static int heatmap_script_write(struct mmb_report *rep, const struct heatmap *h, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    const struct mmb_report_grid *grid = h->grid;
    const char *kernel = d->kernels[h->k];
    struct mmb_report_figure *fig = mmb_report_state_figure_add(rep, h->name, MMB_REPORT_GROUP_TUNING, (int)h->g);
    struct mmb_report_out o;
    if (!fig || mmb_report_out_open(&o, err, errlen) != 0) {
        mmb_errorf(err, errlen, "out of memory");
        return -1;
    }
    snprintf(fig->title, sizeof fig->title, "%s: %s at %s (%s), median time (ms)", h->gpu, kernel, h->ref, h->sel);
    char excluded[160] = "";
    if (grid->restricted)
        snprintf(excluded, sizeof excluded, "; the %zu configurations the profile's restrictions exclude are not cells",
                 grid->restricted);
    if (grid->legend[0])
        snprintf(fig->caption, sizeof fig->caption,
                 "Median time (ms) of every configuration of %s at %s that the space allows: a row for each combination "
                 "of %s (%s), a column for each %s%s. The boxed cell is the fastest%s.",
                 kernel, h->ref, grid->yname, grid->legend, grid->xname, excluded,
                 grid->failed ? ", grey cells did not run (their status is written in them)" : "");
    else
        snprintf(fig->caption, sizeof fig->caption,
                 "Median time (ms) of %s over %s and %s at %s; the boxed cell is the fastest configuration%s.", kernel,
                 grid->xname, grid->yname, h->ref,
                 grid->failed ? ", grey cells did not run (their status is written in them)" : "");
    if (h->ngpus > 1)
        snprintf(fig->caption + strlen(fig->caption), sizeof fig->caption - strlen(fig->caption),
                 " The colour scale is the one of every GPU's heatmap of %s at %s (%s): one colour is one time on each.",
                 kernel, h->ref, h->gpus);
    if ((int)grid->profile != d->main && d->profiles[grid->profile].role != MMB_REPORT_ROLE_PUBLISHED &&
        d->profiles[grid->profile].name[0])
        snprintf(fig->caption + strlen(fig->caption), sizeof fig->caption - strlen(fig->caption),
                 " The cells are the rows of profile %s, which measured the most configurations of %s here.",
                 d->profiles[grid->profile].name, kernel);
    mmb_gp_script_begin(o.f, rep, h->name, fig->title, (struct mmb_gp_canvas){1600, grid->ny > 8 ? 1200 : 900});
    mmb_gp_panel_begin(o.f, rep);
    fputs("    set title ", o.f);
    mmb_gp_string(o.f, fig->title);
    fputs("\n    set xlabel ", o.f);
    mmb_gp_string(o.f, grid->xname);
    fputs("\n    set ylabel ", o.f);
    mmb_gp_string(o.f, grid->yname);
    fputs("\n    set grid noxtics noytics\n    set tics scale 0\n", o.f);
    grid_tics(o.f, 'x', grid->xs, grid->nx);
    grid_row_tics(o.f, grid);
    heatmap_colorbox(o.f, h);
    fprintf(o.f, "    set object 1 rect from %zu - 0.5, %zu - 0.5 to %zu + 0.5, %zu + 0.5 front fillstyle empty border lc rgb \"#e4002b\" lw 4\n",
            grid->best_x, grid->best_y, grid->best_x, grid->best_y);
    int font = grid->nx > 6 ? MMB_GP_FONT_PT - 6 : MMB_GP_FONT_PT - 2;
    fprintf(o.f, "    plot \"%s.dat\" index 0 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder lc palette, \\\n", h->name);
    fprintf(o.f, "         \"\" index 0 using 1:2:($5 > 0 ? stringcolumn(4) : \"\") with labels font F%d tc rgb \"white\", \\\n", font);
    fprintf(o.f, "         \"\" index 0 using 1:2:($5 > 0 ? \"\" : stringcolumn(4)) with labels font F%d tc rgb \"black\"", font);
    if (grid->failed) {
        fputs(", \\\n         \"\" index 1 using 1:2:(0.5):(0.5) with boxxyerror fs solid 1.0 noborder lc rgb \"#e0e0e0\"", o.f);
        fprintf(o.f, ", \\\n         \"\" index 1 using 1:2:3 with labels font F%d tc rgb \"#505050\"", MMB_GP_FONT_PT - 8);
    }
    fputc('\n', o.f);
    mmb_gp_script_end(o.f);
    return mmb_gp_commit(rep, &o, h->name, "gp", err, errlen);
}

/* The colour scale of kernel k's heatmaps: the times of its grid on every GPU that has one
 * at the reference size. */
static void heatmap_scale(struct mmb_report *rep, size_t k, struct mmb_report_grid *grid, struct heatmap *h)
{
    const struct mmb_report_data *d = &rep->data;
    h->lo = INFINITY;
    h->hi = -INFINITY;
    h->ngpus = 0;
    h->gpus[0] = '\0';
    size_t named = 0;
    for (size_t g = 0; g < d->ngpus; g++) {
        if (!mmb_report_grid_build(d, g, k, (size_t)d->ref, grid))
            continue;
        for (size_t iy = 0; iy < grid->ny; iy++)
            for (size_t ix = 0; ix < grid->nx; ix++)
                if (!isnan(grid->ms[iy][ix])) {
                    h->lo = fmin(h->lo, grid->ms[iy][ix]);
                    h->hi = fmax(h->hi, grid->ms[iy][ix]);
                }
        h->ngpus++;
    }
    for (size_t g = 0; g < d->ngpus && h->ngpus > 1; g++) {
        if (!mmb_report_grid_build(d, g, k, (size_t)d->ref, grid))
            continue;
        char label[128];
        size_t len = strlen(h->gpus);
        mmb_report_state_gpu_label(rep, g, label, sizeof label);
        named++;
        snprintf(h->gpus + len, sizeof h->gpus - len, "%s%s", named == 1 ? "" : named == h->ngpus ? " and " : ", ",
                 label);
    }
    h->logcb = h->lo > 0 && h->hi / h->lo > 3;
}

static int heatmap_write(struct mmb_report *rep, size_t g, const struct heatmap *scale,
                         const struct mmb_report_grid *grid, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    struct heatmap h = *scale;
    h.grid = grid;
    h.g = g;
    char kslug[MMB_REPORT_NAME_MAX];
    mmb_gpu_slug(d->kernels[h.k], kslug, sizeof kslug);
    snprintf(h.name, sizeof h.name, "heatmap-%s-%s", d->gpus[g].slug, kslug);
    mmb_report_shape_label(&d->shapes[d->ref], h.ref, sizeof h.ref);
    mmb_report_state_gpu_label(rep, g, h.gpu, sizeof h.gpu);
    mmb_report_state_selection(rep, (int)g, h.sel, sizeof h.sel);
    if (heatmap_data_write(rep, &h, err, errlen) != 0)
        return -1;
    return heatmap_script_write(rep, &h, err, errlen);
}

int mmb_report_plot_heatmaps(struct mmb_report *rep, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    if (d->ref < 0)
        return 0;
    struct mmb_report_grid *grid = malloc(sizeof *grid);
    struct heatmap *scales = calloc(d->nkernels ? d->nkernels : 1, sizeof *scales);
    if (!grid || !scales) {
        free(grid);
        free(scales);
        mmb_errorf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t k = 0; k < d->nkernels; k++) {
        heatmap_scale(rep, k, grid, &scales[k]);
        scales[k].k = k;
    }
    int rc = 0;
    for (size_t g = 0; g < d->ngpus && rc == 0; g++)
        for (size_t k = 0; k < d->nkernels && rc == 0; k++)
            if (scales[k].ngpus && mmb_report_grid_build(d, g, k, (size_t)d->ref, grid))
                rc = heatmap_write(rep, g, &scales[k], grid, err, errlen);
    free(grid);
    free(scales);
    return rc;
}
