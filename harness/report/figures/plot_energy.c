/* plot_energy.c - the Pareto figures of the Energy section (doc/energy/energy_doc.c):
 * pareto-<kernel>-<gpu>, time per launch against energy per launch over the
 * configurations of a tuned kernel at one problem (a tuning profile's rows with
 * energy, such as profiles/tune-energy.ini's time,energy search), the front (no other
 * configuration both faster and using less energy) joined, the rows a power or thermal
 * limit throttled marked, and cuBLAS at the same problem where it has energy. One
 * figure per kernel and GPU: of several problems, the one with the most configurations.
 * Nothing is drawn where no tuning profile has energy. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "report/figures/figures.h"
#include "report/figures/gp.h"
#include "report/input/tune_groups.h"
#include "report/input/out.h"

/* cuBLAS's row with energy at g's problem, GPU and profile; NULL when none. */
static const struct mmb_report_row *library_row(const struct mmb_report_data *d,
                                                const struct mmb_report_energy_group *g)
{
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_report_row *r = &d->rows[i];
        if ((int)r->kernel == d->cublas && r->gpu == g->gpu && r->profile == g->profile && r->r.m == g->shape.m &&
            r->r.n == g->shape.n && r->r.k == g->shape.k && mmb_report_tune_group_energy_row(r))
            return r;
    }
    return NULL;
}

static int pareto_data(struct mmb_report *rep, const struct mmb_report_energy_group *g, const char *name,
                       const struct mmb_report_row *lib, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    struct mmb_report_out o;
    if (mmb_report_out_open(&o, err, errlen) != 0)
        return -1;
    fprintf(o.f, "# %s: %s on %s, profile %s: time (ms) and energy (J) per launch of each configuration, fastest "
                 "first\n# time_ms energy_j front throttled params\n",
            name, d->kernels[g->kernel], d->gpus[g->gpu].name, d->profiles[g->profile].name);
    for (size_t i = 0; i < g->n; i++) {
        const struct mmb_report_row *r = &d->rows[g->rows[i]];
        fprintf(o.f, "%.6g %.6g %d %d \"%s\"\n", r->r.time_ms_median, r->r.energy_j, g->front[i],
                mmb_report_tune_group_throttled(r), r->r.params);
    }
    /* the front alone (index 1), so that its line runs through it unbroken */
    fputs("\n\n", o.f);
    for (size_t i = 0; i < g->n; i++) {
        const struct mmb_report_row *r = &d->rows[g->rows[i]];
        if (g->front[i])
            fprintf(o.f, "%.6g %.6g 1 %d \"%s\"\n", r->r.time_ms_median, r->r.energy_j,
                    mmb_report_tune_group_throttled(r), r->r.params);
    }
    /* the library's row (index 2) */
    fputs("\n\n", o.f);
    if (lib)
        fprintf(o.f, "%.6g %.6g 0 %d \"cuBLAS\"\n", lib->r.time_ms_median, lib->r.energy_j,
                mmb_report_tune_group_throttled(lib));
    else
        fputs("NaN NaN 0 0 \"none\"\n", o.f);
    return mmb_gp_commit(rep, &o, name, "dat", err, errlen);
}

static int pareto_write(struct mmb_report *rep, const struct mmb_report_energy_group *g, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    char name[160], gpu[128], size[96];
    snprintf(name, sizeof name, "pareto-%s-%s", d->kernels[g->kernel], d->gpus[g->gpu].slug);
    mmb_report_shape_label(&g->shape, size, sizeof size);
    const struct mmb_report_row *lib = library_row(d, g);
    if (pareto_data(rep, g, name, lib, err, errlen) != 0)
        return -1;
    struct mmb_report_figure *fig = mmb_report_state_figure_add(rep, name, MMB_REPORT_GROUP_SECTION, (int)g->gpu);
    struct mmb_report_out o;
    if (!fig || mmb_report_out_open(&o, err, errlen) != 0)
        return mmb_failf(err, errlen, "out of memory");
    mmb_report_state_gpu_label(rep, g->gpu, gpu, sizeof gpu);
    snprintf(fig->title, sizeof fig->title, "%s: time against energy per launch, %s at %s (profile %s)", gpu,
             d->kernels[g->kernel], size, d->profiles[g->profile].name);
    snprintf(fig->caption, sizeof fig->caption,
             "Each of the %zu configurations of %s at %s with its energy measured, time per launch against board "
             "energy per launch (NVML's energy counter over a window of launches back to back, docs/energy.md); "
             "the line joins the %zu on the Pareto front, which no other configuration beats on both at once%s%s. "
             "The clocks were as the GPU set them (none locked).",
             g->n, d->kernels[g->kernel], size, g->nfront, g->throttled ? "; red rings mark rows taken while a "
             "power or thermal limit throttled the clocks" : "", lib ? "; the star is cuBLAS" : "");
    mmb_gp_script_begin(o.f, rep, name, fig->title, (struct mmb_gp_canvas){1600, 1000});
    mmb_gp_panel_begin(o.f, rep);
    fputs("    set title ", o.f);
    mmb_gp_string(o.f, fig->title);
    fputs("\n    set xlabel \"time per launch (ms)\"\n    set ylabel \"energy per launch (J)\"\n", o.f);
    fputs("    set key top right opaque box samplen 1.5\n    set logscale x\n    set logscale y\n", o.f);
    /* both axes over the points, a margin around them: configurations differ by tens of per cent */
    struct mmb_gp_range x = mmb_gp_range_new(true), y = mmb_gp_range_new(true);
    for (size_t i = 0; i < g->n; i++) {
        mmb_gp_range_add(&x, d->rows[g->rows[i]].r.time_ms_median);
        mmb_gp_range_add(&y, d->rows[g->rows[i]].r.energy_j);
    }
    if (lib) {
        mmb_gp_range_add(&x, lib->r.time_ms_median);
        mmb_gp_range_add(&y, lib->r.energy_j);
    }
    fprintf(o.f, "    set xrange [%.6g:%.6g]\n    set yrange [%.6g:%.6g]\n", x.lo / 1.1, x.hi * 1.1, y.lo / 1.1,
            y.hi * 1.25);
    mmb_gp_log_tics(o.f, 'x', x.lo / 1.1, x.hi * 1.1);
    mmb_gp_log_tics(o.f, 'y', y.lo / 1.1, y.hi * 1.25);
    int n = 0;
    mmb_gp_term(o.f, &n);
    fprintf(o.f, "\"%s.dat\" index 0 using 1:2 with points pt 7 ps 1.2 lc rgb \"#9a9a9a\" title \"configurations\"",
            name);
    mmb_gp_term(o.f, &n);
    fprintf(o.f, "\"\" index 1 using 1:2 with linespoints lw 3 pt 7 ps 1.6 lc rgb \"%s\" "
                 "title \"Pareto front\"", mmb_gp_kernel_color(rep, g->kernel));
    if (g->throttled) {
        mmb_gp_term(o.f, &n);
        fputs("\"\" index 0 using 1:($4 > 0 ? $2 : NaN) with points pt 6 ps 2.6 lw 3 lc rgb \"#d62728\" "
              "title \"clocks throttled\"", o.f);
    }
    if (lib) {
        mmb_gp_term(o.f, &n);
        fputs("\"\" index 2 using 1:2 with points pt 3 ps 3 lw 3 lc rgb \"#202020\" title \"cuBLAS\"", o.f);
    }
    fputc('\n', o.f);
    mmb_gp_script_end(o.f);
    return mmb_gp_commit(rep, &o, name, "gp", err, errlen);
}

int mmb_report_plot_energy(struct mmb_report *rep, char *err, size_t errlen)
{
    struct mmb_report_energy_group *groups;
    long n = mmb_report_tune_group_energy(&rep->data, MMB_REPORT_ROLE_TUNING, &groups);
    if (n < 0)
        return mmb_failf(err, errlen, "out of memory");
    int rc = 0;
    for (long i = 0; i < n && rc == 0; i++) {
        bool chosen = true; /* the group of its kernel and GPU with the most configurations, the first of equals */
        for (long j = 0; j < n && chosen; j++)
            if (j != i && groups[j].kernel == groups[i].kernel && groups[j].gpu == groups[i].gpu &&
                (groups[j].n > groups[i].n || (groups[j].n == groups[i].n && j < i)))
                chosen = false;
        if (chosen)
            rc = pareto_write(rep, &groups[i], err, errlen);
    }
    mmb_report_tune_group_energy_free(groups, (size_t)n);
    return rc;
}
