/* ladder_doc.c - the Kernel ladder section (profiles named ladder*): per GPU the
 * ladder figure (plot_ladder.c) and a table that says for each step what limits it
 * and the counters that show it: the limiter, FP32, L1, L2 and DRAM throughput,
 * shared-memory bank conflicts and occupancy at the reference size, beside its
 * TFLOP/s at the section's two sizes, its speed-up over the step above and its share
 * of cuBLAS. */
#include "report/doc/ladder_doc.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "core/file.h"
#include "report/doc/ladder_worklog.h"
#include "report/doc/md.h"
#include "report/doc/tabular.h"
#include "report/input/labels.h"
#include "report/input/profiles.h"
#include "report/input/row.h"
#include "results/row.h"

static double dram_util(const struct mmb_report_row *r)
{
    return isfinite(r->r.dram_util_pct) ? r->r.dram_util_pct : mmb_report_row_dram_pct(r);
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
    static const char *const tail[] = {"× prev.", "% cuBLAS", "Limiter", "FP32 %", "L1 %", "L2 %", "DRAM %",
                                       "Bank confl.", "Occup. %"};
    for (size_t i = 0; i < MMB_COUNT(tail); i++)
        mmb_report_tabular_head(&t, c + i, tail[i], i != 2, false);
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
            mmb_report_tabular_fixed(r->r.l1_util_pct, 0, tc[4].text, sizeof tc[4].text);
            mmb_report_tabular_fixed(r->r.l2_util_pct, 0, tc[5].text, sizeof tc[5].text);
            mmb_report_tabular_fixed(dram_util(r), 1, tc[6].text, sizeof tc[6].text);
            mmb_report_tabular_count(r->r.smem_bank_conflicts, tc[7].text, sizeof tc[7].text);
            mmb_report_tabular_fixed(r->r.occupancy_pct, 0, tc[8].text, sizeof tc[8].text);
        }
        prev = r ? r : prev;
    }
    mmb_report_tabular_note(&t, "The profile's order; each step at its fastest configuration at %s (the configuration "
                              "shown%s). × prev.: speed over the step above; %% cuBLAS: against cuBLAS in the same run. "
                              "Limiter: the highest of FP32, L1, L2 and DRAM throughput, each as %% of its peak "
                              "(Nsight Compute's Speed of Light); Bank confl.: shared-memory load bank conflicts in the "
                              "launch; Occup.: achieved occupancy.",
                          shape[0], nsizes > 1 ? "; the other size may have its own" : "");
    mmb_report_tabular_legend(&t, params, np);
    mmb_report_tabular_emit(md, tex, &t);
    free(best);
    return 0;
}

int mmb_report_ladder_doc_section(const struct mmb_report *rep, size_t p, bool first, FILE *md, FILE *tex)
{
    const struct mmb_report_data *d = &rep->data;
    if (first) {
        fputs("## Kernel ladder\n\n", md);
        fputs("The kernels of a ladder profile, one optimisation a step, from the naive kernel towards cuBLAS, each at "
              "its best configuration and in the profile's order, against cuBLAS measured in the same run. Per GPU: "
              "a figure of TFLOP/s at two sizes, and a table of what limits each step and the counters that show it.\n\n",
              md);
        fputs("% Kernel ladder\n", tex);
    }
    const char *dtypes[MMB_DTYPE_COUNT];
    size_t nt = mmb_report_profile_dtypes(d, p, dtypes);
    for (size_t t = 0; t < nt; t++) {
        bool worklog_done = false;
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
            mmb_report_md_figure(md, rep, fig);
            /* the worklog once, on the first GPU with the ladder: its changes are the kernels',
             * and each GPU's numbers are in its table below */
            struct mmb_report_shape sizes[2];
            if (!worklog_done && mmb_report_profile_sizes_in(d, p, g, dtypes[t], sizes)) {
                if (mmb_report_ladder_worklog(rep, p, g, dtypes[t], &sizes[0], md, tex) != 0)
                    return -1;
                worklog_done = true;
            }
            if (ladder_table(rep, p, g, dtypes[t], md, tex) != 0)
                return -1;
        }
    }
    return 0;
}
