/* precisions_doc.c - the Precisions section (a profile of role precisions): per GPU
 * the precisions figure (plot_precisions.c), a table of each kernel's TFLOP/s in each
 * element type against the peak of that type's pipe, and what the rows say: how many
 * times the FP32 pipe's speed cuBLAS reaches on the tensor cores in each type, and how
 * far the own kernels get against cuBLAS in theirs; with two GPUs or more, cuBLAS in
 * each type on each GPU side by side. Nothing when no precisions profile has ok rows. */
#include "report/doc/precisions_doc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/doc/md.h"
#include "report/doc/tabular.h"
#include "report/input/labels.h"
#include "report/input/precisions.h"
#include "report/input/row.h"

static const struct mmb_report_row *of(const struct mmb_report_precisions *pr, const char *dtype, int kernel)
{
    for (size_t t = 0; t < pr->ndtypes && kernel >= 0; t++)
        if (!strcmp(pr->dtypes[t], dtype))
            return pr->best[t][kernel];
    return NULL;
}

static int table(const struct mmb_report *rep, const struct mmb_report_precisions *pr, FILE *md, FILE *tex)
{
    const struct mmb_report_data *d = &rep->data;
    struct mmb_report_table t;
    memset(&t, 0, sizeof t);
    char gpu[128], size[96];
    mmb_report_state_gpu_label(rep, pr->g, gpu, sizeof gpu);
    mmb_report_shape_label(&pr->s, size, sizeof size);
    snprintf(t.title, sizeof t.title, "%s: each element type at %s, TFLOP/s (TOP/s for i8) and %% of its pipe's peak",
             gpu, size);
    snprintf(t.label, sizeof t.label, "tab:precisions-%s", d->gpus[pr->g].slug);
    static const char *const head[] = {"Type", "Pipe", "Pipe peak", "Kernel", "TFLOP/s", "% of peak", "% cuBLAS",
                                       "Configuration"};
    for (size_t c = 0; c < 8; c++)
        mmb_report_tabular_head(&t, c, head[c], c == 2 || (c >= 4 && c <= 6), c == 7);
    const char *params[MMB_DTYPE_COUNT * MMB_REPORT_KERNELS_MAX];
    size_t np = 0;
    for (size_t i = 0; i < pr->ndtypes; i++) {
        const struct mmb_report_row *cub = d->cublas >= 0 ? pr->best[i][d->cublas] : NULL;
        for (size_t k = 0; k < pr->nkernels; k++) {
            const struct mmb_report_row *r = pr->best[i][pr->kernels[k]];
            if (!r)
                continue;
            struct mmb_report_cell *row = mmb_report_tabular_row(&t);
            if (!row)
                return -1;
            snprintf(row[0].text, sizeof row[0].text, "%s", pr->dtypes[i]);
            snprintf(row[1].text, sizeof row[1].text, "%s", r->r.pipe);
            mmb_report_tabular_fixed(r->r.peak_gflops / 1000, 1, row[2].text, sizeof row[2].text);
            snprintf(row[3].text, sizeof row[3].text, "%s", d->kernels[pr->kernels[k]]);
            mmb_report_tabular_fixed(mmb_report_row_gflops(r) / 1000, 1, row[4].text, sizeof row[4].text);
            mmb_report_tabular_fixed(100 * mmb_report_row_gflops(r) / r->r.peak_gflops, 1, row[5].text,
                                     sizeof row[5].text);
            if (cub && cub != r)
                mmb_report_tabular_fixed(100 * cub->r.time_ms_median / r->r.time_ms_median, 1, row[6].text,
                                         sizeof row[6].text);
            mmb_report_label_params(r->r.params, row[7].text, sizeof row[7].text);
            if (r->r.params[0])
                params[np++] = r->r.params;
        }
    }
    mmb_report_tabular_note(&t, "Each kernel at its fastest ok configuration (profile %s). Pipe peak: the dense peak "
                              "of the type's pipe (TFLOP/s, TOP/s for i8), from the row; %% of peak: TFLOP/s over it; "
                              "%% cuBLAS: against cuBLAS in the same type and run.",
                          d->profiles[pr->p].name);
    mmb_report_tabular_legend(&t, params, np);
    mmb_report_tabular_emit(md, tex, &t);
    return 0;
}

/* What the rows say: the tensor cores against the FP32 pipe, the own kernels against cuBLAS. */
static void findings(FILE *md, const struct mmb_report *rep, const struct mmb_report_precisions *pr)
{
    const struct mmb_report_data *d = &rep->data;
    const struct mmb_report_row *f32 = of(pr, "f32", d->cublas);
    char size[96];
    mmb_report_shape_label(&pr->s, size, sizeof size);
    char list[1024] = "";
    for (size_t i = 0; f32 && i < pr->ndtypes; i++) {
        const struct mmb_report_row *r = d->cublas >= 0 ? pr->best[i][d->cublas] : NULL;
        if (!r || r == f32 || strncmp(r->r.pipe, "tensor", 6) != 0)
            continue;
        size_t o = strlen(list);
        snprintf(list + o, sizeof list - o, "%s%s %.0f (×%.1f)", o ? ", " : "", pr->dtypes[i],
                 mmb_report_row_gflops(r) / 1000, mmb_report_row_gflops(r) / mmb_report_row_gflops(f32));
    }
    if (list[0])
        fprintf(md, "- cuBLAS on the tensor cores at %s, in TFLOP/s (TOP/s for i8) and times its FP32 speed (%.1f "
                    "TFLOP/s on the FP32 pipe): %s.\n",
                size, mmb_report_row_gflops(f32) / 1000, list);
    for (size_t i = 0; i < pr->ndtypes; i++) {
        const struct mmb_report_row *cub = d->cublas >= 0 ? pr->best[i][d->cublas] : NULL, *own = NULL;
        for (size_t k = 0; k < pr->nkernels; k++) {
            const struct mmb_report_row *r = pr->best[i][pr->kernels[k]];
            if (r && (int)pr->kernels[k] != d->cublas && (!own || r->r.time_ms_median < own->r.time_ms_median))
                own = r;
        }
        if (!own || !cub)
            continue;
        fputs("- In ", md);
        mmb_report_md_text(md, pr->dtypes[i]);
        fputs(" the fastest own kernel, ", md);
        mmb_report_md_text(md, own->r.kernel);
        fprintf(md, ", reaches %.1f TFLOP/s at %s: %.0f%% of cuBLAS and %.1f%% of the %s pipe's peak.\n",
                mmb_report_row_gflops(own) / 1000, size, 100 * cub->r.time_ms_median / own->r.time_ms_median,
                100 * mmb_report_row_gflops(own) / own->r.peak_gflops, own->r.pipe);
    }
    fputc('\n', md);
}

/* cuBLAS in each type on each GPU that has the profile, at each GPU's size. */
static int generations(const struct mmb_report *rep, struct mmb_report_precisions *all, size_t n, FILE *md,
                       FILE *tex)
{
    const struct mmb_report_data *d = &rep->data;
    if (n < 2 || d->cublas < 0)
        return 0;
    struct mmb_report_table t;
    memset(&t, 0, sizeof t);
    snprintf(t.title, sizeof t.title, "GPU generations per precision: cuBLAS TFLOP/s (TOP/s for i8)");
    snprintf(t.label, sizeof t.label, "tab:precisions-gpus");
    mmb_report_tabular_head(&t, 0, "Type", false, false);
    for (size_t j = 0; j < n && j + 2 < MMB_REPORT_TCOLS; j++) {
        char gpu[128], size[96], h[256];
        mmb_report_state_gpu_label(rep, all[j].g, gpu, sizeof gpu);
        mmb_report_shape_label(&all[j].s, size, sizeof size);
        snprintf(h, sizeof h, "%s at %s", gpu, size);
        mmb_report_tabular_head(&t, j + 1, h, true, false);
    }
    char h[320];
    snprintf(h, sizeof h, "× %s over the first", d->gpus[all[n - 1].g].name);
    mmb_report_tabular_head(&t, n + 1, h, true, false);
    for (const struct mmb_dtype_info *ti = mmb_dtype_table; ti->text; ti++) {
        const struct mmb_report_row *first = of(&all[0], ti->text, d->cublas), *last = of(&all[n - 1], ti->text, d->cublas);
        bool any = false;
        for (size_t j = 0; j < n; j++)
            any = any || of(&all[j], ti->text, d->cublas);
        if (!any)
            continue;
        struct mmb_report_cell *row = mmb_report_tabular_row(&t);
        if (!row)
            return -1;
        snprintf(row[0].text, sizeof row[0].text, "%s", ti->text);
        for (size_t j = 0; j < n; j++) {
            const struct mmb_report_row *r = of(&all[j], ti->text, d->cublas);
            if (r)
                mmb_report_tabular_fixed(mmb_report_row_gflops(r) / 1000, 1, row[j + 1].text, sizeof row[j + 1].text);
        }
        if (first && last)
            mmb_report_tabular_fixed(first->r.time_ms_median / last->r.time_ms_median, 2, row[n + 1].text,
                                     sizeof row[n + 1].text);
    }
    mmb_report_tabular_note(&t, "Medians of one run each; a ratio is a difference only beyond the runs' noise, which "
                              "mmbench compare judges from the samples.");
    mmb_report_tabular_emit(md, tex, &t);
    return 0;
}

int mmb_report_precisions_doc_section(const struct mmb_report *rep, FILE *md, FILE *tex)
{
    const struct mmb_report_data *d = &rep->data;
    struct mmb_report_precisions *all = calloc(d->ngpus ? d->ngpus : 1, sizeof *all);
    if (!all)
        return -1;
    size_t n = 0;
    for (size_t g = 0; g < d->ngpus; g++)
        n += mmb_report_precisions_at(d, g, &all[n]);
    int rc = 0;
    if (n) {
        fputs("## Precisions\n\nEvery element type on the pipe it runs on: cuBLAS in each type and the own kernels "
              "in theirs, against the dense peak of that type's pipe (the tensor cores for f16, bf16, tf32, e4m3 "
              "and i8; FP64 tensor cores for f64 cuBLAS), each at its fastest configuration.\n\n",
              md);
        fputs("% Precisions\n", tex);
    }
    for (size_t j = 0; j < n && rc == 0; j++) {
        char gpu[128], name[160];
        mmb_report_state_gpu_label(rep, all[j].g, gpu, sizeof gpu);
        fputs("### ", md);
        mmb_report_md_text(md, gpu);
        fputs("\n\n", md);
        snprintf(name, sizeof name, "precisions-%s", d->gpus[all[j].g].slug);
        for (size_t i = 0; i < rep->nfigs; i++)
            if (rep->figs[i].group == MMB_REPORT_GROUP_SECTION && !strcmp(rep->figs[i].name, name))
                mmb_report_md_figure(md, rep, &rep->figs[i]);
        findings(md, rep, &all[j]);
        rc = table(rep, &all[j], md, tex);
    }
    if (rc == 0)
        rc = generations(rep, all, n, md, tex);
    free(all);
    return rc;
}
