/* table.c - the story's tables of each GPU (tabular.c renders them): every kernel at
 * the reference size, its Speed of Light, TFLOP/s by size, the element types and the
 * parameter grids. */
#include "report/doc/table.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "core/file.h"
#include "report/doc/md.h"
#include "report/doc/tabular.h"
#include "report/input/grid.h"
#include "report/input/labels.h"
#include "report/input/row.h"
#include "report/input/select.h"
#include "results/row.h"

/* ---- the tables ---------------------------------------------------------------------- */

static double dram_util(const struct mmb_report_row *r)
{
    return isfinite(r->r.dram_util_pct) ? r->r.dram_util_pct : mmb_report_row_dram_pct(r);
}

static void kernels_head(const struct mmb_report *rep, size_t g, struct mmb_report_table *t, const char *what,
                         const char *slug)
{
    const struct mmb_report_data *d = &rep->data;
    char ref[96], sel[64], gpu[128];
    mmb_report_shape_label(&d->shapes[d->ref], ref, sizeof ref);
    mmb_report_state_selection(rep, (int)g, sel, sizeof sel);
    mmb_report_state_gpu_label(rep, g, gpu, sizeof gpu);
    snprintf(t->title, sizeof t->title, "%s: %s at %s (%s), each kernel's best configuration", gpu, what, ref, sel);
    snprintf(t->label, sizeof t->label, "tab:%s-%s", d->gpus[g].slug, slug);
}

/* The speed of each kernel at the reference size: the lecture's ladder in numbers. */
static int table_kernels(const struct mmb_report *rep, size_t g, struct mmb_report_table *t)
{
    const struct mmb_report_data *d = &rep->data;
    kernels_head(rep, g, t, "speed", "kernels");
    static const struct {
        const char *head;
        bool num, code;
    } heads[] = {{"Kernel", false, false},  {"Configuration", false, true}, {"ms", true, false},
                 {"Spread %", true, false},  {"TFLOP/s", true, false},      {"× prev.", true, false},
                 {"% FP32", true, false},   {"% cuBLAS", true, false}};
    for (size_t c = 0; c < MMB_COUNT(heads); c++)
        mmb_report_tabular_head(t, c, heads[c].head, heads[c].num, heads[c].code);
    const struct mmb_report_row *cub =
        d->cublas >= 0 ? mmb_report_select_best(d, g, (size_t)d->cublas, (size_t)d->ref) : NULL;
    const struct mmb_report_row *prev = NULL;
    const char *params[MMB_REPORT_KERNELS_MAX];
    size_t np = 0;
    bool published = false;
    for (size_t k = 0; k < d->nkernels; k++) {
        const struct mmb_report_row *r = mmb_report_select_best(d, g, k, (size_t)d->ref);
        if (!r)
            continue;
        struct mmb_report_cell *row = mmb_report_tabular_row(t);
        if (!row)
            return -1;
        snprintf(row[0].text, sizeof row[0].text, "%s", d->kernels[k]);
        row[0].mark = r->published;
        published = published || r->published;
        mmb_report_label_params(r->r.params, row[1].text, sizeof row[1].text);
        params[np++] = r->r.params;
        mmb_report_tabular_sig(r->r.time_ms_median, row[2].text, sizeof row[2].text);
        mmb_report_tabular_fixed(100.0 * r->r.time_ms_stddev / r->r.time_ms_median, 2, row[3].text, sizeof row[3].text);
        mmb_report_tabular_fixed(mmb_report_row_gflops(r) / 1000, 1, row[4].text, sizeof row[4].text);
        if (prev)
            mmb_report_tabular_fixed(prev->r.time_ms_median / r->r.time_ms_median, 2, row[5].text, sizeof row[5].text);
        mmb_report_tabular_fixed(mmb_row_fp32_pct(&r->r), 1, row[6].text, sizeof row[6].text);
        if (cub)
            mmb_report_tabular_fixed(100.0 * cub->r.time_ms_median / r->r.time_ms_median, 1, row[7].text,
                                     sizeof row[7].text);
        prev = r;
    }
    if (published)
        snprintf(t->foot, sizeof t->foot, "published figure, not measured by mmbench (see Data in reports/README.md)");
    mmb_report_tabular_note(
            t,
            "Spread: standard deviation of the timed launches over their median; × prev.: speed over the "
            "kernel above.");
    mmb_report_tabular_legend(t, params, np);
    return 0;
}

/* Nsight Compute's Speed of Light for each kernel at the reference size. */
static int table_sol(const struct mmb_report *rep, size_t g, struct mmb_report_table *t)
{
    const struct mmb_report_data *d = &rep->data;
    kernels_head(rep, g, t, "Speed of Light (% of each unit's peak)", "sol");
    static const char *const heads[] = {"Kernel", "FP32", "SM", "L1", "L2", "DRAM", "L1 hit", "L2 hit", "Occup.",
                                        "DRAM × need", "Limiter"};
    for (size_t c = 0; c < MMB_COUNT(heads); c++)
        mmb_report_tabular_head(t, c, heads[c], c > 0 && c + 1 < MMB_COUNT(heads), false);
    bool l12 = false;
    for (size_t k = 0; k < d->nkernels; k++) {
        const struct mmb_report_row *r = mmb_report_select_best(d, g, k, (size_t)d->ref);
        if (!r || !mmb_report_row_has_util(r))
            continue;
        struct mmb_report_cell *row = mmb_report_tabular_row(t);
        if (!row)
            return -1;
        snprintf(row[0].text, sizeof row[0].text, "%s", d->kernels[k]);
        mmb_report_tabular_fixed(mmb_row_fp32_pct(&r->r), 1, row[1].text, sizeof row[1].text);
        mmb_report_tabular_fixed(r->r.sm_util_pct, 1, row[2].text, sizeof row[2].text);
        mmb_report_tabular_fixed(r->r.l1_util_pct, 1, row[3].text, sizeof row[3].text);
        mmb_report_tabular_fixed(r->r.l2_util_pct, 1, row[4].text, sizeof row[4].text);
        mmb_report_tabular_fixed(dram_util(r), 1, row[5].text, sizeof row[5].text);
        mmb_report_tabular_fixed(r->r.l1_hit_pct, 0, row[6].text, sizeof row[6].text);
        mmb_report_tabular_fixed(r->r.l2_hit_pct, 0, row[7].text, sizeof row[7].text);
        mmb_report_tabular_fixed(r->r.occupancy_pct, 0, row[8].text, sizeof row[8].text);
        double need = mmb_row_compulsory_bytes(&r->r);
        mmb_report_tabular_fixed((r->r.dram_read_bytes + r->r.dram_write_bytes) / need, 1, row[9].text,
                                 sizeof row[9].text);
        char buf[8];
        snprintf(row[10].text, sizeof row[10].text, "%s", mmb_row_limiter(&r->r, buf, sizeof buf));
        l12 = l12 || isfinite(r->r.l1_util_pct);
    }
    mmb_report_tabular_note(
            t,
            "SM: the busiest SM unit (sm__throughput), not FP32 use; DRAM × need: DRAM bytes over the compulsory "
            "bytes (A, B and C once).");
    if (!l12)
        mmb_report_tabular_note(
                t,
                " L1 and L2 throughput and the limiter are not in these CSVs (measure again with the default "
                "metrics).");
    return 0;
}

/* Each kernel's TFLOP/s by size: square sizes (rect false) or the other shapes. */
static int table_sizes(const struct mmb_report *rep, size_t g, bool rect, struct mmb_report_table *t)
{
    const struct mmb_report_data *d = &rep->data;
    char sel[64], gpu[128];
    mmb_report_state_selection(rep, (int)g, sel, sizeof sel);
    mmb_report_state_gpu_label(rep, g, gpu, sizeof gpu);
    snprintf(t->title, sizeof t->title, "%s: TFLOP/s of each kernel's best configuration %s (%s)", gpu,
             rect ? "at the rectangular shapes M×N×K" : "by size N", sel);
    snprintf(t->label, sizeof t->label, "tab:%s-%s", d->gpus[g].slug, rect ? "shapes" : "sizes");
    mmb_report_tabular_head(t, 0, "Kernel", false, false);
    size_t cols = 0, skipped = 0;
    int *shape_col = calloc(d->nshapes ? d->nshapes : 1, sizeof *shape_col);
    if (!shape_col)
        return -1;
    for (size_t s = 0; s < d->nshapes; s++) {
        shape_col[s] = -1;
        bool sq = d->shapes[s].m == d->shapes[s].n && d->shapes[s].n == d->shapes[s].k;
        bool any = false;
        for (size_t k = 0; k < d->nkernels; k++)
            any = any || mmb_report_select_best(d, g, k, s);
        if (!any || sq == rect)
            continue;
        if (cols + 1 >= MMB_REPORT_TCOLS) {
            skipped++;
            continue;
        }
        char label[96], head[160] = "";
        mmb_report_shape_label(&d->shapes[s], label, sizeof label);
        for (const char *p = label; *p; p++) /* 2048×8192×1024 */
            snprintf(head + strlen(head), sizeof head - strlen(head), *p == 'x' ? "×" : "%c", *p);
        shape_col[s] = (int)++cols;
        mmb_report_tabular_head(t, cols, head, true, false);
    }
    for (size_t k = 0; k < d->nkernels; k++) {
        struct mmb_report_cell *row = NULL;
        char configs[512] = "";
        const char *last = NULL;
        for (size_t s = 0; s < d->nshapes; s++) {
            const struct mmb_report_row *r = mmb_report_select_best(d, g, k, s);
            if (!r || shape_col[s] < 0)
                continue;
            if (!row && !(row = mmb_report_tabular_row(t))) {
                free(shape_col);
                return -1;
            }
            snprintf(row[0].text, sizeof row[0].text, "%s", d->kernels[k]);
            row[0].mark = row[0].mark || r->published;
            mmb_report_tabular_fixed(mmb_report_row_gflops(r) / 1000, 2, row[shape_col[s]].text,
                                     sizeof row[shape_col[s]].text);
            if (r->published)
                snprintf(t->foot, sizeof t->foot,
                         "published figure, not measured by mmbench (see Data in reports/README.md)");
            /* the configuration behind each number, once per change */
            if (r->r.params[0] && (!last || strcmp(last, r->r.params))) {
                char p[256], l[96];
                mmb_report_label_params(r->r.params, p, sizeof p);
                mmb_report_shape_label(&d->shapes[s], l, sizeof l);
                snprintf(configs + strlen(configs), sizeof configs - strlen(configs), "%s%s from %s",
                         configs[0] ? ", " : "", p, l);
                last = r->r.params;
            }
        }
        if (configs[0])
            mmb_report_tabular_note(t, "%s%s: %s.", t->note[0] ? " " : "Configurations: ", d->kernels[k], configs);
    }
    if (skipped)
        mmb_report_tabular_note(t, " %zu more shapes are in the CSVs, not in this table.", skipped);
    free(shape_col);
    return t->ncols > 2 || (rect && t->ncols > 1) ? 0 : (t->nrows = 0, 0);
}

static int table_grid(const struct mmb_report *rep, size_t g, size_t k, const struct mmb_report_grid *grid,
                      struct mmb_report_table *t)
{
    const struct mmb_report_data *d = &rep->data;
    char ref[96], sel[64], gpu[128], kslug[MMB_REPORT_NAME_MAX];
    mmb_report_shape_label(&d->shapes[d->ref], ref, sizeof ref);
    mmb_report_state_selection(rep, (int)g, sel, sizeof sel);
    mmb_report_state_gpu_label(rep, g, gpu, sizeof gpu);
    mmb_gpu_slug(d->kernels[k], kslug, sizeof kslug);
    snprintf(t->title, sizeof t->title, "%s: %s, median time (ms) by %s (columns) and %s (rows) at %s (%s)%s%s", gpu,
             d->kernels[k], grid->xname, grid->yname, ref, sel, "", "");
    if (grid->legend[0] && grid->restricted)
        mmb_report_tabular_note(
                t,
                "Rows: the combinations of %s that the space allows (%s); the %zu configurations its restrictions "
                "exclude are left out.",
                grid->yname, grid->legend, grid->restricted);
    else if (grid->legend[0])
        mmb_report_tabular_note(t, "Rows: the combinations of %s (%s).", grid->yname, grid->legend);
    if ((int)grid->profile != d->main && d->profiles[grid->profile].role != MMB_REPORT_ROLE_PUBLISHED &&
        d->profiles[grid->profile].name[0])
        mmb_report_tabular_note(t, "%sThe cells are the rows of profile %s.", t->note[0] ? " " : "",
                                d->profiles[grid->profile].name);
    snprintf(t->label, sizeof t->label, "tab:%s-%s-grid", d->gpus[g].slug, kslug);
    char corner[256];
    snprintf(corner, sizeof corner, "%s \\ %s", grid->yname, grid->xname);
    mmb_report_tabular_head(t, 0, corner, false, false);
    for (size_t ix = 0; ix < grid->nx && ix + 1 < MMB_REPORT_TCOLS; ix++) {
        char v[32];
        snprintf(v, sizeof v, "%g", grid->xs[ix]);
        mmb_report_tabular_head(t, ix + 1, v, true, false);
    }
    for (size_t iy = 0; iy < grid->ny; iy++) {
        struct mmb_report_cell *row = mmb_report_tabular_row(t);
        if (!row)
            return -1;
        snprintf(row[0].text, sizeof row[0].text, "%s", grid->ylabels[iy]);
        for (size_t ix = 0; ix < grid->nx && ix + 1 < MMB_REPORT_TCOLS; ix++) {
            struct mmb_report_cell *c = &row[ix + 1];
            if (!isnan(grid->ms[iy][ix]))
                mmb_report_tabular_sig(grid->ms[iy][ix], c->text, sizeof c->text);
            else if (grid->why[iy][ix])
                snprintf(c->text, sizeof c->text, "%s", grid->why[iy][ix]);
            c->bold = ix == grid->best_x && iy == grid->best_y;
        }
    }
    if (d->rows[grid->best_row].published) {
        snprintf(t->foot, sizeof t->foot, "published figures, not measured by mmbench (see Data in reports/README.md)");
        for (size_t iy = 0; iy < t->nrows; iy++)
            t->rows[iy][0].mark = true;
    }
    return 0;
}

/* Each kernel in every element type at the reference shape: TFLOP/s and the share
 * of the pipe that element type runs on, from the profile that measures the most
 * element types (its rows are not the story's, so they are looked up here). */
static int table_dtypes(const struct mmb_report *rep, size_t g, struct mmb_report_table *t)
{
    const struct mmb_report_data *d = &rep->data;
    const struct mmb_report_shape *ref = &d->shapes[d->ref];
    enum { DTYPES = 3 };
    static const char *const dtypes[DTYPES] = {"f32", "f64", "i32"};
    const struct mmb_report_row *best[MMB_REPORT_KERNELS_MAX][DTYPES] = {{NULL}};
    size_t other = 0;
    for (size_t i = 0; i < d->nrows && d->dtypes >= 0; i++) {
        const struct mmb_report_row *r = &d->rows[i];
        if (r->gpu != g || (int)r->profile != d->dtypes || r->r.status != MMB_STATUS_OK || r->r.m != ref->m ||
            r->r.n != ref->n || r->r.k != ref->k || (d->cache[0] && r->r.cache[0] && strcmp(r->r.cache, d->cache)))
            continue;
        for (size_t t2 = 0; t2 < DTYPES; t2++)
            if (!strcmp(r->r.dtype, dtypes[t2]) &&
                (!best[r->kernel][t2] || r->r.time_ms_median < best[r->kernel][t2]->r.time_ms_median)) {
                other += !best[r->kernel][t2] && strcmp(dtypes[t2], d->dtype) != 0;
                best[r->kernel][t2] = r;
            }
    }
    if (!other)
        return 0;
    char ref_text[96], gpu[128];
    mmb_report_shape_label(ref, ref_text, sizeof ref_text);
    mmb_report_state_gpu_label(rep, g, gpu, sizeof gpu);
    snprintf(t->title, sizeof t->title,
             "%s: each element type at %s, TFLOP/s (TOP/s for i32) and %% of its pipe's peak", gpu, ref_text);
    if (d->profiles[d->dtypes].name[0])
        mmb_report_tabular_note(t, "Rows of profile %s. ", d->profiles[d->dtypes].name);
    snprintf(t->label, sizeof t->label, "tab:%s-dtypes", d->gpus[g].slug);
    mmb_report_tabular_head(t, 0, "Kernel", false, false);
    for (size_t t2 = 0; t2 < DTYPES; t2++) {
        char h[64];
        snprintf(h, sizeof h, "%s", dtypes[t2]);
        mmb_report_tabular_head(t, 1 + 2 * t2, h, true, false);
        snprintf(h, sizeof h, "%% %s pipe", t2 == 0 ? "FP32" : t2 == 1 ? "FP64" : "INT32");
        mmb_report_tabular_head(t, 2 + 2 * t2, h, true, false);
    }
    bool over = false;
    for (size_t k = 0; k < d->nkernels; k++) {
        bool any = false;
        for (size_t t2 = 0; t2 < DTYPES; t2++)
            any = any || best[k][t2];
        if (!any)
            continue;
        struct mmb_report_cell *row = mmb_report_tabular_row(t);
        if (!row)
            return -1;
        snprintf(row[0].text, sizeof row[0].text, "%s", d->kernels[k]);
        for (size_t t2 = 0; t2 < DTYPES; t2++) {
            const struct mmb_report_row *r = best[k][t2];
            if (!r)
                continue;
            mmb_report_tabular_fixed(mmb_report_row_gflops(r) / 1000, 2, row[1 + 2 * t2].text,
                                     sizeof row[1 + 2 * t2].text);
            double pct = mmb_row_fp32_pct(&r->r);
            mmb_report_tabular_fixed(pct, 0, row[2 + 2 * t2].text, sizeof row[2 + 2 * t2].text);
            over = over || pct > 100;
        }
    }
    mmb_report_tabular_note(
            t, "Each pipe's peak is 2 × its lanes per SM × SMs × clock, without tensor cores%s.",
            over ? "; above 100% a library uses tensor cores (cuBLAS DGEMM on Hopper uses the FP64 ones)" : "");
    return 0;
}

int mmb_report_tables_write(const struct mmb_report *rep, size_t g, FILE *md, FILE *tex)
{
    const struct mmb_report_data *d = &rep->data;
    struct mmb_report_table t;
    memset(&t, 0, sizeof t);
    int rc = 0;
    if (d->ref >= 0) {
        if ((rc = table_kernels(rep, g, &t)) == 0)
            mmb_report_tabular_emit(md, tex, &t);
        if (rc == 0 && (rc = table_sol(rep, g, &t)) == 0)
            mmb_report_tabular_emit(md, tex, &t);
    }
    /* TFLOP/s by size: the figures draw them, tables.tex prints them; the README links there */
    bool sizes = false;
    if (rc == 0 && (rc = table_sizes(rep, g, false, &t)) == 0) {
        sizes = sizes || t.nrows;
        mmb_report_tabular_emit(NULL, tex, &t);
    }
    if (rc == 0 && (rc = table_sizes(rep, g, true, &t)) == 0) {
        sizes = sizes || t.nrows;
        mmb_report_tabular_emit(NULL, tex, &t);
    }
    if (sizes)
        fputs("TFLOP/s of each kernel's best configuration at every size, squares and rectangular shapes: the "
              "figures of Figures and the tables of [tables.tex](tables.tex).\n\n",
              md);
    if (rc == 0 && d->ref >= 0 && (rc = table_dtypes(rep, g, &t)) == 0)
        mmb_report_tabular_emit(md, tex, &t);
    mmb_report_tabular_free(&t);
    return rc;
}

int mmb_report_tables_grids_write(const struct mmb_report *rep, size_t g, FILE *md, FILE *tex, bool *any)
{
    const struct mmb_report_data *d = &rep->data;
    struct mmb_report_table t;
    int rc = 0;
    bool head = false;
    struct mmb_report_grid *grid = malloc(sizeof *grid);
    if (!grid)
        return -1;
    for (size_t k = 0; k < d->nkernels && rc == 0 && d->ref >= 0; k++) {
        if (!mmb_report_grid_build(d, g, k, (size_t)d->ref, grid))
            continue;
        if (!*any)
            fputs("## Every configuration of the story's kernels\n\n", md);
        if (!head) {
            char gpu[128];
            mmb_report_state_gpu_label(rep, g, gpu, sizeof gpu);
            fputs("### ", md);
            mmb_report_md_text(md, gpu);
            fputs("\n\n", md);
            *any = head = true;
        }
        memset(&t, 0, sizeof t);
        if ((rc = table_grid(rep, g, k, grid, &t)) == 0)
            mmb_report_tabular_emit(md, tex, &t);
        mmb_report_tabular_free(&t);
    }
    free(grid);
    return rc;
}
