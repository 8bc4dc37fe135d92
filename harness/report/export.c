/* export.c - the best configuration of each GPU, kernel, size, dtype and cache mode,
 * as a C header and as JSON (export.h). The header's macros name every part of their
 * group, so that an entry keeps its name when more data is exported beside it. */
#include "report/export.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/file.h"
#include "model/params.h"

/* ---- which rows count ---- */

static bool gpu_matches(const char *name, const char *want)
{
    char slug[MMB_REPORT_NAME_MAX];
    mmb_gpu_slug(name, slug, sizeof slug);
    return !strcmp(name, want) || !strcmp(slug, want);
}

/* Whether name is one of the comma-separated names of list. */
static bool listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        size_t w = strcspn(p, ",");
        if (w == n && !strncmp(p, name, n))
            return true;
        p += w + (p[w] == ',');
    }
    return false;
}

static bool row_selected(const struct mmb_report_row *r, const struct mmb_report_export_options *o)
{
    return (!o->profile || !strcmp(r->r.profile, o->profile)) && (!o->gpu || gpu_matches(r->r.gpu, o->gpu)) &&
           (!o->kernels || listed(o->kernels, r->r.kernel));
}

static bool row_exportable(const struct mmb_report_row *r)
{
    return r->r.status == MMB_STATUS_OK && !r->published && r->r.params[0] && !isnan(r->r.time_ms_median);
}

/* Appends each distinct value of d's rows (the text field at offset) that passes keep,
 * as ", a, b", to out. */
static void values_list(const struct mmb_report_data *d, size_t offset, char *out, size_t len)
{
    out[0] = '\0';
    for (size_t i = 0; i < d->nrows; i++) {
        const char *v = (const char *)&d->rows[i].r + offset;
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = !strcmp(v, (const char *)&d->rows[j].r + offset);
        if (!seen && v[0])
            mmb_join_append(out, len, ", ", v);
    }
}

/* A filter that names nothing in the data is bad input, with what the data has. */
static int filters_check(const struct mmb_report_data *d, const struct mmb_report_export_options *o, char *err,
                         size_t errlen)
{
    char have[2048];
    bool profile = !o->profile, gpu = !o->gpu;
    for (size_t i = 0; i < d->nrows && !(profile && gpu); i++) {
        profile = profile || !strcmp(d->rows[i].r.profile, o->profile);
        gpu = gpu || gpu_matches(d->rows[i].r.gpu, o->gpu);
    }
    if (!profile) {
        values_list(d, offsetof(struct mmb_row, profile), have, sizeof have);
        return mmb_failf(err, errlen, "--profile %s: no row of that profile; profiles in the data: %s", o->profile,
                         have[0] ? have : "none");
    }
    if (!gpu) {
        values_list(d, offsetof(struct mmb_row, gpu), have, sizeof have);
        return mmb_failf(err, errlen, "--gpu %s: no row of that GPU (its name or data folder); GPUs in the data: %s",
                         o->gpu, have[0] ? have : "none");
    }
    for (const char *p = o->kernels; p && *p;) {
        size_t w = strcspn(p, ",");
        bool found = false, ok = false;
        for (size_t i = 0; i < d->nrows && !ok; i++) {
            const struct mmb_report_row *r = &d->rows[i];
            bool named = strlen(r->r.kernel) == w && !strncmp(r->r.kernel, p, w);
            found = found || (named && row_selected(r, &(struct mmb_report_export_options){o->profile, o->gpu, NULL, NULL}));
            ok = found && named && row_selected(r, o) && row_exportable(r);
        }
        if (!found) {
            values_list(d, offsetof(struct mmb_row, kernel), have, sizeof have);
            return mmb_failf(err, errlen, "--kernel: no row of kernel '%.*s'%s; kernels in the data: %s", (int)w, p,
                             o->profile || o->gpu ? " of that profile and GPU" : "", have);
        }
        if (!ok)
            return mmb_failf(err, errlen, "--kernel: kernel '%.*s' has no ok row with parameters to export (cuBLAS "
                             "and kernels without parameters have none)", (int)w, p);
        p += w + (p[w] == ',');
    }
    return 0;
}

/* The params cell: name=integer pairs whose names a macro can have, no two of one
 * name in upper case (each becomes ..._<NAME>). */
static int params_check(const struct mmb_report_data *d, const struct mmb_report_row *r, char *err, size_t errlen)
{
    const char *cursor = r->r.params;
    struct mmb_params_item item;
    char seen[sizeof r->r.params + 2] = ";";
    int got;
    while ((got = mmb_params_next(&cursor, &item)) == 1) {
        bool ident = item.name_len > 0 && (isalpha((unsigned char)item.name[0]) || item.name[0] == '_');
        for (size_t i = 1; i < item.name_len && ident; i++)
            ident = isalnum((unsigned char)item.name[i]) || item.name[i] == '_';
        if (!ident)
            return mmb_failf(err, errlen, "%s:%ld: column 'params': parameter '%.*s' is not a C identifier: expected "
                             "names a macro can have", d->files[r->file].shown, r->line, (int)item.name_len, item.name);
        char upper[sizeof r->r.params + 2];
        size_t n = 0;
        upper[n++] = ';';
        for (size_t i = 0; i < item.name_len && n + 2 < sizeof upper; i++)
            upper[n++] = (char)toupper((unsigned char)item.name[i]);
        upper[n++] = ';';
        upper[n] = '\0';
        if (strstr(seen, upper))
            return mmb_failf(err, errlen, "%s:%ld: column 'params': parameter '%.*s' is another's name in upper case: "
                             "expected names that differ in more than case", d->files[r->file].shown, r->line,
                             (int)item.name_len, item.name);
        mmb_join_append(seen, sizeof seen, "", upper + 1);
    }
    if (got < 0)
        return mmb_failf(err, errlen, "%s:%ld: column 'params': expected name=integer pairs joined by ';', found '%s'",
                         d->files[r->file].shown, r->line, r->r.params);
    return 0;
}

/* ---- groups ---- */

/* GPU, kernel, dtype, cache, m, n, k: one group; then the best first. */
static int group_cmp(const struct mmb_row *a, const struct mmb_row *b)
{
    int c;
    if ((c = strcmp(a->gpu, b->gpu)) || (c = strcmp(a->kernel, b->kernel)) || (c = strcmp(a->dtype, b->dtype)) ||
        (c = strcmp(a->cache, b->cache)))
        return c;
    if (a->m != b->m)
        return a->m < b->m ? -1 : 1;
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    return a->k < b->k ? -1 : a->k > b->k;
}

static int rank_cmp(const void *pa, const void *pb, void *ctx)
{
    const struct mmb_report_data *d = ctx;
    size_t ia = *(const size_t *)pa, ib = *(const size_t *)pb;
    const struct mmb_row *a = &d->rows[ia].r, *b = &d->rows[ib].r;
    int c = group_cmp(a, b);
    if (c)
        return c;
    if (a->time_ms_median != b->time_ms_median)
        return a->time_ms_median < b->time_ms_median ? -1 : 1;
    /* an empty min (NaN) ranks after a known one */
    if (!isnan(a->time_ms_min) && (isnan(b->time_ms_min) || a->time_ms_min < b->time_ms_min))
        return -1;
    if (!isnan(b->time_ms_min) && (isnan(a->time_ms_min) || b->time_ms_min < a->time_ms_min))
        return 1;
    return ia < ib ? -1 : ia > ib;
}

static bool same_problem(const struct mmb_row *a, const struct mmb_row *b)
{
    return !strcmp(a->gpu, b->gpu) && !strcmp(a->dtype, b->dtype) && !strcmp(a->cache, b->cache) && a->m == b->m &&
           a->n == b->n && a->k == b->k;
}

/* The fastest ok cuBLAS row of e's problem on its GPU. */
static const struct mmb_report_row *cublas_of(const struct mmb_report_data *d, const struct mmb_row *best)
{
    const struct mmb_report_row *found = NULL;
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_report_row *r = &d->rows[i];
        if (r->r.status == MMB_STATUS_OK && !r->published && !strcmp(r->r.kernel, "cublas") && !isnan(r->r.time_ms_median) &&
            same_problem(&r->r, best) && (!found || r->r.time_ms_median < found->r.time_ms_median))
            found = r;
    }
    return found;
}

/* Upper case, every character a macro name cannot have as '_'. */
static void macro_part(char *out, size_t len, size_t *used, const char *text)
{
    for (const char *p = text; *p && *used + 1 < len; p++)
        out[(*used)++] = isalnum((unsigned char)*p) ? (char)toupper((unsigned char)*p) : '_';
    out[*used] = '\0';
}

static void prefix_of(const struct mmb_row *r, char *out, size_t len)
{
    char size[96], slug[MMB_REPORT_NAME_MAX];
    size_t used = 0;
    snprintf(size, sizeof size, "%lldx%lldx%lld", r->m, r->n, r->k);
    mmb_gpu_slug(r->gpu, slug, sizeof slug);
    const char *parts[] = {"MMB_BEST", r->kernel, size, r->dtype, r->cache, slug};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        if (i && used + 1 < len)
            out[used++] = '_';
        macro_part(out, len, &used, parts[i]);
    }
}

static int prefix_cmp(const void *a, const void *b)
{
    return strcmp((*(const struct mmb_report_export_entry *const *)a)->prefix,
                  (*(const struct mmb_report_export_entry *const *)b)->prefix);
}

/* Two groups whose names differ only where a macro cannot tell (case, punctuation). */
static int prefixes_check(const struct mmb_report_data *d, struct mmb_report_export_entry *e, size_t n, char *err,
                          size_t errlen)
{
    const struct mmb_report_export_entry **v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return mmb_failf(err, errlen, "out of memory");
    for (size_t i = 0; i < n; i++)
        v[i] = &e[i];
    qsort(v, n, sizeof *v, prefix_cmp);
    int rc = 0;
    for (size_t i = 1; i < n && rc == 0; i++)
        if (!strcmp(v[i - 1]->prefix, v[i]->prefix))
            rc = mmb_failf(err, errlen, "%s:%ld and %s:%ld: both make the macros %s_...; expected GPU, kernel and "
                           "dtype names that differ in letters or digits", d->files[v[i - 1]->best->file].shown,
                           v[i - 1]->best->line, d->files[v[i]->best->file].shown, v[i]->best->line, v[i]->prefix);
    free(v);
    return rc;
}

int mmb_report_export_find(const struct mmb_report_data *d, const struct mmb_report_export_options *o,
                           struct mmb_report_export_entry **out, size_t *n, char *err, size_t errlen)
{
    *out = NULL;
    *n = 0;
    if (filters_check(d, o, err, errlen) != 0)
        return -1;
    size_t *idx = malloc((d->nrows ? d->nrows : 1) * sizeof *idx), m = 0;
    if (!idx)
        return mmb_failf(err, errlen, "out of memory");
    for (size_t i = 0; i < d->nrows; i++) {
        if (!row_selected(&d->rows[i], o) || !row_exportable(&d->rows[i]))
            continue;
        if (params_check(d, &d->rows[i], err, errlen) != 0) {
            free(idx);
            return -1;
        }
        idx[m++] = i;
    }
    if (m == 0) {
        free(idx);
        return mmb_failf(err, errlen, "no ok row with parameters%s: nothing to export (cuBLAS and kernels without "
                         "parameters have no configuration to choose)", o->profile || o->gpu ? " of that profile and GPU" : "");
    }
    qsort_r(idx, m, sizeof *idx, rank_cmp, (void *)d);
    struct mmb_report_export_entry *e = calloc(m, sizeof *e);
    if (!e) {
        free(idx);
        return mmb_failf(err, errlen, "out of memory");
    }
    size_t ne = 0;
    for (size_t i = 0; i < m; i++) {
        const struct mmb_report_row *r = &d->rows[idx[i]];
        if (ne && group_cmp(&e[ne - 1].best->r, &r->r) == 0) {
            e[ne - 1].configurations++;
            continue;
        }
        e[ne] = (struct mmb_report_export_entry){.best = r, .cublas = cublas_of(d, &r->r), .configurations = 1};
        prefix_of(&r->r, e[ne].prefix, sizeof e[ne].prefix);
        ne++;
    }
    free(idx);
    if (prefixes_check(d, e, ne, err, errlen) != 0) {
        free(e);
        return -1;
    }
    *out = e;
    *n = ne;
    return 0;
}

/* ---- the header ---- */

/* What an entry is, in words: "tunable 4096x4096x4096 f32, cold L2, NVIDIA H100 ...". */
static void entry_about(const struct mmb_report_data *d, const struct mmb_report_export_entry *e, char *out,
                        size_t len)
{
    const struct mmb_row *b = &e->best->r;
    int w = snprintf(out, len, "%s %lldx%lldx%lld %s, %s L2, %s: %.6g ms median, %.1f GFLOP/s", b->kernel, b->m, b->n,
                     b->k, b->dtype, b->cache, b->gpu, b->time_ms_median, b->gflops);
    size_t used = w > 0 ? (size_t)w : 0;
    if (e->cublas && used < len)
        used += (size_t)snprintf(out + used, len - used, ", %.1f%% of cuBLAS (%.6g ms)",
                                 100.0 * e->cublas->r.time_ms_median / b->time_ms_median, e->cublas->r.time_ms_median);
    if (used < len && e->configurations > 1)
        used += (size_t)snprintf(out + used, len - used, "; the fastest of %zu ok configurations", e->configurations);
    else if (used < len)
        used += (size_t)snprintf(out + used, len - used, "; the one ok configuration");
    if (used < len)
        snprintf(out + used, len - used, "; %s:%ld", d->files[e->best->file].shown, e->best->line);
}

/* "-Dname=value -D..." of an entry. */
static void entry_defines(const struct mmb_report_export_entry *e, char *out, size_t len)
{
    const char *cursor = e->best->r.params;
    struct mmb_params_item item;
    size_t used = 0;
    out[0] = '\0';
    while (mmb_params_next(&cursor, &item) == 1 && used < len)
        used += (size_t)snprintf(out + used, len - used, "%s-D%.*s=%lld", used ? " " : "", (int)item.name_len,
                                 item.name, item.value);
}

int mmb_report_export_header(FILE *f, const struct mmb_report_data *d, const struct mmb_report_export_options *o,
                             const struct mmb_report_export_entry *e, size_t n)
{
    fprintf(f, "/* The fastest ok configuration (lowest median time) of each GPU, kernel, size, dtype and\n"
            " * cache mode in the data: for each, MMB_BEST_<KERNEL>_<M>X<N>X<K>_<DTYPE>_<CACHE>_<GPU>_<PARAM>\n"
            " * per parameter, and ..._DEFINES, the -D options that compile that configuration (NVRTC\n"
            " * or nvcc). Written by `mmbench export --best` (%s) from %zu CSV file%s. */\n"
            "#ifndef MMB_BEST_H\n#define MMB_BEST_H\n", o->writer ? o->writer : "mmbench", d->nfiles,
            d->nfiles == 1 ? "" : "s");
    for (size_t i = 0; i < n; i++) {
        char about[1024], defines[1024];
        entry_about(d, &e[i], about, sizeof about);
        entry_defines(&e[i], defines, sizeof defines);
        /* a name in the data may hold the comment's end */
        for (char *end; (end = strstr(about, "*/"));)
            end[1] = '_';
        fprintf(f, "\n/* %s */\n", about);
        const char *cursor = e[i].best->r.params;
        struct mmb_params_item item;
        while (mmb_params_next(&cursor, &item) == 1) {
            char name[128];
            size_t used = 0;
            snprintf(name, sizeof name, "%.*s", (int)item.name_len, item.name);
            char upper[128];
            macro_part(upper, sizeof upper, &used, name);
            fprintf(f, "#define %s_%s %lld\n", e[i].prefix, upper, item.value);
        }
        fprintf(f, "#define %s_DEFINES \"%s\"\n", e[i].prefix, defines);
    }
    fprintf(f, "\n#endif\n");
    return ferror(f) ? -1 : 0;
}

/* ---- JSON ---- */

/* {name: value, ...} of a params cell (checked by params_check). */
static cJSON *params_json(const char *params)
{
    cJSON *o = cJSON_CreateObject();
    const char *cursor = params;
    struct mmb_params_item item;
    bool ok = o != NULL;
    while (ok && mmb_params_next(&cursor, &item) == 1) {
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)item.name_len, item.name);
        ok = cJSON_AddNumberToObject(o, name, (double)item.value) != NULL;
    }
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

static cJSON *entry_json(const struct mmb_report_data *d, const struct mmb_report_export_entry *e)
{
    const struct mmb_row *b = &e->best->r;
    char slug[MMB_REPORT_NAME_MAX], defines[1024], source[4200];
    mmb_gpu_slug(b->gpu, slug, sizeof slug);
    entry_defines(e, defines, sizeof defines);
    snprintf(source, sizeof source, "%s:%ld", d->files[e->best->file].shown, e->best->line);
    cJSON *o = cJSON_CreateObject();
    bool ok = o && cJSON_AddStringToObject(o, "gpu", b->gpu) && cJSON_AddStringToObject(o, "gpu_folder", slug) &&
              cJSON_AddStringToObject(o, "kernel", b->kernel) && cJSON_AddNumberToObject(o, "m", (double)b->m) &&
              cJSON_AddNumberToObject(o, "n", (double)b->n) && cJSON_AddNumberToObject(o, "k", (double)b->k) &&
              cJSON_AddStringToObject(o, "dtype", b->dtype) && cJSON_AddStringToObject(o, "cache", b->cache);
    cJSON *params = ok ? params_json(b->params) : NULL;
    if (params && !cJSON_AddItemToObject(o, "params", params)) {
        cJSON_Delete(params);
        params = NULL;
    }
    ok = params && cJSON_AddStringToObject(o, "defines", defines) && cJSON_AddStringToObject(o, "macro", e->prefix) &&
         cJSON_AddStringToObject(o, "profile", b->profile) &&
         cJSON_AddNumberToObject(o, "time_ms_median", b->time_ms_median) &&
         (isnan(b->gflops) ? cJSON_AddNullToObject(o, "gflops") : cJSON_AddNumberToObject(o, "gflops", b->gflops)) &&
         (e->cublas ? cJSON_AddNumberToObject(o, "cublas_time_ms_median", e->cublas->r.time_ms_median)
                    : cJSON_AddNullToObject(o, "cublas_time_ms_median")) &&
         cJSON_AddNumberToObject(o, "configurations", (double)e->configurations) &&
         cJSON_AddStringToObject(o, "source", source);
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

char *mmb_report_export_json(const struct mmb_report_data *d, const struct mmb_report_export_options *o,
                             const struct mmb_report_export_entry *e, size_t n)
{
    cJSON *root = cJSON_CreateObject(), *best = NULL;
    bool ok = root && cJSON_AddStringToObject(root, "writer", o->writer ? o->writer : "mmbench") &&
              cJSON_AddStringToObject(root, "rule", "the ok row of the lowest time_ms_median (then time_ms_min) of "
                                                    "each gpu, kernel, m, n, k, dtype and cache") &&
              cJSON_AddNumberToObject(root, "files", (double)d->nfiles) && (best = cJSON_AddArrayToObject(root, "best"));
    for (size_t i = 0; ok && i < n; i++) {
        cJSON *one = entry_json(d, &e[i]);
        ok = one && cJSON_AddItemToArray(best, one);
        if (!ok)
            cJSON_Delete(one);
    }
    char *text = ok ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    if (!text)
        return NULL;
    size_t len = strlen(text);
    char *line = realloc(text, len + 2);
    if (!line) {
        free(text);
        return NULL;
    }
    memcpy(line + len, "\n", 2);
    return line;
}
