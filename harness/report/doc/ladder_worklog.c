/* ladder_worklog.c - a ladder profile's worklog, one row a step: what the step
 * changes and the counter that motivated it (the profile's `summary` and
 * `motivation` keys of the kernel, with the counter's value at the step before and at
 * this one), its TFLOP/s, its speed over the step before and over the first step, its
 * share of cuBLAS and a link to its kernel file; under it, where a faster step trades
 * something (moves far more DRAM bytes than the step before), how much. */
#include "report/doc/ladder_worklog.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/file.h"
#include "report/doc/tabular.h"
#include "report/input/profiles.h"
#include "report/input/row.h"
#include "results/columns.h"

/* A trade is noted when a faster step moves this multiple of the step before's DRAM bytes. */
#define TRADE_DRAM 1.5

/* "smem_bank_conflicts 268.4 M → 18.0 k": a counter at two steps, as the tables write it. */
static void counter_cell(const char *name, const struct mmb_report_row *before, const struct mmb_report_row *r,
                         char *out, size_t len)
{
    const struct mmb_column *col = mmb_column_find(name);
    if (!col) {
        snprintf(out, len, "%s", name);
        return;
    }
    char v[2][32];
    const struct mmb_report_row *at[2] = {before, r};
    for (int i = 0; i < 2; i++) {
        double x = at[i] ? mmb_column_number(col, &at[i]->r) : NAN;
        if (!isfinite(x))
            snprintf(v[i], sizeof v[i], "–");
        else if (!strcmp(col->unit, "%"))
            snprintf(v[i], sizeof v[i], "%.0f%%", x);
        else if (!strcmp(col->unit, "B"))
            snprintf(v[i], sizeof v[i], x >= 1e12 ? "%.2f TB" : x >= 1e9 ? "%.2f GB" : x >= 1e6 ? "%.1f MB" : "%.0f B",
                     x >= 1e12 ? x / 1e12 : x >= 1e9 ? x / 1e9 : x >= 1e6 ? x / 1e6 : x);
        else
            mmb_report_tabular_count(x, v[i], sizeof v[i]);
    }
    if (!strcmp(v[0], "–") && !strcmp(v[1], "–"))
        snprintf(out, len, "%s (not counted)", name); /* the rows carry no counters */
    else
        snprintf(out, len, "%s %s → %s", name, v[0], v[1]);
}

/* The path of file relative to folder dir (both resolved); false when either is not there. */
static bool relative_path(const char *dir, const char *file, char *out, size_t len)
{
    char d[PATH_MAX], f[PATH_MAX];
    if (!realpath(dir, d) || !realpath(file, f))
        return false;
    /* the longest folder of d that holds f */
    size_t c = strlen(d);
    while (c > 0 && !(strncmp(d, f, c) == 0 && f[c] == '/' && (d[c] == '/' || d[c] == '\0'))) {
        c--;
        while (c > 0 && d[c] != '/')
            c--;
    }
    size_t o = 0;
    out[0] = '\0';
    for (const char *q = d + c; *q; q++)
        if (*q == '/' && o + 4 < len) {
            memcpy(out + o, "../", 4);
            o += 3;
        }
    snprintf(out + o, len - o, "%s", f + c + 1);
    return true;
}

static double dram_bytes(const struct mmb_report_row *r)
{
    return isfinite(r->r.dram_read_bytes) && isfinite(r->r.dram_write_bytes) ? r->r.dram_read_bytes +
                                                                                 r->r.dram_write_bytes
                                                                           : NAN;
}

int mmb_report_ladder_worklog(const struct mmb_report *rep, size_t p, size_t g, const char *dtype,
                              const struct mmb_report_shape *size, FILE *md, FILE *tex)
{
    const struct mmb_report_data *d = &rep->data;
    const struct mmb_report_row **best = calloc(MMB_REPORT_KERNELS_MAX, sizeof *best);
    if (!best)
        return -1;
    mmb_report_profile_best(d, p, g, dtype, size, best);
    struct mmb_report_table t;
    memset(&t, 0, sizeof t);
    char gpu[128], shape[96], pslug[MMB_REPORT_NAME_MAX];
    mmb_report_state_gpu_label(rep, g, gpu, sizeof gpu);
    mmb_report_shape_label(size, shape, sizeof shape);
    mmb_gpu_slug(d->profiles[p].name, pslug, sizeof pslug);
    snprintf(t.title, sizeof t.title, "%s: the ladder as a worklog at %s (profile %s, %s)", gpu, shape,
             d->profiles[p].name, dtype);
    snprintf(t.label, sizeof t.label, "tab:worklog-%s-%s-%s", pslug, d->gpus[g].slug, dtype);
    static const char *const head[] = {"Step", "Change", "Motivating counter (before → after)", "TFLOP/s", "× prev.",
                                       "× first", "% cuBLAS", "Kernel"};
    for (size_t c = 0; c < 8; c++)
        mmb_report_tabular_head(&t, c, head[c], c >= 3 && c <= 6, false);
    t.prose[1] = true;
    t.wrap[2] = 0.15;
    t.wrap[7] = 0.17;
    t.wrap[1] = 0.23;
    t.tex_small = true;
    snprintf(t.tex_head[2], sizeof t.tex_head[2], "Counter");
    size_t ks[MMB_REPORT_KERNELS_MAX], nk = mmb_report_profile_kernels(d, p, ks);
    const struct mmb_report_row *prev = NULL, *first = NULL, *cub = d->cublas >= 0 ? best[d->cublas] : NULL;
    char trades[512] = "";
    int rc = 0;
    for (size_t j = 0; j < nk && rc == 0; j++) {
        const struct mmb_report_row *r = best[ks[j]];
        if (!r)
            continue;
        struct mmb_report_cell *row = mmb_report_tabular_row(&t);
        if (!row) {
            rc = -1;
            break;
        }
        const struct mmb_report_kernel_doc *doc = mmb_report_profile_doc(d, p, d->kernels[ks[j]]);
        snprintf(row[0].text, sizeof row[0].text, "%s", d->kernels[ks[j]]);
        if (doc && doc->summary[0])
            snprintf(row[1].text, sizeof row[1].text, "%s", doc->summary);
        if (doc && doc->motivation[0])
            counter_cell(doc->motivation, prev, r, row[2].text, sizeof row[2].text);
        mmb_report_tabular_fixed(mmb_report_row_gflops(r) / 1000, 1, row[3].text, sizeof row[3].text);
        bool lib = (int)ks[j] == d->cublas;
        if (prev)
            mmb_report_tabular_fixed(prev->r.time_ms_median / r->r.time_ms_median, 2, row[4].text, sizeof row[4].text);
        if (first && !lib)
            mmb_report_tabular_fixed(first->r.time_ms_median / r->r.time_ms_median, 2, row[5].text, sizeof row[5].text);
        if (cub) {
            double pct = 100 * cub->r.time_ms_median / r->r.time_ms_median;
            mmb_report_tabular_fixed(pct, pct >= 90 && !lib ? 1 : 0, row[6].text, sizeof row[6].text);
        }
        char rel[1200];
        if (doc && doc->source[0] && relative_path(rep->out, doc->source, rel, sizeof rel)) {
            const char *base = strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel;
            snprintf(row[7].text, sizeof row[7].text, "[%s](%s)", base, rel);
            snprintf(row[7].tex, sizeof row[7].tex, "%s", base);
            t.prose[7] = true;
        }
        double b0 = prev ? dram_bytes(prev) : NAN, b1 = dram_bytes(r);
        if (!lib && prev && b0 > 0 && b1 / b0 >= TRADE_DRAM && r->r.time_ms_median < prev->r.time_ms_median)
            snprintf(trades + strlen(trades), sizeof trades - strlen(trades),
                     " %s trades DRAM traffic for speed: it moves %.2f GB from DRAM against %.2f GB for %s (×%.1f), "
                     "and is still ×%.2f faster.",
                     d->kernels[ks[j]], b1 / 1e9, b0 / 1e9, prev->r.kernel, b1 / b0,
                     prev->r.time_ms_median / r->r.time_ms_median);
        if (!lib) {
            first = first ? first : r;
            prev = r;
        }
    }
    mmb_report_tabular_note(&t, "Each step at its fastest configuration at %s. Change and counter: the kernel's "
                              "summary and motivation keys in profiles/%s.ini, the counter at the step before and at "
                              "this one. × prev.: speed over the step before; × first: over the first step; "
                              "%% cuBLAS: against cuBLAS in the same run.%s",
                          shape, d->profiles[p].name, trades);
    if (rc == 0)
        mmb_report_tabular_emit(md, tex, &t);
    mmb_report_tabular_free(&t);
    free(best);
    return rc;
}
