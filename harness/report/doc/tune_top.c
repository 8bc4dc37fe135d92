/* tune_top.c - the ten fastest configurations of a tuned space, with what the
 * compiler and the SM made of each (registers, shared memory, occupancy: theoretical
 * where every row has it, else achieved), in the README and in tables.tex. */
#include "report/doc/tune_top.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "core/file.h"
#include "report/doc/md.h"
#include "report/doc/tabular.h"
#include "report/input/labels.h"
#include "report/input/row.h"

static int top_cmp(const void *a, const void *b, void *data)
{
    const struct mmb_report_data *d = data;
    double x = d->rows[*(const size_t *)a].r.time_ms_median, y = d->rows[*(const size_t *)b].r.time_ms_median;
    return (x > y) - (x < y);
}

static const struct {
    const char *head, *tex;
    bool num, code;
} top_heads[] = {
    {"#", NULL, true, false},       {"configuration", "Configuration", false, true}, {"ms", NULL, true, false},
    {"× best", NULL, true, false},  {"TFLOP/s", NULL, true, false},                 {"registers", "Regs", true, false},
    {"shared memory (B)", "Smem (B)", true, false},                                  {"occupancy %", "Occup. %", true, false},
};
#define OCCUPANCY_COLUMN 7 /* its heading names the kind shown */

/* The ten fastest configurations of a tuned group with what the compiler and the
 * SM made of them: registers, shared memory, occupancy. */
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
    qsort_r(idx, n, sizeof *idx, top_cmp, (void *)d);
    char gpu[128], shape[96], kslug[MMB_REPORT_NAME_MAX];
    mmb_report_state_gpu_label(rep, g->gpu, gpu, sizeof gpu);
    mmb_report_shape_label(&(struct mmb_report_shape){g->m, g->n, g->k}, shape, sizeof shape);
    mmb_gpu_slug(d->kernels[g->kernel], kslug, sizeof kslug);
    size_t shown = n < 10 ? n : 10;
    struct mmb_report_table t = {.tex_loose = true};
    snprintf(t.title, sizeof t.title, "%s: the %zu fastest of %zu configurations of %s at %s", gpu, shown, n,
             d->kernels[g->kernel], shape);
    snprintf(t.label, sizeof t.label, "tab:%s-%s-top", d->gpus[g->gpu].slug, kslug);
    enum mmb_report_occupancy occ = mmb_report_row_occupancy_kind(d, idx, shown);
    for (size_t c = 0; c < MMB_COUNT(top_heads); c++) {
        bool theoretical = c == OCCUPANCY_COLUMN && occ == MMB_REPORT_OCCUPANCY_THEORETICAL;
        mmb_report_tabular_head(&t, c, theoretical ? "theoretical occupancy %" : top_heads[c].head, top_heads[c].num,
                                top_heads[c].code);
        snprintf(t.tex_head[c], sizeof t.tex_head[c], "%s",
                 theoretical ? "Theor. occ. %" : top_heads[c].tex ? top_heads[c].tex : "");
    }
    double best = d->rows[idx[0]].r.time_ms_median;
    for (size_t i = 0; i < shown; i++) {
        const struct mmb_report_row *r = &d->rows[idx[i]];
        struct mmb_report_cell *row = mmb_report_tabular_row(&t);
        if (!row)
            break;
        snprintf(row[0].text, sizeof row[0].text, "%zu", i + 1);
        mmb_report_label_params(r->r.params, row[1].text, sizeof row[1].text);
        mmb_report_md_ms(r->r.time_ms_median, row[2].text, sizeof row[2].text);
        snprintf(row[3].text, sizeof row[3].text, "%.2f", r->r.time_ms_median / best);
        snprintf(row[4].text, sizeof row[4].text, "%.2f", mmb_report_row_gflops(r) / 1000);
        if (r->r.registers != MMB_INT_EMPTY)
            snprintf(row[5].text, sizeof row[5].text, "%lld", r->r.registers);
        if (r->r.smem_bytes != MMB_INT_EMPTY)
            snprintf(row[6].text, sizeof row[6].text, "%lld", r->r.smem_bytes);
        if (isfinite(mmb_report_row_occupancy(r, occ)))
            snprintf(row[OCCUPANCY_COLUMN].text, sizeof row[OCCUPANCY_COLUMN].text, "%.0f",
                     mmb_report_row_occupancy(r, occ));
    }
    mmb_report_tabular_emit(md, tex, &t);
    free(idx);
}
