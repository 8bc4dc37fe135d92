/* report_doc.c - writes reports/README.md and reports/tables.tex. Each table is
 * built once into a neutral model and rendered twice, so the Markdown and the
 * LaTeX always carry the same numbers. */
#include "report_doc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util.h"

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
    for (size_t c = 0; c < sizeof heads / sizeof heads[0]; c++)
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
        snprintf(t->foot, sizeof t->foot, "published figure, not measured by mmbench (see Data)");
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
                snprintf(t->foot, sizeof t->foot, "published figure, not measured by mmbench (see Data)");
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
        snprintf(t->foot, sizeof t->foot, "published figures, not measured by mmbench (see Data)");
    return 0;
}

/* ---- Markdown ---------------------------------------------------------------------------- */

static void md_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '|' || *s == '*' || *s == '_' || *s == '\\' || *s == '<' || *s == '`' || *s == '[' || *s == ']')
            fputc('\\', f);
        fputc(*s, f);
    }
}

static void md_table(FILE *f, const struct table *t)
{
    fputs("**", f);
    md_text(f, t->title);
    fputs("**\n\n|", f);
    for (size_t c = 0; c < t->ncols; c++) {
        fputc(' ', f);
        md_text(f, t->head[c]);
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
                    md_text(f, cl->text);
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

static void tex_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '\\': fputs("\\textbackslash{}", f); break;
        case '~': fputs("\\textasciitilde{}", f); break;
        case '^': fputs("\\textasciicircum{}", f); break;
        case '&': case '%': case '$': case '#': case '_': case '{': case '}':
            fputc('\\', f);
            fputc(*s, f);
            break;
        default: fputc(*s, f);
        }
    }
}

static void tex_table(FILE *f, const struct table *t)
{
    fputs("\\begin{table}[htbp]\n\\centering\n\\small\n\\caption{", f);
    tex_text(f, t->title);
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
            tex_text(f, rows);
            fputs(" $\\backslash$ ", f);
            tex_text(f, sep + 3);
        } else {
            tex_text(f, t->head[c]);
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
            tex_text(f, cl->text);
            fputs(t->code[c] ? "}" : "", f);
            fputs(cl->bold ? "}" : "", f);
            fputs(cl->mark ? "$^\\dagger$" : "", f);
        }
        fputs(" \\\\\n", f);
    }
    fputs("\\bottomrule\n\\end{tabular}\n", f);
    if (t->foot[0]) {
        fputs("\\par\\smallskip\\footnotesize $^\\dagger$ ", f);
        tex_text(f, t->foot);
        fputc('\n', f);
    }
    fputs("\\end{table}\n\n", f);
}

/* ---- the tables of every GPU, written to both documents ---------------------------------- */

static int tables_emit(const struct mmb_report *rep, size_t g, FILE *md, FILE *tex)
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

/* ---- README sections ----------------------------------------------------------------------- */

static bool dat_exists(const struct mmb_report *rep, const char *name)
{
    char file[256], path[4400];
    snprintf(file, sizeof file, "%s.dat", name);
    FILE *f = mmb_report_path(rep, path, sizeof path, "gnuplot", file, NULL, 0) == 0 ? fopen(path, "r") : NULL;
    if (f)
        fclose(f);
    return f != NULL;
}

static void md_figure(FILE *f, const struct mmb_report *rep, const struct mmb_report_figure *fig)
{
    fputs("#### ", f);
    md_text(f, fig->title);
    fputs("\n\n", f);
    md_text(f, fig->caption);
    fputs("\n\n", f);
    if (!fig->drawn) {
        fprintf(f, "Not drawn (%s); script: [gnuplot/%s.gp](gnuplot/%s.gp).\n\n",
                rep->plot_state[0] ? rep->plot_state : "gnuplot did not produce it", fig->name, fig->name);
        return;
    }
    const char *shown = rep->formats[0];
    for (size_t i = 0; i < rep->nformats; i++)
        if (strcmp(rep->formats[i], "png") == 0 || (strcmp(rep->formats[i], "svg") == 0 && strcmp(shown, "png") != 0))
            shown = rep->formats[i];
    if (strcmp(shown, "pdf") != 0) {
        fputs("![", f);
        md_text(f, fig->title);
        fprintf(f, "](figures/%s.%s)\n\n", fig->name, shown);
    }
    for (size_t i = 0; i < rep->nformats; i++)
        fprintf(f, "%s[%s](figures/%s.%s)", i ? " · " : "", rep->formats[i], fig->name, rep->formats[i]);
    fprintf(f, " · [script](gnuplot/%s.gp)", fig->name);
    /* side-by-side figures draw from the data of each GPU's figure */
    if (dat_exists(rep, fig->name))
        fprintf(f, " · [data](gnuplot/%s.dat)", fig->name);
    fputs("\n\n", f);
}

static void md_figures(FILE *f, struct mmb_report *rep)
{
    const struct mmb_report_data *d = &rep->data;
    fputs("## Figures\n\n", f);
    if (rep->nfigs == 0) {
        fputs("No figure: no ok row in the selection.\n\n", f);
        return;
    }
    if (rep->plot_state[0])
        fprintf(f, "**Figures not drawn:** %s.\n\n", rep->plot_state);
    bool any = false;
    for (size_t i = 0; i < rep->nfigs; i++)
        any = any || rep->figs[i].group == MMB_REPORT_GROUP_GPUS;
    if (any) {
        fputs("### GPU generations side by side\n\n", f);
        for (size_t i = 0; i < rep->nfigs; i++)
            if (rep->figs[i].group == MMB_REPORT_GROUP_GPUS)
                md_figure(f, rep, &rep->figs[i]);
    }
    for (size_t g = 0; g < d->ngpus; g++) {
        bool head = false;
        for (size_t i = 0; i < rep->nfigs; i++) {
            const struct mmb_report_figure *fig = &rep->figs[i];
            if (fig->gpu != (int)g)
                continue;
            if (!head) {
                char gpu[128];
                mmb_report_gpu_label(rep, g, gpu, sizeof gpu);
                fputs("### ", f);
                md_text(f, gpu);
                fputs("\n\n", f);
                head = true;
            }
            md_figure(f, rep, fig);
        }
    }
}

/* A code span: backticks inside would end it early. */
static void md_code(FILE *f, const char *s)
{
    fputc('`', f);
    for (; *s; s++)
        fputc(*s == '`' ? '\'' : *s, f);
    fputc('`', f);
}

/* Failed rows of one GPU, one line per (kernel, params, status, reason) with the
 * sizes it failed at: a configuration that cannot launch fails at every size. */
static void md_failed(FILE *f, const struct mmb_report_data *d, size_t g)
{
    size_t groups = 0, shown = 0;
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_report_row *r = &d->rows[i];
        if (r->gpu != g || r->r.status == MMB_STATUS_OK)
            continue;
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++) {
            const struct mmb_report_row *q = &d->rows[j];
            seen = q->gpu == g && q->r.status == r->r.status && !strcmp(q->r.kernel, r->r.kernel) &&
                   !strcmp(q->r.params, r->r.params) && !strcmp(q->r.reason, r->r.reason);
        }
        if (seen)
            continue;
        if (groups++ >= 8)
            continue;
        fprintf(f, "  - %s ", r->r.kernel);
        md_code(f, r->r.params[0] ? r->r.params : "-");
        fprintf(f, ": %s", mmb_status_text(r->r.status));
        if (r->r.reason[0]) {
            fputs(" (", f);
            md_text(f, r->r.reason);
            fputs(")", f);
        }
        fputs(" at", f);
        size_t sizes = 0;
        for (size_t j = i; j < d->nrows; j++) {
            const struct mmb_report_row *q = &d->rows[j];
            if (q->gpu == g && q->r.status == r->r.status && !strcmp(q->r.kernel, r->r.kernel) &&
                !strcmp(q->r.params, r->r.params) && !strcmp(q->r.reason, r->r.reason) && sizes++ < 6)
                fprintf(f, "%s %lldx%lldx%lld %s", sizes > 1 ? "," : "", q->r.m, q->r.n, q->r.k, q->r.dtype);
        }
        fputs(sizes > 6 ? ", ...\n" : "\n", f);
        shown++;
    }
    if (groups > shown)
        fprintf(f, "  - and %zu more configurations\n", groups - shown);
}

/* Figures left out, one line per GPU, grouped by reason. */
static size_t md_omits(FILE *f, const struct mmb_report *rep, int gpu)
{
    const struct mmb_report_data *d = &rep->data;
    size_t lines = 0;
    bool head = false;
    for (size_t i = 0; i < rep->nomits; i++) {
        const struct mmb_report_omit *o = &rep->omits[i];
        if (o->gpu != gpu)
            continue;
        bool earlier = false;
        for (size_t j = 0; j < i && !earlier; j++)
            earlier = rep->omits[j].gpu == gpu && strcmp(rep->omits[j].why, o->why) == 0;
        if (earlier)
            continue;
        if (!head) {
            fputs("- **Figures left out** (", f);
            md_text(f, gpu >= 0 ? d->gpus[gpu].name : "every GPU");
            fputs("):", f);
            head = true;
        }
        const char *sep = " ";
        for (size_t j = i; j < rep->nomits; j++)
            if (rep->omits[j].gpu == gpu && strcmp(rep->omits[j].why, o->why) == 0) {
                fputs(sep, f);
                md_text(f, rep->omits[j].what);
                sep = ", ";
            }
        fputs(": ", f);
        md_text(f, o->why);
        fputs(";", f);
        lines++;
    }
    if (head)
        fputs(" the other figures are drawn.\n", f);
    return lines;
}

static void md_caveats(FILE *f, struct mmb_report *rep)
{
    const struct mmb_report_data *d = &rep->data;
    fputs("## Caveats\n\n", f);
    size_t n = 0;
    /* DRAM writes that stayed in L2, among the plotted (best) rows */
    for (size_t g = 0; g < d->ngpus; g++) {
        size_t low = 0, plotted = 0;
        char sizes[512] = "";
        for (size_t s = 0; s < d->nshapes; s++) {
            bool here = false;
            for (size_t k = 0; k < d->nkernels; k++) {
                const struct mmb_report_row *r = mmb_report_best(d, g, k, s);
                if (!r || !isfinite(r->r.dram_write_bytes))
                    continue;
                plotted++;
                low += r->l2_low;
                here = here || r->l2_low;
            }
            if (here && strlen(sizes) < sizeof sizes - 100) {
                char label[96];
                mmb_report_shape_label(&d->shapes[s], label, sizeof label);
                snprintf(sizes + strlen(sizes), sizeof sizes - strlen(sizes), "%s%s", sizes[0] ? ", " : "", label);
            }
        }
        if (low) {
            fputs("- **DRAM writes that stay in L2** (", f);
            md_text(f, d->gpus[g].name);
            fprintf(f, "): %zu of the %zu plotted rows with DRAM counters wrote less than half of their output (M x N x element size) to DRAM, at %s. The output fits in L2 and is still there when the kernel ends, so its writes are not counted: DRAM bandwidth, bandwidth %% and intensity undercount those points (circled in the bandwidth figures).\n",
                    low, plotted, sizes);
            n++;
        }
    }
    for (size_t g = 0; g < d->ngpus; g++) {
        const struct mmb_report_gpu *gp = &d->gpus[g];
        size_t bad = gp->rows - gp->by_status[MMB_STATUS_OK];
        if (bad == 0)
            continue;
        fputs("- **Rows not plotted** (", f);
        md_text(f, gp->name);
        fprintf(f, "): %zu of %zu rows have a status other than ok:", bad, gp->rows);
        const char *sep = " ";
        for (size_t s = 1; s < MMB_STATUS_COUNT; s++)
            if (gp->by_status[s]) {
                fprintf(f, "%s%zu %s", sep, gp->by_status[s], mmb_status_text((enum mmb_status)s));
                sep = ", ";
            }
        fputs(".\n", f);
        md_failed(f, d, g);
        n++;
    }
    for (size_t g = 0; g < d->ngpus; g++) {
        const struct mmb_report_gpu *gp = &d->gpus[g];
        if (gp->selected && gp->with_counters < gp->selected) {
            fputs("- **No counters** (", f);
            md_text(f, gp->name);
            fprintf(f, "): %zu of %zu plotted rows have empty counter columns (not profiled, profiling denied, or published).\n",
                    gp->selected - gp->with_counters, gp->selected);
            n++;
        }
        if (gp->published) {
            fputs("- **Published figures** (", f);
            md_text(f, gp->name);
            fprintf(f, "): %zu rows are figures published elsewhere, not measured by mmbench (the source is named in Data); they carry no counters, repeats or spread, and are marked † in tables, \"(published)\" in figures and hatched in bars.\n",
                    gp->published);
            n++;
        }
        n += md_omits(f, rep, (int)g);
    }
    n += md_omits(f, rep, -1);
    if (d->other_dtype || d->other_cache) {
        fprintf(f, "- **Left out by the selection** (%s", d->dtype);
        if (d->cache[0])
            fprintf(f, ", %s L2", d->cache);
        fputs("): ", f);
        if (d->other_dtype)
            fprintf(f, "%zu ok rows of other element types (choose with --dtype)%s", d->other_dtype,
                    d->other_cache ? "; " : "");
        if (d->other_cache)
            fprintf(f, "%zu ok rows of the other cache mode (choose with --cache)", d->other_cache);
        fputs(".\n", f);
        n++;
    }
    for (size_t i = 0; i < rep->nnotes; i++, n++) {
        fputs("- ", f);
        md_text(f, rep->notes[i]);
        fputs(".\n", f);
    }
    if (n == 0)
        fputs("None.\n", f);
    fputc('\n', f);
}

/* Where a file's rows came from: profile, when, which driver. */
static void md_provenance(FILE *f, const struct mmb_report *rep, size_t file)
{
    const struct mmb_report_data *d = &rep->data;
    const struct mmb_row *first = NULL;
    const char *t0 = NULL, *t1 = NULL;
    for (size_t r = 0; r < d->nrows; r++) {
        const struct mmb_row *row = &d->rows[r].r;
        if (d->rows[r].file != file)
            continue;
        if (!first)
            first = row;
        if (row->timestamp[0] && (!t0 || strcmp(row->timestamp, t0) < 0))
            t0 = row->timestamp;
        if (row->timestamp[0] && (!t1 || strcmp(row->timestamp, t1) > 0))
            t1 = row->timestamp;
    }
    if (!first)
        return;
    if (first->profile[0]) {
        char ini[4400];
        struct stat st;
        fputs("; profile ", f);
        md_code(f, first->profile);
        snprintf(ini, sizeof ini, "%s/profiles/%s.ini", rep->root, first->profile);
        if (stat(ini, &st) == 0) {
            char cmd[256];
            snprintf(cmd, sizeof cmd, "mmbench run profiles/%s.ini", first->profile);
            fputs(" (", f);
            md_code(f, cmd);
            fputs(")", f);
        }
    }
    if (t0)
        fprintf(f, strcmp(t0, t1) ? "; measured %s to %s" : "; measured %s", t0, t1);
    if (first->driver[0] || first->cuda[0]) {
        fputs("; driver ", f);
        md_text(f, first->driver[0] ? first->driver : "?");
        fputs(", CUDA ", f);
        md_text(f, first->cuda[0] ? first->cuda : "?");
    }
}

static void md_data(FILE *f, const struct mmb_report *rep)
{
    const struct mmb_report_data *d = &rep->data;
    fputs("## Data\n\n", f);
    for (size_t i = 0; i < d->nfiles; i++) {
        const struct mmb_report_file *file = &d->files[i];
        fputs("- ", f);
        md_code(f, file->shown);
        fputs(" (", f);
        const char *sep = "";
        for (size_t g = 0; g < d->ngpus; g++) {
            bool here = false;
            for (size_t r = 0; r < d->nrows && !here; r++)
                here = d->rows[r].file == i && d->rows[r].gpu == g;
            if (here) {
                fputs(sep, f);
                md_text(f, d->gpus[g].name);
                sep = ", ";
            }
        }
        fprintf(f, "): %zu rows, %zu ok", file->rows, file->by_status[MMB_STATUS_OK]);
        for (size_t s = 1; s < MMB_STATUS_COUNT; s++)
            if (file->by_status[s])
                fprintf(f, ", %zu %s", file->by_status[s], mmb_status_text((enum mmb_status)s));
        md_provenance(f, rep, i);
        if (file->published) {
            const char *reason = "";
            for (size_t r = 0; r < d->nrows; r++)
                if (d->rows[r].file == i && d->rows[r].published) {
                    reason = d->rows[r].r.reason;
                    break;
                }
            fprintf(f, "; %zu published rows: ", file->published);
            md_text(f, reason);
        }
        fputs(".\n", f);
        if (file->note) {
            /* the note that travels with the CSV (x.md beside x.csv), quoted */
            fputs("\n", f);
            for (const char *p = file->note; *p;) {
                size_t len = strcspn(p, "\n");
                fprintf(f, "  > %.*s\n", (int)len, p);
                p += len + (p[len] == '\n');
            }
            fputs("\n", f);
        }
    }
    fputs("\nEach kernel's line, bar, point or table row is its fastest ok configuration (lowest median time) at that size, on that GPU; rows are told apart by the `gpu` column, and cuBLAS is the kernel `cublas`.\n", f);
}

static void md_head(FILE *f, const struct mmb_report *rep)
{
    const struct mmb_report_data *d = &rep->data;
    size_t ok = 0;
    for (size_t i = 0; i < d->nrows; i++)
        ok += d->rows[i].r.status == MMB_STATUS_OK;
    char sel[64];
    mmb_report_selection(rep, -1, sel, sizeof sel);
    fputs("# mmbench report\n\n", f);
    fprintf(f, "%zu GPUs, %zu CSV files, %zu rows (%zu ok, %zu not ok and not plotted). Figures and tables show %s",
            d->ngpus, d->nfiles, d->nrows, ok, d->nrows - ok, sel);
    if (d->ref >= 0) {
        char ref[96];
        mmb_report_shape_label(&d->shapes[d->ref], ref, sizeof ref);
        fprintf(f, "; bars, heatmaps and the first table of each GPU are at %s", ref);
    }
    fputs(".\n\n", f);
    fputs("Regenerate everything (runs the GPU sweep first when this machine has a GPU):\n\n    ninja -C build bench\n\n", f);
    fputs("or only this report, from the source root, with no GPU and no CUDA:\n\n    ", f);
    fprintf(f, "%s\n\n", rep->command);
    fputs("Redraw one figure after editing its script: `cd reports/gnuplot && gnuplot NAME.gp`. ", f);
    fputs("Every figure exists as PNG (screens), SVG and PDF (print); the LaTeX tables are in [tables.tex](tables.tex).\n\n", f);
    fputs("Contents: [Figures](#figures) · [Tables](#tables) · [Caveats](#caveats) · [Data](#data)\n\n", f);
}

int mmb_report_doc_write(struct mmb_report *rep, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    struct mmb_report_out md, tex;
    if (mmb_report_out_open(&md, err, errlen) != 0)
        return -1;
    if (mmb_report_out_open(&tex, err, errlen) != 0) {
        mmb_report_out_discard(&md);
        return -1;
    }
    mmb_report_figures_check(rep);
    md_head(md.f, rep);
    md_figures(md.f, rep);

    fputs("% tables.tex - the tables of reports/README.md for LaTeX slides and notes.\n"
          "% Written by `mmbench report`; needs \\usepackage{booktabs}.\n\n",
          tex.f);
    fputs("## Tables\n\n", md.f);
    int rc = 0;
    for (size_t g = 0; g < d->ngpus && rc == 0; g++) {
        if (!d->gpus[g].selected)
            continue;
        char gpu[128];
        mmb_report_gpu_label(rep, g, gpu, sizeof gpu);
        fputs("### ", md.f);
        md_text(md.f, gpu);
        fputs("\n\n", md.f);
        fputs("% ", tex.f);
        tex_text(tex.f, gpu);
        fputs("\n", tex.f);
        rc = tables_emit(rep, g, md.f, tex.f);
    }
    if (rc != 0) {
        mmb_errorf(err, errlen, "out of memory");
        mmb_report_out_discard(&md);
        mmb_report_out_discard(&tex);
        return -1;
    }
    md_caveats(md.f, rep);
    md_data(md.f, rep);

    char path[4400];
    if (mmb_report_path(rep, path, sizeof path, NULL, "tables.tex", err, errlen) != 0 ||
        mmb_report_out_commit(&tex, path, err, errlen) != 0) {
        mmb_report_out_discard(&md);
        return -1;
    }
    if (mmb_report_path(rep, path, sizeof path, NULL, "README.md", err, errlen) != 0) {
        mmb_report_out_discard(&md);
        return -1;
    }
    return mmb_report_out_commit(&md, path, err, errlen);
}
