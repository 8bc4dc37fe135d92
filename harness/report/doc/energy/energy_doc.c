/* energy_doc.c - the Energy efficiency section of reports/README.md, written only when
 * the data has energy (docs/energy.md): each kernel's TFLOP/s beside its GFLOP per
 * joule and board power at the story's sizes, per GPU (the best configuration of each,
 * as the tables pick it); the energy-optimal configuration of every tuned kernel (and
 * of the story's kernels at the reference size, where all their configurations have
 * energy) against its fastest, computed from the rows, with the finding of the largest
 * saving; and the Pareto figures (figures/plot_energy.c). It claims no energy-optimal
 * clock: the clocks were as the GPUs set them. Also the caveat that lists the rows a
 * power or thermal limit throttled. */
#include "report/doc/energy/energy_doc.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/counters.h"
#include "core/throttle.h"
#include "report/doc/md.h"
#include "report/input/tune_groups.h"
#include "report/input/row.h"

/* How many throttled rows the caveat names one by one; the rest are counted. */
#define THROTTLED_LISTED 12

/* The selected best row of (gpu, kernel, shape), or NULL. */
static const struct mmb_report_row *best_of(const struct mmb_report_data *d, size_t g, size_t k, size_t s)
{
    for (size_t i = 0; i < d->nbest; i++)
        if (d->best[i].gpu == g && d->best[i].kernel == k && d->best[i].shape == s)
            return &d->rows[d->best[i].row];
    return NULL;
}

static void intro(FILE *f, const struct mmb_report_data *d)
{
    size_t ok = 0, with = 0, by[MMB_ENERGY_STATUS_COUNT] = {0};
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_row *r = &d->rows[i].r;
        if (r->status != MMB_STATUS_OK || d->rows[i].published)
            continue;
        ok++;
        with += mmb_report_tune_group_energy_row(&d->rows[i]);
        enum mmb_energy_status st;
        if (mmb_energy_status_parse(r->energy_status, &st))
            by[st]++;
    }
    fputs("## Energy efficiency\n\n", f);
    fprintf(f, "GFLOP/J is GFLOP per joule of board energy, `2 M N K / energy_j` (equal to GFLOP/s per watt): NVML's "
               "energy counter over a window of launches back to back, after the timed ones (docs/energy.md). "
               "%zu of %zu ok rows have it", with, ok);
    const char *sep = " (energy_status:";
    for (int s = 0; s < MMB_ENERGY_STATUS_COUNT; s++)
        if (by[s]) {
            fprintf(f, "%s %s %zu", sep, mmb_energy_status_text((enum mmb_energy_status)s), by[s]);
            sep = ",";
        }
    fprintf(f, "%s. The clocks were as each GPU set them: the GPUs measured here may not have their clocks or "
               "power limits changed, so there is no clock sweep and no energy-optimal clock below; on a machine "
               "where that is allowed, `--lock-clocks MHZ` runs a profile at one SM clock (docs/energy.md).\n\n",
            sep[0] == ',' ? ")" : "");
}

/* Each story kernel at each size: TFLOP/s, W and GFLOP/J of its best row per GPU. */
static void speed_table(FILE *f, const struct mmb_report *rep)
{
    const struct mmb_report_data *d = &rep->data;
    bool any = false;
    for (size_t i = 0; i < d->nbest && !any; i++)
        any = mmb_report_tune_group_energy_row(&d->rows[d->best[i].row]);
    if (!any)
        return;
    fprintf(f, "### Speed and energy per kernel\n\nThe best configuration of each kernel at each size (%s, %s L2), "
               "as the tables pick it: its TFLOP/s, its board power and its GFLOP/J on each GPU; † marks a row taken "
               "while a power or thermal limit throttled the clocks, – a row without energy.\n\n| kernel | size |",
            d->dtype, d->cache);
    for (size_t g = 0; g < d->ngpus; g++)
        if (d->gpus[g].selected) {
            char gpu[128];
            mmb_report_state_gpu_label(rep, g, gpu, sizeof gpu);
            fputs(" ", f);
            mmb_report_md_text(f, gpu);
            fputs(" TFLOP/s | W | GFLOP/J |", f);
        }
    fputs("\n|---|---:|", f);
    for (size_t g = 0; g < d->ngpus; g++)
        if (d->gpus[g].selected)
            fputs("---:|---:|---:|", f);
    fputc('\n', f);
    for (size_t k = 0; k < d->nstory; k++)
        for (size_t s = 0; s < d->nshapes; s++) {
            bool row_has = false;
            for (size_t g = 0; g < d->ngpus && !row_has; g++) {
                const struct mmb_report_row *r = best_of(d, g, k, s);
                row_has = r && mmb_report_tune_group_energy_row(r);
            }
            if (!row_has)
                continue;
            char size[96];
            mmb_report_shape_label(&d->shapes[s], size, sizeof size);
            fputs("| ", f);
            mmb_report_md_text(f, d->kernels[k]);
            fprintf(f, " | %s |", size);
            for (size_t g = 0; g < d->ngpus; g++) {
                if (!d->gpus[g].selected)
                    continue;
                const struct mmb_report_row *r = best_of(d, g, k, s);
                if (!r) {
                    fputs(" | | |", f);
                    continue;
                }
                const char *mark = mmb_report_tune_group_throttled(r) ? "†" : "";
                fprintf(f, " %.1f%s |", mmb_report_row_gflops(r) / 1000, mark);
                if (mmb_report_tune_group_energy_row(r))
                    fprintf(f, " %.0f | %.1f |", r->r.power_w, r->r.gflops_per_watt);
                else
                    fputs(" – | – |", f);
            }
            fputc('\n', f);
        }
    fputc('\n', f);
}

/* Whether a group's least-energy configuration goes in the table: a tuned kernel's, or
 * a story kernel's at the reference size. */
static bool optimal_listed(const struct mmb_report_data *d, const struct mmb_report_energy_group *g)
{
    if (d->profiles[g->profile].role == MMB_REPORT_ROLE_TUNING)
        return true;
    if ((int)g->profile != d->main || d->ref < 0)
        return false;
    const struct mmb_report_shape *ref = &d->shapes[d->ref];
    return g->shape.m == ref->m && g->shape.n == ref->n && g->shape.k == ref->k;
}

static void config_cell(FILE *f, const struct mmb_row *r)
{
    fputs(" `", f);
    mmb_report_md_text(f, r->params[0] ? r->params : "-");
    fprintf(f, "` %.4g ms, %.4g J%s |", r->time_ms_median, r->energy_j,
            mmb_throttle_text_throttled(r->throttle) ? " †" : "");
}

/* The energy-optimal configuration of each listed group against its fastest, and the
 * finding: the largest saving of energy over the fastest configuration. */
static void optimal_table(FILE *f, const struct mmb_report *rep, const struct mmb_report_energy_group *groups,
                          size_t n)
{
    const struct mmb_report_data *d = &rep->data;
    const struct mmb_report_energy_group *top = NULL;
    double top_saved = -1;
    size_t listed = 0;
    for (size_t i = 0; i < n; i++) {
        if (!optimal_listed(d, &groups[i]))
            continue;
        const struct mmb_row *fast = &d->rows[groups[i].rows[groups[i].fastest]].r;
        const struct mmb_row *frugal = &d->rows[groups[i].rows[groups[i].frugal]].r;
        double saved = 1 - frugal->energy_j / fast->energy_j;
        if (saved > top_saved) {
            top_saved = saved;
            top = &groups[i];
        }
        if (listed++ == 0)
            fputs("### Energy-optimal configurations\n\nFor each tuned kernel (and each kernel of the story at the "
                  "reference size whose configurations all have energy), the configuration that uses the least "
                  "energy per launch beside the fastest one, and how many lie on the time/energy Pareto front; "
                  "computed from the rows, clocks as found.\n\n"
                  "| GPU | profile | kernel | size | configurations | on the front | fastest | least energy | energy "
                  "saved | time added |\n|---|---|---|---:|---:|---:|---|---|---:|---:|\n",
                  f);
        char gpu[128], size[96];
        mmb_report_state_gpu_label(rep, groups[i].gpu, gpu, sizeof gpu);
        mmb_report_shape_label(&groups[i].shape, size, sizeof size);
        fputs("| ", f);
        mmb_report_md_text(f, gpu);
        fputs(" | ", f);
        mmb_report_md_text(f, d->profiles[groups[i].profile].name);
        fputs(" | ", f);
        mmb_report_md_text(f, d->kernels[groups[i].kernel]);
        fprintf(f, " | %s | %zu | %zu |", size, groups[i].n, groups[i].nfront);
        config_cell(f, fast);
        config_cell(f, frugal);
        fprintf(f, " %.1f%% | %.1f%% |\n", 100 * saved, 100 * (frugal->time_ms_median / fast->time_ms_median - 1));
    }
    if (!top)
        return;
    const struct mmb_row *fast = &d->rows[top->rows[top->fastest]].r;
    const struct mmb_row *frugal = &d->rows[top->rows[top->frugal]].r;
    char gpu[128], size[96];
    mmb_report_state_gpu_label(rep, top->gpu, gpu, sizeof gpu);
    mmb_report_shape_label(&top->shape, size, sizeof size);
    fputs("\n**Finding.** ", f);
    if (top->fastest == top->frugal) {
        fputs("In every group above, the fastest configuration also uses the least energy per launch: at the clocks "
              "as found, finishing sooner saves more energy than any slower configuration's lower power.\n\n", f);
        return;
    }
    fputs("The largest saving: on ", f);
    mmb_report_md_text(f, gpu);
    fputs(", `", f);
    mmb_report_md_text(f, d->kernels[top->kernel]);
    fprintf(f, "` at %s uses %.1f%% less energy per launch in `", size, 100 * top_saved);
    mmb_report_md_text(f, frugal->params);
    fprintf(f, "` (%.4g J, %.0f W) than in its fastest configuration `", frugal->energy_j, frugal->power_w);
    mmb_report_md_text(f, fast->params);
    fprintf(f, "` (%.4g J, %.0f W), at %.1f%% more time per launch (%.4g against %.4g ms).\n\n", fast->energy_j,
            fast->power_w, 100 * (frugal->time_ms_median / fast->time_ms_median - 1), frugal->time_ms_median,
            fast->time_ms_median);
}

int mmb_report_energy_doc_write(const struct mmb_report *rep, FILE *f)
{
    const struct mmb_report_data *d = &rep->data;
    if (!mmb_report_tune_group_energy_any(d))
        return 0;
    struct mmb_report_energy_group *groups;
    long n = mmb_report_tune_group_energy(d, -1, &groups);
    if (n < 0)
        return -1;
    intro(f, d);
    speed_table(f, rep);
    optimal_table(f, rep, groups, (size_t)n);
    mmb_report_tune_group_energy_free(groups, (size_t)n);
    bool head = false;
    for (size_t i = 0; i < rep->nfigs; i++)
        if (!strncmp(rep->figs[i].name, "pareto-", 7)) {
            fputs(head ? "" : "### Time against energy\n\n", f);
            head = true;
            mmb_report_md_figure(f, rep, &rep->figs[i]);
        }
    return 0;
}

size_t mmb_report_energy_doc_caveats(FILE *f, const struct mmb_report *rep)
{
    const struct mmb_report_data *d = &rep->data;
    size_t n = 0;
    for (size_t i = 0; i < d->nrows; i++)
        n += d->rows[i].r.status == MMB_STATUS_OK && mmb_report_tune_group_throttled(&d->rows[i]);
    if (!n)
        return 0;
    fprintf(f, "- **Throttled clocks**: %zu ok row%s %s taken while a power or thermal limit throttled the clocks, "
               "after the retries of the run (`throttle`, docs/energy.md; marked † in the Energy efficiency tables and "
               "ringed in red in its figures):",
            n, n == 1 ? "" : "s", n == 1 ? "was" : "were");
    size_t shown = 0;
    for (size_t i = 0; i < d->nrows && shown < THROTTLED_LISTED; i++) {
        const struct mmb_report_row *r = &d->rows[i];
        if (r->r.status != MMB_STATUS_OK || !mmb_report_tune_group_throttled(r))
            continue;
        fputs(shown++ ? "; " : " ", f);
        mmb_report_md_text(f, d->gpus[r->gpu].name);
        fputs(" `", f);
        mmb_report_md_text(f, r->r.kernel);
        if (r->r.params[0]) {
            fputs(" ", f);
            mmb_report_md_text(f, r->r.params);
        }
        fprintf(f, "` %lldx%lldx%lld (", r->r.m, r->r.n, r->r.k);
        mmb_report_md_text(f, r->r.throttle);
        fprintf(f, ", %.0f to %.0f MHz)", r->r.sm_clock_min_mhz, r->r.sm_clock_max_mhz);
    }
    if (n > shown)
        fprintf(f, "; and %zu more", n - shown);
    fputs(".\n", f);
    return 1;
}
