/* energy_doc.c - the Energy efficiency section of reports/README.md, written only when
 * the data has energy (docs/energy.md): each kernel's TFLOP/s beside its GFLOP per
 * joule and board power, per GPU (the best configuration of each, as the tables pick
 * it), at the sizes the story's sections show, and at every size in reports/energy.md;
 * the energy-optimal configuration of every tuned kernel (and of the story's kernels at
 * the reference size, where all their configurations have energy) against its fastest,
 * computed from the rows (the finding of the largest saving is
 * findings/findings_energy.c's, with its claims); and the Pareto figures
 * (figures/plot_energy.c). It claims no energy-optimal
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
#include "report/input/profiles.h"
#include "report/input/row.h"
#include "report/input/tune_groups.h"
#include "results/t4/t4.h"

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

/* Whether shape s is one the story's sections show (mmb_report_profile_sizes: the
 * reference size and the largest square) on a selected GPU. */
static bool lecture_size(const struct mmb_report_data *d, size_t s)
{
    if (d->main < 0)
        return (int)s == d->ref;
    for (size_t g = 0; g < d->ngpus; g++) {
        struct mmb_report_shape sizes[2];
        size_t n = d->gpus[g].selected ? mmb_report_profile_sizes(d, (size_t)d->main, g, sizes) : 0;
        for (size_t i = 0; i < n; i++)
            if (sizes[i].m == d->shapes[s].m && sizes[i].n == d->shapes[s].n && sizes[i].k == d->shapes[s].k)
                return true;
    }
    return false;
}

/* Whether a story kernel's best row at shape s has energy on some GPU. */
static bool speed_row_has(const struct mmb_report_data *d, size_t k, size_t s)
{
    for (size_t g = 0; g < d->ngpus; g++) {
        const struct mmb_report_row *r = best_of(d, g, k, s);
        if (r && mmb_report_tune_group_energy_row(r))
            return true;
    }
    return false;
}

/* Each story kernel at each size (all) or at the sizes the story's sections show
 * (README.md): TFLOP/s, W and GFLOP/J of its best row per GPU. Returns whether the
 * sizes left out have rows with energy (energy.md shows them). */
static bool speed_table(FILE *f, const struct mmb_report *rep, bool all)
{
    const struct mmb_report_data *d = &rep->data;
    bool any = false, more = false;
    for (size_t k = 0; k < d->nstory; k++)
        for (size_t s = 0; s < d->nshapes; s++)
            if (speed_row_has(d, k, s)) {
                bool shown = all || lecture_size(d, s);
                any = any || shown;
                more = more || !shown;
            }
    if (!any)
        return more;
    fprintf(f, "### Speed and energy per kernel\n\nThe best configuration of each kernel at %s (%s, %s L2), "
               "as the tables pick it: its TFLOP/s, its board power and its GFLOP/J on each GPU; † marks a row taken "
               "while a power or thermal limit throttled the clocks, – a row without energy.%s\n\n| kernel | size |",
            all ? "each size" : "the sizes the story's sections show", d->dtype, d->cache,
            more ? " Every size: [energy.md](energy.md)." : "");
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
            if (!speed_row_has(d, k, s) || !(all || lecture_size(d, s)))
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
    return more;
}

static void config_cell(FILE *f, const struct mmb_row *r)
{
    fputs(" `", f);
    mmb_report_md_text(f, r->params[0] ? r->params : "-");
    fprintf(f, "` %.4g ms, %.4g J%s |", r->time_ms_median, r->energy_j,
            mmb_throttle_text_throttled(r->throttle) ? " †" : "");
}

/* The energy-optimal configuration of each listed group against its fastest (the
 * finding, the largest saving, is findings_energy.c's). */
static void optimal_table(FILE *f, const struct mmb_report *rep, const struct mmb_report_energy_group *groups,
                          size_t n)
{
    const struct mmb_report_data *d = &rep->data;
    size_t listed = 0;
    for (size_t i = 0; i < n; i++) {
        if (!mmb_report_tune_group_energy_listed(d, &groups[i]))
            continue;
        const struct mmb_row *fast = &d->rows[groups[i].rows[groups[i].fastest]].r;
        const struct mmb_row *frugal = &d->rows[groups[i].rows[groups[i].frugal]].r;
        double saved = 1 - frugal->energy_j / fast->energy_j;
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
    if (listed)
        fputc('\n', f);
}

/* The T4 files of the energy searches (tuning profiles whose objective includes energy,
 * which the Tuning section leaves to this one), for Kernel Tuner to load. */
static void t4_links(FILE *f, const struct mmb_report *rep, const struct mmb_report_energy_group *groups, size_t n)
{
    const struct mmb_report_data *d = &rep->data;
    bool any = false;
    for (size_t i = 0; i < n; i++) {
        if (!d->profiles[groups[i].profile].energy_objective)
            continue;
        const struct mmb_report_row *r = &d->rows[groups[i].rows[groups[i].fastest]];
        char rel[1024], *text;
        if (mmb_t4_path(d->files[r->file].shown, &r->r, rel, sizeof rel) != 0 ||
            !(text = mmb_report_md_source_read(rep, rel)))
            continue;
        free(text);
        fputs(any ? ", " : "Kernel Tuner can load each energy search, restricted and failed configurations included, "
                           "from its T4 file: ",
              f);
        mmb_report_md_source(f, rep, rel, NULL);
        any = true;
    }
    fputs(any ? ".\n\n" : "", f);
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
    speed_table(f, rep, false);
    optimal_table(f, rep, groups, (size_t)n);
    t4_links(f, rep, groups, (size_t)n);
    mmb_report_tune_group_energy_free(groups, (size_t)n);
    return 0;
}

void mmb_report_energy_doc_figures(const struct mmb_report *rep, FILE *f)
{
    if (!mmb_report_tune_group_energy_any(&rep->data))
        return;
    bool head = false;
    for (size_t i = 0; i < rep->nfigs; i++)
        if (!strncmp(rep->figs[i].name, "pareto-", 7)) {
            fputs(head ? "" : "### Time against energy\n\n", f);
            head = true;
            mmb_report_md_figure(f, rep, &rep->figs[i]);
        }
}

bool mmb_report_energy_doc_page(const struct mmb_report *rep, FILE *f)
{
    const struct mmb_report_data *d = &rep->data;
    bool left_out = false;
    for (size_t k = 0; k < d->nstory && !left_out; k++)
        for (size_t s = 0; s < d->nshapes && !left_out; s++)
            left_out = speed_row_has(d, k, s) && !lecture_size(d, s);
    if (!left_out)
        return false;
    fputs("# mmbench report: energy\n\nThe energy detail of [the report](README.md): each kernel's speed, board "
          "power and GFLOP/J at every size (its Energy efficiency section shows the sizes the story's sections "
          "show). Written by the same `mmbench report`.\n\n",
          f);
    speed_table(f, rep, true);
    return true;
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
