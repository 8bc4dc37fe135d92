/* tune_doc.c - the report's Tuning section (reports/tuning.md and tables.tex): per GPU
 * and tuned kernel the best configuration against cuBLAS and how many
 * configurations were measured, restricted or failed; the ten fastest with what the
 * compiler and the SM made of each; where the Kernel Tuner T4
 * files and the tuning wall times are; how the best compares with the published
 * GTX TITAN X times; the spread figures; and small spaces (the naive kernel's
 * block sizes) as one table with the published times beside the measured. */
#include "report/doc/tune_doc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "core/file.h"
#include "report/doc/md.h"
#include "report/doc/tabular.h"
#include "report/input/labels.h"
#include "report/input/row.h"
#include "report/input/tune_groups.h"
#include "results/t4/t4.h"

#define TABLE_MAX_CONFIGS 32

static void shape_text(const struct mmb_report_tune_group *g, char *out, size_t len)
{
    struct mmb_report_shape s = {g->m, g->n, g->k};
    mmb_report_shape_label(&s, out, len);
}

static const struct mmb_report_row *best_of(const struct mmb_report_data *d, const struct mmb_report_tune_group *g)
{
    return g->best ? &d->rows[g->best - 1] : NULL;
}

static size_t rows_of(const struct mmb_report_tune_group *g)
{
    size_t n = 0;
    for (size_t s = 0; s < MMB_STATUS_COUNT; s++)
        n += g->by_status[s];
    return n;
}

/* "36 ok, 244 restricted, 4 invalid_config, 4 compile_error (288)": ok first, then
 * the restricted (expected), then what failed, then all. */
static void status_counts(const struct mmb_report_tune_group *g, char *out, size_t len)
{
    size_t o = 0;
    int w = snprintf(out, len, "%zu ok", g->by_status[MMB_STATUS_OK]);
    o += w > 0 ? (size_t)w : 0;
    if (g->by_status[MMB_STATUS_RESTRICTED] && o < len) {
        w = snprintf(out + o, len - o, ", %zu restricted", g->by_status[MMB_STATUS_RESTRICTED]);
        o += w > 0 ? (size_t)w : 0;
    }
    for (size_t s = 1; s < MMB_STATUS_COUNT && o < len; s++)
        if (s != MMB_STATUS_RESTRICTED && g->by_status[s]) {
            w = snprintf(out + o, len - o, ", %zu %s", g->by_status[s], mmb_status_text((enum mmb_status)s));
            o += w > 0 ? (size_t)w : 0;
        }
    if (o < len)
        snprintf(out + o, len - o, " (%zu)", rows_of(g));
}

/* ---- the table of best configurations ------------------------------------------------------- */

static const struct {
    const char *head, *tex;
    bool num;
} best_heads[] = {
    {"GPU", NULL, false},        {"kernel", "Kernel", false},
    {"size", "Size", false},     {"best configuration", "Best configuration", false},
    {"median ms", "ms", true},   {"TFLOP/s", NULL, true},
    {"% of cuBLAS", "% cuBLAS", true}, {"configurations of the space", "ok / restr. / failed", false},
};

static void best_table(FILE *md, FILE *tex, const struct mmb_report *rep, const struct mmb_report_tune_group *gs,
                       size_t n)
{
    const struct mmb_report_data *d = &rep->data;
    struct mmb_report_table t = {.md_title = MMB_REPORT_TITLE_NONE, .md_missing = "-"};
    snprintf(t.title, sizeof t.title, "Tuning: the best configuration per GPU, kernel and size; its space's "
                                      "configurations ok, restricted, failed");
    snprintf(t.label, sizeof t.label, "tab:tuning-best");
    snprintf(t.tex_comment, sizeof t.tex_comment, "Tuning: best configuration per GPU and kernel");
    snprintf(t.tex_spec, sizeof t.tex_spec, "llllrrrr");
    for (size_t c = 0; c < MMB_COUNT(best_heads); c++) {
        mmb_report_tabular_head(&t, c, best_heads[c].head, best_heads[c].num, c == 3);
        snprintf(t.tex_head[c], sizeof t.tex_head[c], "%s", best_heads[c].tex ? best_heads[c].tex : "");
    }
    t.verbatim[7] = true; /* status names as they are */
    const char *params[MMB_REPORT_TUNE_GROUPS_MAX];
    size_t np = 0;
    for (size_t j = 0; j < n; j++) {
        const struct mmb_report_tune_group *g = &gs[j];
        const struct mmb_report_row *b = best_of(d, g);
        struct mmb_report_cell *row = mmb_report_tabular_row(&t);
        if (!row)
            break;
        mmb_report_state_gpu_label(rep, g->gpu, row[0].text, sizeof row[0].text);
        snprintf(row[1].text, sizeof row[1].text, "%s", d->kernels[g->kernel]);
        shape_text(g, row[2].text, sizeof row[2].text);
        mmb_report_label_params(b ? b->r.params : "", row[3].text, sizeof row[3].text);
        if (b) {
            mmb_report_md_ms(b->r.time_ms_median, row[4].text, sizeof row[4].text);
            snprintf(row[5].text, sizeof row[5].text, "%.2f", mmb_report_row_gflops(b) / 1000);
            if (g->cublas)
                snprintf(row[6].text, sizeof row[6].text, "%.1f",
                         100.0 * d->rows[g->cublas - 1].r.time_ms_median / b->r.time_ms_median);
            params[np++] = b->r.params;
        }
        status_counts(g, row[7].text, sizeof row[7].text);
        size_t ok = g->by_status[MMB_STATUS_OK], restricted = g->by_status[MMB_STATUS_RESTRICTED];
        snprintf(row[7].tex, sizeof row[7].tex, "%zu / %zu / %zu", ok, restricted, rows_of(g) - ok - restricted);
    }
    char legend[512] = "";
    for (size_t i = 0; i < np; i++) {
        char one[256];
        mmb_report_label_params_legend(params[i], one, sizeof one);
        if (one[0] && !strstr(legend, one))
            snprintf(legend + strlen(legend), sizeof legend - strlen(legend), "%s%s", legend[0] ? ", " : "", one);
    }
    if (legend[0])
        mmb_report_tabular_note(&t, "Parameters: %s.", legend);
    mmb_report_tabular_emit(md, tex, &t);
}

/* ---- where the results are, and what tuning cost -------------------------------------------- */

/* The T4 file `mmbench tune` writes beside its CSV, for each tuned group that has one. */
static void t4_links(FILE *md, const struct mmb_report *rep, const struct mmb_report_tune_group *gs, size_t n)
{
    const struct mmb_report_data *d = &rep->data;
    bool any = false;
    for (size_t j = 0; j < n; j++) {
        const struct mmb_report_tune_group *g = &gs[j];
        const struct mmb_report_row *b = best_of(d, g);
        if (!g->tuned || !b)
            continue;
        char rel[1024], *text;
        if (mmb_t4_path(d->files[b->file].shown, &b->r, rel, sizeof rel) != 0 ||
            !(text = mmb_report_md_source_read(rep, rel)))
            continue;
        free(text);
        if (!any)
            fputs("Kernel Tuner can load every result, restricted and failed configurations included, from the T4 "
                  "files that `mmbench tune` writes beside its CSV:",
                  md);
        fputs(any ? ", " : " ", md);
        mmb_report_md_source(md, rep, rel, NULL);
        any = true;
    }
    fputs(any ? ".\n\n" : "", md);
}

struct tune_timing {
    double wall, measure, wait, nvrtc;
    long compiled, hits, measured;
};

/* "  timing kernel=tunable size=... wall_s=21.194 measure_s=... compiled=40 cache_hits=0 measured=44" */
static bool timing_parse(const char *line, const char *kernel, struct tune_timing *t)
{
    char want[96];
    snprintf(want, sizeof want, "timing kernel=%s ", kernel);
    const char *p = strstr(line, want);
    if (!p || strchr(line, '\n') < p)
        return false;
    static const char *const keys[] = { "wall_s=",   "measure_s=",  "wait_s=",  "nvrtc_s=",
                                        "compiled=", "cache_hits=", "measured=" };
    double v[7];
    for (size_t i = 0; i < 7; i++) {
        const char *k = strstr(p, keys[i]);
        if (!k || (strchr(p, '\n') && k > strchr(p, '\n')))
            return false;
        v[i] = strtod(k + strlen(keys[i]), NULL);
    }
    *t = (struct tune_timing){v[0], v[1], v[2], v[3], (long)v[4], (long)v[5], (long)v[6]};
    return true;
}

/* scripts/bench-tune.sh's output for each GPU (data/<gpu>/bench/bench-tune.txt): the
 * search of the largest tuned space with an empty cubin cache, then a warm one. */
static void wall_times(FILE *md, const struct mmb_report *rep, const struct mmb_report_tune_group *gs, size_t n)
{
    const struct mmb_report_data *d = &rep->data;
    bool head = false;
    for (size_t j = 0; j < n; j++) {
        const struct mmb_report_tune_group *g = &gs[j];
        bool first = g->tuned;
        for (size_t i = 0; i < j && first; i++)
            first = !(gs[i].tuned && gs[i].gpu == g->gpu);
        if (!first)
            continue;
        /* the largest space this GPU tuned */
        const struct mmb_report_tune_group *big = g;
        for (size_t i = j; i < n; i++)
            if (gs[i].tuned && gs[i].gpu == g->gpu && rows_of(&gs[i]) > rows_of(big))
                big = &gs[i];
        char rel[256];
        snprintf(rel, sizeof rel, "data/%s/bench/bench-tune.txt", d->gpus[g->gpu].slug);
        char *text = mmb_report_md_source_read(rep, rel);
        struct tune_timing cold = {0}, warm = {0}, t;
        bool have_cold = false, have_warm = false;
        for (const char *p = text; p && *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n')) {
            if (!timing_parse(p, d->kernels[big->kernel], &t))
                continue;
            if (t.compiled > 0 && !have_cold)
                cold = t, have_cold = true;
            else if (t.compiled == 0 && t.hits > 0 && !have_warm)
                warm = t, have_warm = true;
        }
        free(text);
        if (!have_cold)
            continue;
        if (!head)
            fputs("Time to tune, `scripts/bench-tune.sh` on the GPU (the search alone; NVRTC compiles on worker "
                  "threads ahead of the GPU):\n\n",
                  md);
        head = true;
        fputs("- ", md);
        mmb_report_md_text(md, d->gpus[g->gpu].name);
        fputs(", ", md);
        mmb_report_md_text(md, d->kernels[big->kernel]);
        fprintf(md, " (%ld configurations run): %.1f s with an empty cubin cache (measuring %.1f s, the GPU waiting "
                    "%.1f s for the compiler, NVRTC %.1f s summed over its threads)",
                cold.measured, cold.wall, cold.measure, cold.wait, cold.nvrtc);
        if (have_warm)
            fprintf(md, ", %.1f s with a warm one (%ld cubins from the cache, no compiling)", warm.wall, warm.hits);
        fputs("; ", md);
        mmb_report_md_source(md, rep, rel, NULL);
        fputs(".\n", md);
    }
    if (head)
        fputs("\n", md);
}

/* ---- against the published best ------------------------------------------------------------- */

static double peak_of(const struct mmb_report_data *d, const struct mmb_report_row *r)
{
    return isfinite(r->r.peak_gflops) && r->r.peak_gflops > 0 ? r->r.peak_gflops : d->gpus[r->gpu].peak_gflops;
}

static void peak_share(FILE *md, const struct mmb_report_data *d, const struct mmb_report_row *r)
{
    double peak = peak_of(d, r);
    if (isfinite(peak) && peak > 0)
        fprintf(md, ", %.1f%% of its FP32 peak of %.1f TFLOP/s", 100.0 * mmb_report_row_gflops(r) / peak, peak / 1000);
}

/* Same size and element type, whatever the kernel. */
static bool same_size(const struct mmb_report_tune_group *a, const struct mmb_report_tune_group *b)
{
    return a->m == b->m && a->n == b->n && a->k == b->k && !strcmp(a->dtype, b->dtype);
}

/* The fastest published row at g0's size, whatever its kernel; NULL when none. */
static const struct mmb_report_row *published_best(const struct mmb_report_data *d,
                                                   const struct mmb_report_tune_group *g0)
{
    const struct mmb_report_row *pub = NULL;
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_report_row *r = &d->rows[i];
        if (r->published && r->r.status == MMB_STATUS_OK && r->r.m == g0->m && r->r.n == g0->n && r->r.k == g0->k &&
            !strcmp(r->r.dtype, g0->dtype) && isfinite(r->r.time_ms_median) &&
            (!pub || r->r.time_ms_median < pub->r.time_ms_median))
            pub = r;
    }
    return pub;
}

/* Per measured GPU, its fastest tuned configuration at g0's size against pub. */
static void measured_against(FILE *md, const struct mmb_report_data *d, const struct mmb_report_tune_group *gs,
                             size_t n, const struct mmb_report_tune_group *g0, const struct mmb_report_row *pub)
{
    const struct mmb_report_row *prev = NULL;
    for (size_t gi = 0; gi < d->ngpus; gi++) {
        const struct mmb_report_row *b = NULL;
        for (size_t i = 0; i < n; i++) {
            const struct mmb_report_row *r = best_of(d, &gs[i]);
            if (gs[i].tuned && gs[i].gpu == gi && same_size(&gs[i], g0) && r &&
                (!b || r->r.time_ms_median < b->r.time_ms_median))
                b = r;
        }
        if (!b)
            continue;
        fputs(" On the ", md);
        mmb_report_md_text(md, d->gpus[gi].name);
        if (prev && !strcmp(prev->r.kernel, b->r.kernel) && !strcmp(prev->r.params, b->r.params))
            fputs(" the same configuration", md);
        else
            fprintf(md, " the best tuned configuration, %s `%s`,", b->r.kernel, b->r.params);
        /* published medians carry no spread: a ratio of medians, not compare's "faster" */
        fprintf(md, " takes %.3f ms, the published median over it %.1fx, %.0f GFLOP/s", b->r.time_ms_median,
                pub->r.time_ms_median / b->r.time_ms_median, mmb_report_row_gflops(b));
        prev = b;
        peak_share(md, d, b);
        double pp = peak_of(d, pub), bp = peak_of(d, b);
        if (isfinite(pp) && isfinite(bp) && pp > 0)
            fprintf(md, "; the FP32 peaks differ %.1fx, so %.1fx of the speed-up is the kernel using more of its GPU",
                    bp / pp, pub->r.time_ms_median / b->r.time_ms_median / (bp / pp));
        fputs(".", md);
    }
}

/* Kernel for kernel, where the same space was published: its published best
 * against each GPU's tuned best. */
static void kernel_for_kernel(FILE *md, const struct mmb_report_data *d, const struct mmb_report_tune_group *gs,
                              size_t n, const struct mmb_report_tune_group *g0)
{
    for (size_t i = 0; i < n; i++) {
        const struct mmb_report_tune_group *p = &gs[i];
        const struct mmb_report_row *pb = best_of(d, p);
        if (p->tuned || !pb || !same_size(p, g0))
            continue;
        fprintf(md, " Kernel for kernel, %s's published best (`%s`) is %.1f ms against", pb->r.kernel, pb->r.params,
                pb->r.time_ms_median);
        const char *sep = " ";
        for (size_t t = 0; t < n; t++) {
            const struct mmb_report_row *tb = best_of(d, &gs[t]);
            if (!gs[t].tuned || !tb || !mmb_report_tune_group_same_problem(&gs[t], p))
                continue;
            fprintf(md, "%s%.2f ms (`%s`, %.1fx) on the ", sep, tb->r.time_ms_median, tb->r.params,
                    pb->r.time_ms_median / tb->r.time_ms_median);
            mmb_report_md_text(md, d->gpus[tb->gpu].name);
            sep = " and ";
        }
        fputs(".", md);
    }
}

/* Per tuned size: the fastest published time beside what each GPU's tuning found. */
static void published_compare(FILE *md, const struct mmb_report *rep, const struct mmb_report_tune_group *gs, size_t n)
{
    const struct mmb_report_data *d = &rep->data;
    for (size_t j = 0; j < n; j++) {
        const struct mmb_report_tune_group *g0 = &gs[j];
        bool first = g0->tuned;
        for (size_t i = 0; i < j && first; i++)
            first = !(gs[i].tuned && same_size(&gs[i], g0));
        const struct mmb_report_row *pub = first ? published_best(d, g0) : NULL;
        if (!pub)
            continue;
        char shape[96];
        shape_text(g0, shape, sizeof shape);
        fputs("**Against the seed's published best.** The fastest time published for the ", md);
        mmb_report_md_text(md, d->gpus[pub->gpu].name);
        fprintf(md, " at %s is %s `%s`: %.1f ms, %.0f GFLOP/s", shape, pub->r.kernel, pub->r.params,
                pub->r.time_ms_median, mmb_report_row_gflops(pub));
        peak_share(md, d, pub);
        fputs(" (", md);
        mmb_report_md_source(md, rep, d->files[pub->file].shown, NULL);
        fputs(").", md);
        measured_against(md, d, gs, n, g0, pub);
        kernel_for_kernel(md, d, gs, n, g0);
        fputs("\n\n", md);
    }
}

/* ---- heatmaps and small spaces -------------------------------------------------------------- */

static const struct mmb_report_figure *figure_find(const struct mmb_report *rep, const char *name)
{
    for (size_t i = 0; i < rep->nfigs; i++)
        if (strcmp(rep->figs[i].name, name) == 0)
            return &rep->figs[i];
    return NULL;
}

/* A link to a figure's picture, or to its script when it was not drawn. */
static void figure_link(FILE *md, const struct mmb_report *rep, const struct mmb_report_figure *fig, const char *text)
{
    /* the PNG when it was drawn, else the first format */
    enum mmb_report_format fmt = rep->nformats ? rep->formats[0] : MMB_REPORT_PNG;
    for (size_t f = 0; f < rep->nformats; f++)
        if (rep->formats[f] == MMB_REPORT_PNG)
            fmt = MMB_REPORT_PNG;
    fputc('[', md);
    mmb_report_md_text(md, text);
    if (fig->drawn)
        fprintf(md, "](figures/%s.%s)", fig->name, mmb_report_format_info(fmt)->name);
    else
        fprintf(md, "](gnuplot/%s.gp)", fig->name);
}

static void heatmap_links(FILE *md, const struct mmb_report *rep, const struct mmb_report_tune_group *gs, size_t n,
                          const struct mmb_report_tune_group *g0)
{
    const struct mmb_report_data *d = &rep->data;
    size_t links = 0;
    for (size_t j = 0; j < n; j++) {
        if (!mmb_report_tune_group_same_problem(&gs[j], g0))
            continue;
        bool seen = false; /* one heatmap per GPU and kernel */
        for (size_t i = 0; i < j && !seen; i++)
            seen = mmb_report_tune_group_same_problem(&gs[i], g0) && gs[i].gpu == gs[j].gpu;
        char name[160], kslug[MMB_REPORT_NAME_MAX], gpu[128];
        mmb_gpu_slug(d->kernels[g0->kernel], kslug, sizeof kslug);
        snprintf(name, sizeof name, "heatmap-%s-%s", d->gpus[gs[j].gpu].slug, kslug);
        const struct mmb_report_figure *fig = seen ? NULL : figure_find(rep, name);
        if (!fig)
            continue;
        if (links++ == 0) {
            fputs("Heatmaps of ", md);
            mmb_report_md_text(md, d->kernels[g0->kernel]);
            fputs(" (median time over two parameters, the others held at the best configuration's values, the "
                  "fastest boxed; drawn under each GPU's figures):",
                  md);
        }
        fputs(links > 1 ? " · " : " ", md);
        mmb_report_state_gpu_label(rep, gs[j].gpu, gpu, sizeof gpu);
        figure_link(md, rep, fig, gpu);
    }
    fputs(links ? ".\n\n" : "", md);
}

/* The configurations of g0's space, in the order the first tuned GPU's CSV has
 * them; 0 when there are more than TABLE_MAX_CONFIGS (the spread figure shows a
 * large space instead). */
static size_t config_params(const struct mmb_report_data *d, const struct mmb_report_tune_group *g0,
                            const char **params)
{
    size_t np = 0;
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_report_row *r = &d->rows[i];
        if (!mmb_report_tune_group_member(d, g0, r) || r->r.status == MMB_STATUS_RESTRICTED)
            continue;
        bool seen = false;
        for (size_t p = 0; p < np && !seen; p++)
            seen = !strcmp(params[p], r->r.params);
        if (seen)
            continue;
        if (np == TABLE_MAX_CONFIGS)
            return 0;
        params[np++] = r->r.params;
    }
    return np;
}

/* One configuration: its time, or its status, in each group's column. */
static void config_row(struct mmb_report_cell *row, const struct mmb_report_data *d,
                       const struct mmb_report_tune_group *gs, const size_t *cols, size_t nc, const char *params)
{
    mmb_report_label_params(params, row[0].text, sizeof row[0].text);
    for (size_t c = 0; c < nc; c++) {
        const struct mmb_report_tune_group *g = &gs[cols[c]];
        const struct mmb_report_row *hit = NULL;
        for (size_t i = 0; i < d->nrows && !hit; i++)
            if (mmb_report_tune_group_member(d, g, &d->rows[i]) && !strcmp(d->rows[i].r.params, params))
                hit = &d->rows[i];
        struct mmb_report_cell *cell = &row[c + 1];
        if (hit && hit->r.status == MMB_STATUS_OK)
            mmb_report_md_ms(hit->r.time_ms_median, cell->text, sizeof cell->text);
        else if (hit)
            snprintf(cell->text, sizeof cell->text, "%s", mmb_status_text(hit->r.status));
        cell->bold = hit && hit == best_of(d, g);
    }
}

/* A small space as one table: the time of every configuration on every GPU and
 * the published times, side by side (the published GTX TITAN X block-size table
 * measured again). */
static void config_table(FILE *md, FILE *tex, const struct mmb_report *rep, const struct mmb_report_tune_group *gs,
                         size_t n, const struct mmb_report_tune_group *g0)
{
    const struct mmb_report_data *d = &rep->data;
    size_t cols[MMB_REPORT_TUNE_GROUPS_MAX], nc = 0;
    for (size_t j = 0; j < n && nc + 1 < MMB_REPORT_TCOLS; j++)
        if (mmb_report_tune_group_same_problem(&gs[j], g0))
            cols[nc++] = j;
    const char *params[TABLE_MAX_CONFIGS];
    size_t np = config_params(d, g0, params);
    if (np < 2 || nc < 2)
        return;
    struct mmb_report_table t = {.md_title = MMB_REPORT_TITLE_HEADING, .md_missing = "-", .tex_loose = true};
    char shape[96], kslug[MMB_REPORT_NAME_MAX];
    shape_text(g0, shape, sizeof shape);
    mmb_gpu_slug(d->kernels[g0->kernel], kslug, sizeof kslug);
    snprintf(t.title, sizeof t.title, "%s at %s: median time (ms) of every configuration", d->kernels[g0->kernel],
             shape);
    bool published = false; /* a column of the seed's own times */
    for (size_t c = 0; c < nc; c++)
        published = published || d->gpus[gs[cols[c]].gpu].all_published;
    snprintf(t.intro, sizeof t.intro, "%s",
             published ? "Seed 000's block-size table, measured on each GPU beside the times the seed publishes; the "
                         "fastest of each column is in bold."
                       : "Every configuration's median time on each GPU; the fastest of each column is in bold.");
    snprintf(t.caption, sizeof t.caption, "%.600s on each GPU", t.title);
    snprintf(t.label, sizeof t.label, "tab:%.60s-%.60s-configurations", kslug, shape);
    mmb_report_tabular_head(&t, 0, "parameters", false, true);
    snprintf(t.tex_head[0], sizeof t.tex_head[0], "Configuration");
    for (size_t c = 0; c < nc; c++) {
        char gpu[128];
        mmb_report_state_gpu_label(rep, gs[cols[c]].gpu, gpu, sizeof gpu);
        mmb_report_tabular_head(&t, c + 1, gpu, true, false);
        t.verbatim[c + 1] = true; /* times and status names as they are */
    }
    for (size_t p = 0; p < np; p++) {
        struct mmb_report_cell *row = mmb_report_tabular_row(&t);
        if (!row)
            break;
        config_row(row, d, gs, cols, nc, params[p]);
    }
    char legend[256];
    mmb_report_label_params_legend(params[0], legend, sizeof legend);
    if (legend[0])
        mmb_report_tabular_note(&t, "Parameters: %s.", legend);
    mmb_report_tabular_emit(md, tex, &t);
}

/* A page break after every eighth table of the section. */
static void tex_page_every(FILE *tex, size_t *floats)
{
    if (++*floats % 8 == 0)
        fputs("\\clearpage\n", tex);
}

/* ---- the ten fastest configurations ---------------------------------------------------------- */

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
/* The ten fastest ok configurations of g (none when fewer than five ran), with time, x
 * the best, TFLOP/s, registers, shared memory and occupancy (theoretical where every row
 * has it, else achieved), in both documents. */
static void top_table(FILE *md, FILE *tex, const struct mmb_report *rep, const struct mmb_report_tune_group *g)
{
    const struct mmb_report_data *d = &rep->data;
    size_t *idx = malloc((d->nrows ? d->nrows : 1) * sizeof *idx), n = 0;
    for (size_t i = 0; idx && i < d->nrows; i++)
        if (mmb_report_tune_group_member(d, g, &d->rows[i]) && d->rows[i].r.status == MMB_STATUS_OK)
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

/* The tuning profiles whose objective includes energy: their rows are the Energy
 * efficiency section's (its least-energy table and Pareto figures), not this one's. */
static void energy_searches(FILE *md, const struct mmb_report_data *d)
{
    size_t n = 0;
    for (size_t p = 0; p < d->nprofiles; p++) {
        if (!d->profiles[p].energy_objective || !d->profiles[p].ok)
            continue;
        fputs(n++ ? ", `" : " Searches whose objective includes energy are in the README's [Energy "
                            "efficiency](README.md#energy-efficiency) section, each a time/energy front: `", md);
        mmb_report_md_text(md, d->profiles[p].name);
        fputs("`", md);
    }
    fputs(n ? "." : "", md);
}

/* ---- the section ---------------------------------------------------------------------------- */

int mmb_report_tune_doc_section(const struct mmb_report *rep, FILE *md, FILE *tex)
{
    if (!mmb_report_tune_groups_any(rep))
        return 0;
    struct mmb_report_tune_group *gs = calloc(MMB_REPORT_TUNE_GROUPS_MAX, sizeof *gs);
    if (!gs)
        return -1;
    size_t n = mmb_report_tune_groups(&rep->data, gs);
    fputs("## Tuning\n\nWhat `mmbench tune` found, one row per GPU, kernel and size (profiles named `tune*`; the "
          "seed's published times beside them). Configurations of the space are counted by status: *ok* ran and "
          "was verified; *restricted* ones are those the profile's restrictions exclude (Kernel Tuner's restricted "
          "configurations), recorded on purpose and never compiled or run; the others failed for the reason their "
          "status names.",
          md);
    energy_searches(md, &rep->data);
    fputs("\n\n", md);
    /* LaTeX holds at most 18 floats it has not placed; a page break every few tables
     * lets a tune of many kernels and sizes through */
    size_t floats = 0;
    fputs("\\clearpage\n", tex);
    best_table(md, tex, rep, gs, n);
    for (size_t j = 0; j < n; j++)
        if (gs[j].tuned) {
            top_table(md, tex, rep, &gs[j]);
            tex_page_every(tex, &floats);
        }
    t4_links(md, rep, gs, n);
    wall_times(md, rep, gs, n);
    published_compare(md, rep, gs, n);
    for (size_t i = 0; i < rep->nfigs; i++)
        if (rep->figs[i].group == MMB_REPORT_GROUP_TUNING && rep->figs[i].gpu == -1)
            mmb_report_md_figure(md, rep, &rep->figs[i]);
    /* per tuned kernel and size: every configuration's time when the space is small, then its heatmaps */
    for (size_t j = 0; j < n; j++) {
        bool first = gs[j].tuned;
        for (size_t i = 0; i < j && first; i++)
            first = !(gs[i].tuned && mmb_report_tune_group_same_problem(&gs[i], &gs[j]));
        if (!first)
            continue;
        config_table(md, tex, rep, gs, n, &gs[j]);
        tex_page_every(tex, &floats);
        heatmap_links(md, rep, gs, n, &gs[j]);
    }
    free(gs);
    return 0;
}
