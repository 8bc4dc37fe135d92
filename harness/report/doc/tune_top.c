/* tune_top.c - the ten fastest configurations of a tuned space, with what the
 * compiler and the SM made of each (registers, shared memory, achieved occupancy),
 * in the README and in tables.tex. */
#include "report/doc/tune_top.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "report/doc/md.h"
#include "report/input/labels.h"
#include "report/input/row.h"

static const struct mmb_report_data *top_d;
static int top_cmp(const void *a, const void *b)
{
    double x = top_d->rows[*(const size_t *)a].r.time_ms_median, y = top_d->rows[*(const size_t *)b].r.time_ms_median;
    return (x > y) - (x < y);
}

/* The ten fastest configurations of a tuned group with what the compiler and the
 * SM made of them: registers, shared memory, achieved occupancy. */
void mmb_report_tune_top_table(FILE *md, FILE *tex, const struct mmb_report *rep, const struct mmb_report_tune_group *g)
{
    const struct mmb_report_data *d = &rep->data;
    size_t *idx = malloc((d->nrows ? d->nrows : 1) * sizeof *idx), n = 0;
    for (size_t i = 0; idx && i < d->nrows; i++)
        if (mmb_report_tune_group_member(g, &d->rows[i]) && d->rows[i].r.status == MMB_STATUS_OK)
            idx[n++] = i;
    if (n < 5) {
        free(idx);
        return;
    }
    top_d = d;
    qsort(idx, n, sizeof *idx, top_cmp);
    char gpu[128], shape[96], kslug[MMB_REPORT_NAME_MAX];
    mmb_report_state_gpu_label(rep, g->gpu, gpu, sizeof gpu);
    mmb_report_shape_label(&(struct mmb_report_shape){g->m, g->n, g->k}, shape, sizeof shape);
    mmb_gpu_slug(d->kernels[g->kernel], kslug, sizeof kslug);
    size_t shown = n < 10 ? n : 10;
    fprintf(md, "**%s: the %zu fastest of %zu configurations of ", gpu, shown, n);
    mmb_report_md_text(md, d->kernels[g->kernel]);
    fprintf(md, " at %s**\n\n| # | configuration | ms | × best | TFLOP/s | registers | shared memory (B) | occupancy %% |\n"
                "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n",
            shape);
    fputs("\\begin{table}[htbp]\n\\centering\n\\footnotesize\n\\caption{", tex);
    mmb_report_md_tex(tex, gpu);
    fprintf(tex, ": the %zu fastest of %zu configurations of ", shown, n);
    mmb_report_md_tex(tex, d->kernels[g->kernel]);
    fprintf(tex, " at %s}\n\\label{tab:%s-%s-top}\n\\mmbfit{\\begin{tabular}{rlrrrrrr}\n\\toprule\n"
                 "\\# & Configuration & ms & $\\times$ best & TFLOP/s & Regs & Smem (B) & Occup. \\%% \\\\\n\\midrule\n",
            shape, d->gpus[g->gpu].slug, kslug);
    double best = d->rows[idx[0]].r.time_ms_median;
    for (size_t i = 0; i < shown; i++) {
        const struct mmb_report_row *r = &d->rows[idx[i]];
        char conf[256], ms[32], regs[32] = "–", smem[32] = "–", occ[32] = "–";
        mmb_report_label_params(r->r.params, conf, sizeof conf);
        mmb_report_md_ms(r->r.time_ms_median, ms, sizeof ms);
        if (r->r.registers != MMB_INT_EMPTY)
            snprintf(regs, sizeof regs, "%lld", r->r.registers);
        if (r->r.smem_bytes != MMB_INT_EMPTY)
            snprintf(smem, sizeof smem, "%lld", r->r.smem_bytes);
        if (isfinite(r->r.occupancy_pct))
            snprintf(occ, sizeof occ, "%.0f", r->r.occupancy_pct);
        fprintf(md, "| %zu | `%s` | %s | %.2f | %.2f | %s | %s | %s |\n", i + 1, conf, ms, r->r.time_ms_median / best,
                mmb_report_row_gflops(r) / 1000, regs, smem, occ);
        fprintf(tex, "%zu & \\texttt{", i + 1);
        mmb_report_md_tex(tex, conf);
        fprintf(tex, "} & %s & %.2f & %.2f & ", ms, r->r.time_ms_median / best, mmb_report_row_gflops(r) / 1000);
        mmb_report_md_tex(tex, regs);
        fputs(" & ", tex);
        mmb_report_md_tex(tex, smem);
        fputs(" & ", tex);
        mmb_report_md_tex(tex, occ);
        fputs(" \\\\\n", tex);
    }
    fputs("\\bottomrule\n\\end{tabular}}\n\\end{table}\n\n", tex);
    fputs("\n", md);
    free(idx);
}
