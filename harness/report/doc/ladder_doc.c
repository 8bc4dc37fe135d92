/* ladder_doc.c - the Kernel ladder section (profiles of role ladder): the worklog (one
 * row a step: what it changes and the counter that motivated it, from the profile's
 * summary and motivation keys, the counter before and after, TFLOP/s, speed-ups, share
 * of cuBLAS, the kernel file, and where a faster step moves far more DRAM bytes), and
 * per GPU the ladder figure (plot_ladder.c), the ladder's roofline
 * (plot_ladder_roofline.c) and a table that says for each step what limits it and the
 * counters that show it: the limiter, FP32, issue, L1, L2 and DRAM throughput, the two
 * largest warp-stall reasons, shared-memory bank conflicts and occupancy at the
 * reference size, beside its TFLOP/s at the section's two sizes, its speed-up over the
 * step above and its share of cuBLAS. */
#include "report/doc/ladder_doc.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "core/file.h"
#include "report/doc/md.h"
#include "report/doc/tabular.h"
#include "report/input/labels.h"
#include "report/input/profiles.h"
#include "report/input/row.h"
#include "results/row.h"
#include "results/columns.h"
#include <limits.h>
#include "results/stall.h"

static double dram_util(const struct mmb_report_row *r)
{
    return isfinite(r->r.dram_util_pct) ? r->r.dram_util_pct : mmb_report_row_dram_pct(r);
}

/* "Long Scoreboard 20.3, LG Throttle 6.5": the two largest stall reasons. */
static void stalls_cell(const struct mmb_row *r, char *out, size_t len)
{
    struct mmb_stall_value top[2];
    size_t n = mmb_row_stalls_top(r, top, 2);
    out[0] = '\0';
    for (size_t i = 0; i < n; i++)
        snprintf(out + strlen(out), len - strlen(out), "%s%s %.1f", i ? ", " : "", top[i].stall->name,
                 top[i].cycles);
}

static int ladder_table(const struct mmb_report *rep, size_t p, size_t g, const char *dtype, FILE *md, FILE *tex)
{
    const struct mmb_report_data *d = &rep->data;
    struct mmb_report_shape sizes[2];
    size_t nsizes = mmb_report_profile_sizes_in(d, p, g, dtype, sizes);
    if (!nsizes)
        return 0;
    const struct mmb_report_row **best = calloc(2 * MMB_REPORT_KERNELS_MAX, sizeof *best);
    if (!best)
        return -1;
    for (size_t s = 0; s < nsizes; s++)
        mmb_report_profile_best(d, p, g, dtype, &sizes[s], best + s * MMB_REPORT_KERNELS_MAX);
    struct mmb_report_table t;
    memset(&t, 0, sizeof t);
    char gpu[128], sel[64], shape[2][96];
    mmb_report_state_gpu_label(rep, g, gpu, sizeof gpu);
    mmb_report_state_selection(rep, (int)g, sel, sizeof sel);
    if (strcmp(dtype, d->dtype) != 0)
        snprintf(sel, sizeof sel, "%s%s%s%s", dtype, d->cache[0] ? ", " : "", d->cache[0] ? d->cache : "", d->cache[0] ? " L2" : "");
    for (size_t s = 0; s < nsizes; s++)
        mmb_report_shape_label(&sizes[s], shape[s], sizeof shape[s]);
    snprintf(t.title, sizeof t.title, "%s: what limits each step of the kernel ladder at %s (profile %s, %s)", gpu,
             shape[0], d->profiles[p].name, sel);
    char pslug[MMB_REPORT_NAME_MAX];
    mmb_gpu_slug(d->profiles[p].name, pslug, sizeof pslug);
    snprintf(t.label, sizeof t.label, "tab:%s-%s-%s", pslug, dtype, d->gpus[g].slug);
    size_t c = 0;
    mmb_report_tabular_head(&t, c++, "Step", false, false);
    mmb_report_tabular_head(&t, c++, "Configuration", false, true);
    t.wrap[1] = 0.2; /* the later steps have a dozen parameters */
    for (size_t s = 0; s < nsizes; s++) {
        char h[256];
        snprintf(h, sizeof h, "TFLOP/s %s", shape[s]);
        mmb_report_tabular_head(&t, c++, h, true, false);
    }
    static const char *const tail[] = {"× prev.", "% cuBLAS", "Limiter",     "FP32 %",      "Issue %",
                                       "L1 %",    "L2 %",     "DRAM %",      "Top stalls", "Bank confl.",
                                       "Occup. %"};
    for (size_t i = 0; i < MMB_COUNT(tail); i++)
        mmb_report_tabular_head(&t, c + i, tail[i], i != 2 && i != 8, false);
    t.wrap[c + 8] = 0.075; /* a stall's name on a line: "Long Scoreboard 9.9," */
    size_t ks[MMB_REPORT_KERNELS_MAX], nk = mmb_report_profile_kernels(d, p, ks);
    const char *params[MMB_REPORT_KERNELS_MAX];
    size_t np = 0;
    const struct mmb_report_row *prev = NULL, *cub = d->cublas >= 0 ? best[d->cublas] : NULL;
    for (size_t j = 0; j < nk; j++) {
        const struct mmb_report_row *r = best[ks[j]], *r2 = nsizes > 1 ? best[MMB_REPORT_KERNELS_MAX + ks[j]] : NULL;
        if (!r && !r2)
            continue;
        struct mmb_report_cell *row = mmb_report_tabular_row(&t);
        if (!row) {
            free(best);
            return -1;
        }
        snprintf(row[0].text, sizeof row[0].text, "%s", d->kernels[ks[j]]);
        const struct mmb_report_row *any = r ? r : r2;
        mmb_report_label_params(any->r.params, row[1].text, sizeof row[1].text);
        params[np++] = any->r.params;
        if (r)
            mmb_report_tabular_fixed(mmb_report_row_gflops(r) / 1000, 1, row[2].text, sizeof row[2].text);
        if (r2)
            mmb_report_tabular_fixed(mmb_report_row_gflops(r2) / 1000, 1, row[3].text, sizeof row[3].text);
        struct mmb_report_cell *tc = row + c;
        if (r && prev)
            mmb_report_tabular_fixed(prev->r.time_ms_median / r->r.time_ms_median, 2, tc[0].text, sizeof tc[0].text);
        if (r && cub) { /* near cuBLAS a tenth tells 94.7 from 95, as in the figure */
            double pct = 100 * cub->r.time_ms_median / r->r.time_ms_median;
            mmb_report_tabular_fixed(pct, pct >= 90 && r != cub ? 1 : 0, tc[1].text, sizeof tc[1].text);
        }
        if (r) {
            char buf[8];
            snprintf(tc[2].text, sizeof tc[2].text, "%s", mmb_row_limiter(&r->r, buf, sizeof buf));
            for (char *q = tc[2].text; *q; q++)
                *q = (char)toupper((unsigned char)*q);
            mmb_report_tabular_fixed(mmb_row_fp32_pct(&r->r), 0, tc[3].text, sizeof tc[3].text);
            mmb_report_tabular_fixed(r->r.issue_pct, 0, tc[4].text, sizeof tc[4].text);
            mmb_report_tabular_fixed(r->r.l1_util_pct, 0, tc[5].text, sizeof tc[5].text);
            mmb_report_tabular_fixed(r->r.l2_util_pct, 0, tc[6].text, sizeof tc[6].text);
            mmb_report_tabular_fixed(dram_util(r), 1, tc[7].text, sizeof tc[7].text);
            stalls_cell(&r->r, tc[8].text, sizeof tc[8].text);
            mmb_report_tabular_count(r->r.smem_bank_conflicts, tc[9].text, sizeof tc[9].text);
            mmb_report_tabular_fixed(r->r.occupancy_pct, 0, tc[10].text, sizeof tc[10].text);
        }
        prev = r ? r : prev;
    }
    mmb_report_tabular_note(&t, "The profile's order; each step at its fastest configuration at %s (the configuration "
                              "shown%s). × prev.: speed over the step above; %% cuBLAS: against cuBLAS in the same run. "
                              "Limiter: the busiest of the FP32 pipe, the SM's instruction issue (Issue %%), L1, L2 and "
                              "DRAM throughput, each as %% of its peak (Nsight Compute's Speed of Light; SM when "
                              "another SM unit is busier), or LATENCY when none is at %.0f%% of its peak (ncu's rule: "
                              "below it the units have idle cycles that more parallel work would fill); Top stalls: "
                              "the two largest warp-stall reasons, warp cycles per issued instruction (ncu's Warp State "
                              "Statistics; of eight read); Bank confl.: shared-memory load bank conflicts in the "
                              "launch; Occup.: achieved occupancy.",
                          shape[0], nsizes > 1 ? "; the other size may have its own" : "", MMB_LIMITER_NEAR_PEAK);
    mmb_report_tabular_legend(&t, params, np);
    mmb_report_tabular_emit(md, tex, &t);
    free(best);
    return 0;
}

/* ---- the worklog --------------------------------------------------------------------------- */

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

/* The worklog of profile p on GPU g at one size in dtype; -1 without memory. */
static int worklog(const struct mmb_report *rep, size_t p, size_t g, const char *dtype,
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

/* ---- the section ---------------------------------------------------------------------------- */

int mmb_report_ladder_doc_section(const struct mmb_report *rep, size_t p, bool first, FILE *md, FILE *tex)
{
    const struct mmb_report_data *d = &rep->data;
    if (first) {
        fputs("## Kernel ladder\n\n", md);
        fputs("The kernels of a ladder profile, one optimisation a step, from the naive kernel towards cuBLAS, each at "
              "its best configuration and in the profile's order, against cuBLAS measured in the same run. Per GPU: "
              "a figure of TFLOP/s at two sizes, the ladder's roofline at the reference size, and a table of what limits "
              "each step and the counters that show it.\n\n",
              md);
        fputs("% Kernel ladder\n", tex);
    }
    const char *dtypes[MMB_DTYPE_COUNT];
    size_t nt = mmb_report_profile_dtypes(d, p, dtypes);
    for (size_t t = 0; t < nt; t++) {
        bool worklog_done = false;
        const struct mmb_report_figure *first_fig = NULL, *first_roof = NULL;
        for (size_t g = 0; g < d->ngpus; g++) {
            char name[160], gpu[128];
            mmb_report_profile_figure_name(d, p, g, dtypes[t], name, sizeof name);
            const struct mmb_report_figure *fig = NULL;
            for (size_t i = 0; i < rep->nfigs && !fig; i++)
                if (rep->figs[i].group == MMB_REPORT_GROUP_SECTION && strcmp(rep->figs[i].name, name) == 0)
                    fig = &rep->figs[i];
            if (!fig)
                continue;
            mmb_report_state_gpu_label(rep, g, gpu, sizeof gpu);
            fputs("### ", md);
            mmb_report_md_text(md, gpu);
            fputs(", profile ", md);
            mmb_report_md_code(md, d->profiles[p].name);
            if (strcmp(dtypes[t], d->dtype) != 0) {
                fputs(", ", md);
                mmb_report_md_text(md, dtypes[t]);
            }
            fputs("\n\n", md);
            /* a caption read once: the next GPU's figure links to the first one's */
            mmb_report_md_figure_as(md, rep, fig, first_fig && !strcmp(first_fig->caption, fig->caption) ? first_fig : NULL);
            first_fig = first_fig ? first_fig : fig;
            char pslug[MMB_REPORT_NAME_MAX];
            mmb_gpu_slug(d->profiles[p].name, pslug, sizeof pslug);
            snprintf(name, sizeof name, "%s-roofline-%s", pslug, d->gpus[g].slug);
            for (size_t i = 0; i < rep->nfigs && !strcmp(dtypes[t], d->dtype); i++)
                if (rep->figs[i].group == MMB_REPORT_GROUP_SECTION && strcmp(rep->figs[i].name, name) == 0) {
                    const struct mmb_report_figure *roof = &rep->figs[i];
                    mmb_report_md_figure_as(md, rep, roof,
                                            first_roof && !strcmp(first_roof->caption, roof->caption) ? first_roof : NULL);
                    first_roof = first_roof ? first_roof : roof;
                }
            /* the worklog once, on the first GPU with the ladder: its changes are the kernels',
             * and each GPU's numbers are in its table below */
            struct mmb_report_shape sizes[2];
            if (!worklog_done && mmb_report_profile_sizes_in(d, p, g, dtypes[t], sizes)) {
                if (worklog(rep, p, g, dtypes[t], &sizes[0], md, tex) != 0)
                    return -1;
                worklog_done = true;
            }
            if (ladder_table(rep, p, g, dtypes[t], md, tex) != 0)
                return -1;
        }
    }
    return 0;
}
