/* table.c - the report's tables: built once into a neutral model and
 * rendered twice, as Markdown for README.md and as LaTeX for tables.tex, so that
 * both always carry the same numbers. */
#include "report/table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "report/grid.h"
#include "report/md.h"

/* ---- table model ------------------------------------------------------------------ */

#define TCOLS 24

struct cell {
    char text[272];  /* "" is a missing value */
    bool bold;       /* the best of its table */
    bool mark;       /* a published figure */
};

struct table {
    char title[1024];
    char label[160];
    size_t ncols, nrows, caprows;
    char head[TCOLS][160];
    bool num[TCOLS];   /* right-aligned */
    bool code[TCOLS];  /* parameters: monospace */
    struct cell (*rows)[TCOLS];
    char foot[512];
};

static struct cell *table_row(struct table *t)
{
    if (t->nrows == t->caprows) {
        size_t cap = t->caprows ? 2 * t->caprows : 16;
        struct cell(*rows)[TCOLS] = realloc(t->rows, cap * sizeof *rows);
        if (!rows)
            return NULL;
        t->rows = rows;
        t->caprows = cap;
    }
    struct cell *row = t->rows[t->nrows++];
    memset(row, 0, TCOLS * sizeof *row);
    return row;
}

static void table_free(struct table *t)
{
    free(t->rows);
    t->rows = NULL;
    t->nrows = t->caprows = 0;
}

static void head_set(struct table *t, size_t col, const char *text, bool num, bool code)
{
    snprintf(t->head[col], sizeof t->head[col], "%s", text);
    t->num[col] = num;
    t->code[col] = code;
    if (col + 1 > t->ncols)
        t->ncols = col + 1;
}

/* About four significant digits, never an exponent: times run from microseconds
 * to seconds and must read at a glance. */
static void num_sig(double v, char *out, size_t len)
{
    if (!isfinite(v))
        out[0] = '\0';
    else if (fabs(v) >= 1000)
        snprintf(out, len, "%.0f", v);
    else if (fabs(v) >= 100)
        snprintf(out, len, "%.1f", v);
    else if (fabs(v) >= 10)
        snprintf(out, len, "%.2f", v);
    else if (fabs(v) >= 1)
        snprintf(out, len, "%.3f", v);
    else
        snprintf(out, len, "%.3g", v);
}

static void num_fixed(double v, int decimals, char *out, size_t len)
{
    if (!isfinite(v))
        out[0] = '\0';
    else
        snprintf(out, len, "%.*f", decimals, v);
}

/* ---- the tables ---------------------------------------------------------------------- */

static double dram_util(const struct mmb_report_row *r)
{
    return isfinite(r->r.dram_util_pct) ? r->r.dram_util_pct : mmb_report_dram_pct(r);
}

static int table_kernels(const struct mmb_report *rep, size_t g, struct table *t)
{
    const struct mmb_report_data *d = &rep->data;
    char ref[96], sel[64], gpu[128];
    mmb_report_shape_label(&d->shapes[d->ref], ref, sizeof ref);
    mmb_report_selection(rep, (int)g, sel, sizeof sel);
    mmb_report_gpu_label(rep, g, gpu, sizeof gpu);
    snprintf(t->title, sizeof t->title, "%s: every kernel at %s (%s), best configuration", gpu, ref, sel);
    snprintf(t->label, sizeof t->label, "tab:%s-kernels", d->gpus[g].slug);
    static const struct {
        const char *head;
        bool num, code;
    } heads[] = {{"Kernel", false, false},   {"Parameters", false, true}, {"Time (ms)", true, false},
                 {"GFLOP/s", true, false},   {"% of cuBLAS", true, false}, {"DRAM GB/s", true, false},
                 {"DRAM %", true, false},    {"SM %", true, false}};
    for (size_t c = 0; c < MMB_COUNT(heads); c++)
        head_set(t, c, heads[c].head, heads[c].num, heads[c].code);
    const struct mmb_report_row *cub =
        d->cublas >= 0 ? mmb_report_best(d, g, (size_t)d->cublas, (size_t)d->ref) : NULL;
    bool published = false;
    for (size_t k = 0; k < d->nkernels; k++) {
        const struct mmb_report_row *r = mmb_report_best(d, g, k, (size_t)d->ref);
        if (!r)
            continue;
        struct cell *row = table_row(t);
        if (!row)
            return -1;
        snprintf(row[0].text, sizeof row[0].text, "%s", d->kernels[k]);
        row[0].mark = r->published;
        published = published || r->published;
        snprintf(row[1].text, sizeof row[1].text, "%s", r->r.params);
        num_sig(r->r.time_ms_median, row[2].text, sizeof row[2].text);
        num_fixed(mmb_report_gflops(r), 0, row[3].text, sizeof row[3].text);
        if (cub)
            num_fixed(100.0 * cub->r.time_ms_median / r->r.time_ms_median, 1, row[4].text, sizeof row[4].text);
        num_fixed(mmb_report_dram_gbps(r), 0, row[5].text, sizeof row[5].text);
        num_fixed(dram_util(r), 1, row[6].text, sizeof row[6].text);
        num_fixed(r->r.sm_util_pct, 1, row[7].text, sizeof row[7].text);
    }
    if (published)
        snprintf(t->foot, sizeof t->foot, "published figure, not measured by mmbench (see Data in reports/README.md)");
    return 0;
}

static int table_sizes(const struct mmb_report *rep, size_t g, struct table *t)
{
    const struct mmb_report_data *d = &rep->data;
    char sel[64], gpu[128];
    mmb_report_selection(rep, (int)g, sel, sizeof sel);
    mmb_report_gpu_label(rep, g, gpu, sizeof gpu);
    snprintf(t->title, sizeof t->title, "%s: GFLOP/s of each kernel's best configuration by size (%s)", gpu, sel);
    snprintf(t->label, sizeof t->label, "tab:%s-sizes", d->gpus[g].slug);
    head_set(t, 0, "Kernel", false, false);
    size_t cols = 0;
    int *shape_col = calloc(d->nshapes ? d->nshapes : 1, sizeof *shape_col);
    if (!shape_col)
        return -1;
    for (size_t s = 0; s < d->nshapes; s++) {
        shape_col[s] = -1;
        bool any = false;
        for (size_t k = 0; k < d->nkernels; k++)
            any = any || mmb_report_best(d, g, k, s);
        if (!any || cols + 1 >= TCOLS)
            continue;
        char label[96];
        mmb_report_shape_label(&d->shapes[s], label, sizeof label);
        shape_col[s] = (int)++cols;
        head_set(t, cols, label, true, false);
    }
    for (size_t k = 0; k < d->nkernels; k++) {
        struct cell *row = NULL;
        for (size_t s = 0; s < d->nshapes; s++) {
            const struct mmb_report_row *r = mmb_report_best(d, g, k, s);
            if (!r || shape_col[s] < 0)
                continue;
            if (!row && !(row = table_row(t))) {
                free(shape_col);
                return -1;
            }
            snprintf(row[0].text, sizeof row[0].text, "%s", d->kernels[k]);
            row[0].mark = row[0].mark || r->published;
            num_fixed(mmb_report_gflops(r), 0, row[shape_col[s]].text, sizeof row[shape_col[s]].text);
            if (r->published)
                snprintf(t->foot, sizeof t->foot, "published figure, not measured by mmbench (see Data in reports/README.md)");
        }
    }
    free(shape_col);
    return 0;
}

static int table_grid(const struct mmb_report *rep, size_t g, size_t k, const struct mmb_report_grid *grid,
                      struct table *t)
{
    const struct mmb_report_data *d = &rep->data;
    char ref[96], sel[64], gpu[128], kslug[MMB_REPORT_NAME_MAX];
    mmb_report_shape_label(&d->shapes[d->ref], ref, sizeof ref);
    mmb_report_selection(rep, (int)g, sel, sizeof sel);
    mmb_report_gpu_label(rep, g, gpu, sizeof gpu);
    mmb_gpu_slug(d->kernels[k], kslug, sizeof kslug);
    snprintf(t->title, sizeof t->title, "%s: %s, median time (ms) by %s (columns) and %s (rows) at %s (%s)%s%s", gpu,
             d->kernels[k], grid->xname, grid->yname, ref, sel, grid->fixed[0] ? ", " : "", grid->fixed);
    snprintf(t->label, sizeof t->label, "tab:%s-%s-grid", d->gpus[g].slug, kslug);
    char corner[160];
    snprintf(corner, sizeof corner, "%s \\ %s", grid->yname, grid->xname);
    head_set(t, 0, corner, false, false);
    for (size_t ix = 0; ix < grid->nx && ix + 1 < TCOLS; ix++) {
        char v[32];
        snprintf(v, sizeof v, "%g", grid->xs[ix]);
        head_set(t, ix + 1, v, true, false);
    }
    for (size_t iy = 0; iy < grid->ny; iy++) {
        struct cell *row = table_row(t);
        if (!row)
            return -1;
        snprintf(row[0].text, sizeof row[0].text, "%g", grid->ys[iy]);
        for (size_t ix = 0; ix < grid->nx && ix + 1 < TCOLS; ix++) {
            struct cell *c = &row[ix + 1];
            if (!isnan(grid->ms[iy][ix]))
                num_sig(grid->ms[iy][ix], c->text, sizeof c->text);
            else if (grid->why[iy][ix])
                snprintf(c->text, sizeof c->text, "%s", grid->why[iy][ix]);
            c->bold = ix == grid->best_x && iy == grid->best_y;
        }
    }
    if (d->rows[grid->best_row].published)
        snprintf(t->foot, sizeof t->foot, "published figures, not measured by mmbench (see Data in reports/README.md)");
    return 0;
}

/* ---- Markdown ---------------------------------------------------------------------------- */

static void md_table(FILE *f, const struct table *t)
{
    fputs("**", f);
    mmb_report_md_text(f, t->title);
    fputs("**\n\n|", f);
    for (size_t c = 0; c < t->ncols; c++) {
        fputc(' ', f);
        mmb_report_md_text(f, t->head[c]);
        fputs(" |", f);
    }
    fputs("\n|", f);
    for (size_t c = 0; c < t->ncols; c++)
        fputs(t->num[c] ? " ---: |" : " --- |", f);
    fputc('\n', f);
    for (size_t r = 0; r < t->nrows; r++) {
        fputc('|', f);
        for (size_t c = 0; c < t->ncols; c++) {
            const struct cell *cl = &t->rows[r][c];
            fputc(' ', f);
            if (!cl->text[0]) {
                fputs("–", f);
            } else {
                if (cl->bold)
                    fputs("**", f);
                if (t->code[c]) {
                    fputc('`', f);
                    for (const char *s = cl->text; *s; s++)
                        fputs(*s == '|' ? "\\|" : (char[2]){*s, 0}, f);
                    fputc('`', f);
                } else {
                    mmb_report_md_text(f, cl->text);
                }
                if (cl->bold)
                    fputs("**", f);
                if (cl->mark)
                    fputs(" †", f);
            }
            fputs(" |", f);
        }
        fputc('\n', f);
    }
    if (t->foot[0])
        fprintf(f, "\n† %s\n", t->foot);
    fputc('\n', f);
}

/* ---- LaTeX ---------------------------------------------------------------------------------- */

static void tex_table(FILE *f, const struct table *t)
{
    fputs("\\begin{table}[htbp]\n\\centering\n\\small\n\\caption{", f);
    mmb_report_tex_text(f, t->title);
    fprintf(f, "}\n\\label{%s}\n\\begin{tabular}{", t->label);
    for (size_t c = 0; c < t->ncols; c++)
        fputc(t->num[c] ? 'r' : 'l', f);
    fputs("}\n\\toprule\n", f);
    for (size_t c = 0; c < t->ncols; c++) {
        fputs(c ? " & " : "", f);
        if (c == 0 && strstr(t->head[0], " \\ ")) {
            /* the corner of a grid: "rows \ columns" */
            const char *sep = strstr(t->head[0], " \\ ");
            char rows[96];
            snprintf(rows, sizeof rows, "%.*s", (int)(sep - t->head[0]), t->head[0]);
            mmb_report_tex_text(f, rows);
            fputs(" $\\backslash$ ", f);
            mmb_report_tex_text(f, sep + 3);
        } else {
            mmb_report_tex_text(f, t->head[c]);
        }
    }
    fputs(" \\\\\n\\midrule\n", f);
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t c = 0; c < t->ncols; c++) {
            const struct cell *cl = &t->rows[r][c];
            fputs(c ? " & " : "", f);
            if (!cl->text[0]) {
                fputs("--", f);
                continue;
            }
            fputs(cl->bold ? "\\textbf{" : "", f);
            fputs(t->code[c] ? "\\texttt{" : "", f);
            mmb_report_tex_text(f, cl->text);
            fputs(t->code[c] ? "}" : "", f);
            fputs(cl->bold ? "}" : "", f);
            fputs(cl->mark ? "$^\\dagger$" : "", f);
        }
        fputs(" \\\\\n", f);
    }
    fputs("\\bottomrule\n\\end{tabular}\n", f);
    if (t->foot[0]) {
        fputs("\\par\\smallskip\\footnotesize $^\\dagger$ ", f);
        mmb_report_tex_text(f, t->foot);
        fputc('\n', f);
    }
    fputs("\\end{table}\n\n", f);
}

/* ---- the tables of every GPU, written to both documents ---------------------------------- */

int mmb_report_tables_write(const struct mmb_report *rep, size_t g, FILE *md, FILE *tex)
{
    const struct mmb_report_data *d = &rep->data;
    struct table t;
    int rc = 0;
    if (d->ref >= 0) {
        memset(&t, 0, sizeof t);
        rc = table_kernels(rep, g, &t);
        if (rc == 0 && t.nrows) {
            md_table(md, &t);
            tex_table(tex, &t);
        }
        table_free(&t);
    }
    memset(&t, 0, sizeof t);
    if (rc == 0)
        rc = table_sizes(rep, g, &t);
    if (rc == 0 && t.nrows) {
        md_table(md, &t);
        tex_table(tex, &t);
    }
    table_free(&t);
    struct mmb_report_grid *grid = malloc(sizeof *grid);
    if (!grid)
        return -1;
    for (size_t k = 0; k < d->nkernels && rc == 0 && d->ref >= 0; k++) {
        if (!mmb_report_grid_build(d, g, k, (size_t)d->ref, grid))
            continue;
        memset(&t, 0, sizeof t);
        rc = table_grid(rep, g, k, grid, &t);
        if (rc == 0) {
            md_table(md, &t);
            tex_table(tex, &t);
        }
        table_free(&t);
    }
    free(grid);
    return rc;
}

