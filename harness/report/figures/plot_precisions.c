/* plot_precisions.c - each GPU's precisions figure (the Precisions section): TFLOP/s
 * (TOP/s for integers) of each kernel in each dtype at one size, as bars grouped by
 * dtype on a linear axis, with the peak of the dtype's pipe as a dashed line over its
 * group: how far each precision gets, cuBLAS beside the own kernels. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "report/figures/figures.h"
#include "report/figures/gp.h"
#include "report/input/out.h"
#include "report/input/profiles.h"
#include "report/input/row.h"

static int precisions_write(struct mmb_report *rep, const struct mmb_report_precisions *pr, char *err,
                            size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    char name[160], gpu[128], size[96];
    snprintf(name, sizeof name, "precisions-%s", d->gpus[pr->g].slug);
    mmb_report_shape_label(&pr->s, size, sizeof size);
    struct mmb_report_out o;
    if (mmb_report_out_open(&o, err, errlen) != 0)
        return -1;
    fprintf(o.f, "# %s: TFLOP/s (TOP/s for integers) of each kernel's best configuration per dtype at %s on %s\n"
                 "# dtype-index dtype pipe-peak", name, size, d->gpus[pr->g].name);
    for (size_t k = 0; k < pr->nkernels; k++)
        fprintf(o.f, " %s", d->kernels[pr->kernels[k]]);
    fputc('\n', o.f);
    double top = 0;
    for (size_t t = 0; t < pr->ndtypes; t++) {
        double peak = NAN;
        for (size_t k = 0; k < pr->nkernels && !isfinite(peak); k++)
            if (pr->best[t][pr->kernels[k]])
                peak = pr->best[t][pr->kernels[k]]->r.peak_gflops / 1000;
        fprintf(o.f, "%zu %s %.6g", t, pr->dtypes[t], isfinite(peak) ? peak : NAN);
        top = fmax(top, isfinite(peak) ? peak : 0);
        for (size_t k = 0; k < pr->nkernels; k++) {
            const struct mmb_report_row *r = pr->best[t][pr->kernels[k]];
            double tf = r ? mmb_report_row_gflops(r) / 1000 : NAN;
            fprintf(o.f, " %.6g", tf);
            top = fmax(top, isfinite(tf) ? tf : 0);
        }
        fputc('\n', o.f);
    }
    if (mmb_gp_commit(rep, &o, name, "dat", err, errlen) != 0)
        return -1;
    struct mmb_report_figure *fig = mmb_report_state_figure_add(rep, name, MMB_REPORT_GROUP_SECTION, (int)pr->g);
    if (!fig || mmb_report_out_open(&o, err, errlen) != 0)
        return mmb_failf(err, errlen, "out of memory");
    mmb_report_state_gpu_label(rep, pr->g, gpu, sizeof gpu);
    snprintf(fig->title, sizeof fig->title, "%s: each precision at %s (profile %s)", gpu, size,
             d->profiles[pr->p].name);
    snprintf(fig->caption, sizeof fig->caption,
             "TFLOP/s (TOP/s for i8) of each kernel's best configuration in each element type at %s, a group of "
             "bars per type on a linear axis; the dashed line over a group is the dense peak of the pipe that type "
             "runs on (the tensor cores for f16, bf16, tf32, e4m3 and i8), so a bar's height against it is its "
             "share of that pipe. The table below has the numbers.",
             size);
    mmb_gp_script_begin(o.f, rep, name, fig->title, (struct mmb_gp_canvas){1600, 1000});
    mmb_gp_panel_begin(o.f, rep);
    fputs("    set title ", o.f);
    mmb_gp_string(o.f, fig->title);
    fputs("\n    set ylabel \"TFLOP/s (TOP/s for i8)\"\n    set xlabel \"element type\"\n", o.f);
    fputs("    set xtics (", o.f);
    for (size_t t = 0; t < pr->ndtypes; t++)
        fprintf(o.f, "%s\"%s\" %zu", t ? ", " : "", pr->dtypes[t], t);
    fprintf(o.f, ") scale 0\n    set xrange [-0.6:%zu.6]\n    set yrange [0:%.6g]\n", pr->ndtypes - 1, top * 1.12);
    fputs("    set grid noxtics\n    set key top left opaque box samplen 1.5\n", o.f);
    double w = 0.8 / (double)pr->nkernels;
    fprintf(o.f, "    set boxwidth %.4f\n    set style fill solid 0.9 border lc rgb \"#202020\"\n", w * 0.95);
    int n = 0;
    mmb_gp_term(o.f, &n);
    fprintf(o.f, "\"%s.dat\" using ($1 - 0.45):3:(0.9):(0) with vectors nohead dt 2 lw 3 lc rgb \"#404040\" "
                 "title \"peak of the type's pipe\"", name);
    for (size_t k = 0; k < pr->nkernels; k++) {
        double off = ((double)k - (double)(pr->nkernels - 1) / 2.0) * w;
        mmb_gp_term(o.f, &n);
        fprintf(o.f, "\"\" using ($1%+.4f):%zu with boxes lc rgb \"%s\" title ", off, k + 4,
                mmb_gp_kernel_color(rep, pr->kernels[k]));
        mmb_gp_string(o.f, d->kernels[pr->kernels[k]]);
    }
    fputc('\n', o.f);
    mmb_gp_script_end(o.f);
    return mmb_gp_commit(rep, &o, name, "gp", err, errlen);
}

int mmb_report_plot_precisions(struct mmb_report *rep, char *err, size_t errlen)
{
    struct mmb_report_precisions *pr = calloc(1, sizeof *pr);
    if (!pr)
        return mmb_failf(err, errlen, "out of memory");
    int rc = 0;
    for (size_t g = 0; g < rep->data.ngpus && rc == 0; g++)
        if (mmb_report_profile_precisions_at(&rep->data, g, pr))
            rc = precisions_write(rep, pr, err, errlen);
    free(pr);
    return rc;
}
