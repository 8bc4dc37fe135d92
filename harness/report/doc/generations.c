/* generations.c - the tables that set two GPUs side by side: for each measured GPU
 * and the next, at the reference size, each kernel at the older GPU's best
 * configuration and the same configuration on the newer, with `mmbench compare`'s
 * ratio, interval and verdict and the counters of both (report/input/pairs.h): a
 * difference of counters is one of the kernel's, not of two configurations. */
#include "report/doc/generations.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/array.h"
#include "report/doc/md.h"
#include "report/doc/tabular.h"
#include "report/input/labels.h"
#include "report/input/pairs.h"
#include "report/input/select.h"

static double dram_need(const struct mmb_report_row *r)
{
    return (r->r.dram_read_bytes + r->r.dram_write_bytes) / mmb_row_compulsory_bytes(&r->r);
}

/* The table of GPU b against GPU a (the older); 0 with no row when none is shared. */
static int generations_table(const struct mmb_report *rep, size_t a, size_t b, struct mmb_report_table *t)
{
    const struct mmb_report_data *d = &rep->data;
    char ref[96], sel[64], na[96], nb[96];
    mmb_report_shape_label(&d->shapes[d->ref], ref, sizeof ref);
    mmb_report_state_selection(rep, -1, sel, sizeof sel);
    mmb_report_label_gpu(d->gpus[a].name, na, sizeof na);
    mmb_report_label_gpu(d->gpus[b].name, nb, sizeof nb);
    snprintf(t->title, sizeof t->title, "%s against %s at %s (%s): each kernel at the %s's best configuration, "
             "measured on both", nb, na, ref, sel, na);
    snprintf(t->label, sizeof t->label, "tab:%s-%s", d->gpus[b].slug, d->gpus[a].slug);
    char heads[11][256];
    snprintf(heads[0], sizeof heads[0], "Kernel");
    snprintf(heads[1], sizeof heads[1], "Configuration");
    snprintf(heads[2], sizeof heads[2], "ms %s", na);
    snprintf(heads[3], sizeof heads[3], "ms %s", nb);
    snprintf(heads[4], sizeof heads[4], "%s / %s", nb, na);
    snprintf(heads[5], sizeof heads[5], "95%% interval");
    snprintf(heads[6], sizeof heads[6], "Verdict");
    snprintf(heads[7], sizeof heads[7], "DRAM × need %s", na);
    snprintf(heads[8], sizeof heads[8], "DRAM × need %s", nb);
    snprintf(heads[9], sizeof heads[9], "L2 hit %s", na);
    snprintf(heads[10], sizeof heads[10], "L2 hit %s", nb);
    for (size_t c = 0; c < MMB_COUNT(heads); c++)
        mmb_report_tabular_head(t, c, heads[c], c >= 2 && c != 5 && c != 6, c == 1);
    const char *params[MMB_REPORT_KERNELS_MAX];
    size_t np = 0;
    struct mmb_report_pairs_basis basis = {0};
    for (size_t k = 0; k < d->nkernels; k++) {
        const struct mmb_report_row *ra = mmb_report_select_best(d, a, k, (size_t)d->ref);
        const struct mmb_report_row *rb = ra ? mmb_report_pairs_match(d, ra, b) : NULL;
        if (!rb)
            continue;
        struct mmb_comparison cmp;
        mmb_report_pairs_compare(d, ra, rb, &cmp);
        mmb_report_pairs_basis_add(&basis, ra, rb, &cmp);
        struct mmb_report_cell *row = mmb_report_tabular_row(t);
        if (!row)
            return -1;
        snprintf(row[0].text, sizeof row[0].text, "%s", d->kernels[k]);
        mmb_report_label_params(ra->r.params, row[1].text, sizeof row[1].text);
        params[np++] = ra->r.params;
        mmb_report_tabular_sig(ra->r.time_ms_median, row[2].text, sizeof row[2].text);
        mmb_report_tabular_sig(rb->r.time_ms_median, row[3].text, sizeof row[3].text);
        mmb_report_tabular_fixed(cmp.ratio.ratio, 3, row[4].text, sizeof row[4].text);
        if (!isnan(cmp.ratio.lo))
            snprintf(row[5].text, sizeof row[5].text, "%.3f – %.3f", cmp.ratio.lo, cmp.ratio.hi);
        snprintf(row[6].text, sizeof row[6].text, "%s",
                 cmp.timed_alike ? mmb_verdict_text(cmp.ratio.verdict) : "other protocol");
        mmb_report_tabular_fixed(dram_need(ra), 1, row[7].text, sizeof row[7].text);
        mmb_report_tabular_fixed(dram_need(rb), 1, row[8].text, sizeof row[8].text);
        mmb_report_tabular_fixed(ra->r.l2_hit_pct, 0, row[9].text, sizeof row[9].text);
        mmb_report_tabular_fixed(rb->r.l2_hit_pct, 0, row[10].text, sizeof row[10].text);
    }
    mmb_report_tabular_note(t, "%s / %s: the %s's median time over the %s's at the same configuration; the 95%% "
                            "interval and the verdict (FASTER, SLOWER: the %s; SAME: within %.0f%%; UNSURE: the noise "
                            "allows no verdict) are mmbench compare's. DRAM × need: DRAM bytes over the compulsory "
                            "bytes (A, B and C once); L2 hit in %%; none where the configuration was not counted on "
                            "that GPU (counters = best counts each GPU's fastest configuration; counters = all, every "
                            "one). ", nb, na, nb, na, nb,
                            100 * MMB_VERDICT_THRESHOLD);
    char text[1024];
    mmb_report_pairs_basis_text(&basis, na, nb, text, sizeof text);
    if (text[0])
        mmb_report_tabular_note(t, "%s ", text);
    mmb_report_tabular_legend(t, params, np);
    return 0;
}

int mmb_report_generations_write(const struct mmb_report *rep, FILE *md, FILE *tex)
{
    const struct mmb_report_data *d = &rep->data;
    if (d->ref < 0)
        return 0;
    size_t prev = d->ngpus;
    bool heading = false;
    for (size_t g = 0; g < d->ngpus; g++) {
        if (d->gpus[g].all_published || !mmb_report_select_gpu_has(d, g, NULL))
            continue;
        if (prev < d->ngpus) {
            struct mmb_report_table t;
            memset(&t, 0, sizeof t);
            int rc = generations_table(rep, prev, g, &t);
            if (rc == 0 && t.nrows && !heading) {
                fputs("### GPU generations at one configuration\n\n", md);
                heading = true;
            }
            if (rc == 0)
                mmb_report_tabular_emit(md, tex, &t);
            mmb_report_tabular_free(&t);
            if (rc != 0)
                return -1;
        }
        prev = g;
    }
    return 0;
}
