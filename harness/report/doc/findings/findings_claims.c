/* findings_claims.c - the numbers of the Key findings with their provenance, and claims.json. */
#include "report/doc/findings/findings_claims.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "report/doc/md.h"
#include "report/doc/tabular.h"
#include "report/input/labels.h"
#include "report/input/out.h"
#include "report/input/row.h"
#include "report/input/shape.h"
#include "results/columns.h"
#include "results/row.h"

static const char *const formula_names[] = {"tflops",  "speedup",    "pct_time", "pct_peak", "column",
                                            "traffic", "declared",   "cell",     "compulsory", "key",
                                            "count",   "mean",       "verdict",  "setting",  "device",
                                            "change"};

/* A new claim of text about rows a and b (either may be NULL), or NULL when there is
 * no list or no room in it. */
static struct mmb_report_claim *claim_new(struct mmb_report_claims *c, enum mmb_report_claim_formula formula,
                                          const struct mmb_report_row *a, const struct mmb_report_row *b,
                                          const char *text)
{
    if (!c || c->n >= MMB_REPORT_CLAIMS_MAX)
        return NULL;
    struct mmb_report_claim *k = &c->list[c->n++];
    memset(k, 0, sizeof *k);
    k->formula = formula;
    k->rows[0] = a;
    k->rows[1] = b;
    k->peak = NAN;
    snprintf(k->text, sizeof k->text, "%s", text);
    return k;
}

/* A claim about row a (none without one), or NULL. */
static struct mmb_report_claim *claim_add(struct mmb_report_claims *c, enum mmb_report_claim_formula formula,
                                          const struct mmb_report_row *a, const struct mmb_report_row *b,
                                          const char *text)
{
    return a ? claim_new(c, formula, a, b, text) : NULL;
}

/* claim_add's, for the formulas that set nothing more: returns text. */
static const char *record(struct mmb_report_claims *c, enum mmb_report_claim_formula formula,
                          const struct mmb_report_row *a, const struct mmb_report_row *b, const char *text)
{
    claim_add(c, formula, a, b, text);
    return text;
}

const char *mmb_report_findings_claim_format(const char *format, double v, char *buf)
{
    if (!strcmp(format, "pct"))
        return mmb_report_finding_pct(v, buf);
    if (!strcmp(format, "ratio"))
        return mmb_report_finding_ratio(v, buf);
    if (!strcmp(format, "tflops"))
        return mmb_report_finding_tflops(v, buf);
    if (!strcmp(format, "count")) {
        mmb_report_tabular_count(v, buf, 16);
        return buf;
    }
    static const struct {
        const char *name, *fmt;
        double scale;
    } plain[] = {{"int", "%.0f", 1}, {"f1", "%.1f", 1}, {"f3", "%.3f", 1}, {"gb", "%.1f", 1e-9},
                 {"mb", "%.0f", 1e-6}, {"us", "%.1f", 1e3}, {"g4", "%.4g", 1}, {NULL, NULL, 0}};
    for (size_t i = 0; plain[i].name; i++)
        if (!strcmp(format, plain[i].name)) {
            snprintf(buf, 16, plain[i].fmt, v * plain[i].scale);
            return buf;
        }
    snprintf(buf, 16, "?");
    return NULL;
}

/* a's cell column as a double (NaN when empty or not a number column). */
static double cell_of(const struct mmb_report_row *a, const char *column, bool *known)
{
    const struct mmb_column *col = mmb_column_find(column);
    *known = false;
    /* two derived from the row's cells alone */
    if (!strcmp(column, "dram_bytes")) {
        *known = isfinite(a->r.dram_read_bytes) && isfinite(a->r.dram_write_bytes);
        return a->r.dram_read_bytes + a->r.dram_write_bytes;
    }
    if (!strcmp(column, "spread_pct")) {
        *known = isfinite(a->r.time_ms_min) && isfinite(a->r.time_ms_max) && a->r.time_ms_median > 0;
        return 100 * (a->r.time_ms_max - a->r.time_ms_min) / a->r.time_ms_median;
    }
    if (!col)
        return NAN;
    const char *at = (const char *)&a->r + col->offset;
    if (col->type == MMB_COL_REAL) {
        *known = true;
        return *(const double *)at;
    }
    if (col->type == MMB_COL_INT && *(const long long *)at != MMB_INT_EMPTY) {
        *known = true;
        return (double)*(const long long *)at;
    }
    return NAN;
}

const char *mmb_report_findings_claim_cell(struct mmb_report_claims *c, const struct mmb_report_row *a,
                                           const char *column, const char *format, double value, char *buf)
{
    if (!mmb_report_findings_claim_format(format, value, buf))
        return buf;
    bool known;
    double cell = cell_of(a, column, &known);
    if (!known || !isfinite(value) || cell != value)
        return buf; /* not the row's cell: nothing a reader of the CSV could check */
    struct mmb_report_claim *k = claim_add(c, MMB_REPORT_CLAIM_CELL, a, NULL, buf);
    if (k) {
        snprintf(k->column, sizeof k->column, "%s", column);
        snprintf(k->format, sizeof k->format, "%s", format);
    }
    return buf;
}

const char *mmb_report_findings_claim_change(struct mmb_report_claims *c, const struct mmb_report_row *a,
                                             const struct mmb_report_row *b, const char *column, bool less,
                                             char *buf)
{
    bool ka, kb;
    double x = cell_of(a, column, &ka), y = cell_of(b, column, &kb);
    double v = less ? 100 * (1 - x / y) : 100 * (x / y - 1);
    mmb_report_findings_claim_format("f1", v, buf);
    if (!ka || !kb || !isfinite(v))
        return buf;
    struct mmb_report_claim *k = claim_add(c, MMB_REPORT_CLAIM_CHANGE, a, b, buf);
    if (k) {
        snprintf(k->column, sizeof k->column, "%s", column);
        snprintf(k->format, sizeof k->format, "f1");
        snprintf(k->what, sizeof k->what, "%s", less ? "less" : "more");
    }
    return buf;
}

const char *mmb_report_findings_claim_compulsory(struct mmb_report_claims *c, const struct mmb_report_row *a,
                                                 const char *format, char *buf)
{
    mmb_report_findings_claim_format(format, mmb_row_compulsory_bytes(&a->r), buf);
    struct mmb_report_claim *k = claim_add(c, MMB_REPORT_CLAIM_COMPULSORY, a, NULL, buf);
    if (k)
        snprintf(k->format, sizeof k->format, "%s", format);
    return buf;
}

const char *mmb_report_findings_claim_key(struct mmb_report_claims *c, const struct mmb_report_row *a,
                                          const char *column, char *buf, size_t len)
{
    if (!strcmp(column, "size")) {
        struct mmb_report_shape s = {a->r.m, a->r.n, a->r.k};
        mmb_report_shape_label(&s, buf, len);
    } else if (!strcmp(column, "params")) {
        mmb_report_label_params(a->r.params, buf, len);
    } else if (!strcmp(column, "reason")) {
        mmb_report_md_reason(a->r.reason, buf, len);
    } else if (!strcmp(column, "protocol")) { /* its items a word each, so that a line may break between them */
        size_t o = 0;
        for (const char *p = a->r.protocol; *p && o + 3 < len; p++) {
            buf[o++] = *p;
            if (*p == ';')
                buf[o++] = ' ';
        }
        buf[o] = '\0';
    } else {
        snprintf(buf, len, "?");
        return buf;
    }
    struct mmb_report_claim *k =
        strlen(buf) < sizeof c->list[0].text ? claim_add(c, MMB_REPORT_CLAIM_KEY, a, NULL, buf) : NULL;
    if (k)
        snprintf(k->column, sizeof k->column, "%s", column);
    return buf;
}

/* Copies n items of arity rows each into the pool of claim k (false: no room). */
static bool items(struct mmb_report_claims *c, struct mmb_report_claim *k, const struct mmb_report_row *const *rows,
                  size_t n, size_t arity)
{
    if (c->npool + n * arity > MMB_REPORT_CLAIMS_POOL) {
        c->n--; /* a count whose items cannot be listed is no claim */
        return false;
    }
    k->first = c->npool;
    k->nitems = n;
    k->arity = arity;
    for (size_t i = 0; i < n * arity; i++)
        c->pool[c->npool++] = rows[i];
    return true;
}

const char *mmb_report_findings_claim_count(struct mmb_report_claims *c, const char *what,
                                            const struct mmb_report_row *const *rows, size_t n, size_t arity,
                                            char *buf)
{
    snprintf(buf, 16, "%zu", n);
    if (n && !rows)
        return buf;
    struct mmb_report_claim *k = claim_new(c, MMB_REPORT_CLAIM_COUNT, NULL, NULL, buf); /* its rows are its items */
    if (k) {
        snprintf(k->what, sizeof k->what, "%s", what);
        items(c, k, rows, n, arity ? arity : 1);
    }
    return buf;
}

const char *mmb_report_findings_claim_mean(struct mmb_report_claims *c, const char *column, const char *format,
                                           const struct mmb_report_row *const *rows, size_t n, double value,
                                           char *buf)
{
    mmb_report_findings_claim_format(format, value, buf);
    struct mmb_report_claim *k = n ? claim_new(c, MMB_REPORT_CLAIM_MEAN, NULL, NULL, buf) : NULL;
    if (k) {
        snprintf(k->column, sizeof k->column, "%s", column);
        snprintf(k->format, sizeof k->format, "%s", format);
        items(c, k, rows, n, 1);
    }
    return buf;
}

/* One part of a comparison, f3, with its claim. */
static const char *verdict_part(struct mmb_report_claims *c, const struct mmb_report_row *a,
                                const struct mmb_report_row *b, const char *part, double v, char *buf)
{
    mmb_report_findings_claim_format("f3", v, buf);
    struct mmb_report_claim *k = claim_add(c, MMB_REPORT_CLAIM_VERDICT, a, b, buf);
    if (k)
        snprintf(k->what, sizeof k->what, "%s", part);
    return buf;
}

const char *mmb_report_findings_claim_verdict(struct mmb_report_claims *c, const struct mmb_report_row *a,
                                              const struct mmb_report_row *b, const struct mmb_comparison *cmp,
                                              char *out, size_t len)
{
    char r[16], lo[16], hi[16];
    verdict_part(c, a, b, "ratio", cmp->ratio.ratio, r);
    if (isnan(cmp->ratio.lo)) {
        snprintf(out, len, "%s (no %.0f%% interval) %s", r, 100 * MMB_VERDICT_CONFIDENCE,
                 mmb_verdict_text(cmp->ratio.verdict));
        return out;
    }
    verdict_part(c, a, b, "lo", cmp->ratio.lo, lo);
    verdict_part(c, a, b, "hi", cmp->ratio.hi, hi);
    snprintf(out, len, "%s [%s, %s] %s", r, lo, hi, mmb_verdict_text(cmp->ratio.verdict));
    return out;
}

const char *mmb_report_findings_claim_setting(struct mmb_report_claims *c, const char *file, const char *name,
                                              double value, double scale, const char *format, char *buf)
{
    mmb_report_findings_claim_format(format, value * scale, buf);
    if (!c || c->n >= MMB_REPORT_CLAIMS_MAX)
        return buf;
    struct mmb_report_claim *k = &c->list[c->n++];
    memset(k, 0, sizeof *k);
    k->formula = MMB_REPORT_CLAIM_SETTING;
    k->peak = scale;
    snprintf(k->column, sizeof k->column, "%s", file);
    snprintf(k->what, sizeof k->what, "%s", name);
    snprintf(k->format, sizeof k->format, "%s", format);
    snprintf(k->text, sizeof k->text, "%s", buf);
    return buf;
}

const char *mmb_report_findings_claim_device(struct mmb_report_claims *c, const struct mmb_report_row *a,
                                             const char *field, double value, const char *format, char *buf)
{
    mmb_report_findings_claim_format(format, value, buf);
    struct mmb_report_claim *k = claim_add(c, MMB_REPORT_CLAIM_DEVICE, a, NULL, buf);
    if (k) {
        snprintf(k->what, sizeof k->what, "%s", field);
        snprintf(k->format, sizeof k->format, "%s", format);
    }
    return buf;
}

const char *mmb_report_findings_claim_tflops(struct mmb_report_claims *c, const struct mmb_report_row *a, char *buf)
{
    return record(c, MMB_REPORT_CLAIM_TFLOPS, a, NULL, mmb_report_finding_tflops(mmb_report_row_gflops(a), buf));
}

const char *mmb_report_findings_claim_speedup(struct mmb_report_claims *c, const struct mmb_report_row *a,
                                     const struct mmb_report_row *b, char *buf)
{
    return record(c, MMB_REPORT_CLAIM_SPEEDUP, a, b,
                  mmb_report_finding_ratio(a->r.time_ms_median / b->r.time_ms_median, buf));
}

const char *mmb_report_findings_claim_pct_time(struct mmb_report_claims *c, const struct mmb_report_row *a,
                                      const struct mmb_report_row *b, char *buf)
{
    return record(c, MMB_REPORT_CLAIM_PCT_TIME, a, b,
                  mmb_report_finding_pct(100 * a->r.time_ms_median / b->r.time_ms_median, buf));
}

const char *mmb_report_findings_claim_pct_peak(struct mmb_report_claims *c, const struct mmb_report_row *a, char *buf)
{
    struct mmb_report_claim *k =
        claim_add(c, MMB_REPORT_CLAIM_PCT_PEAK, a, NULL, mmb_report_finding_pct(mmb_row_fp32_pct(&a->r), buf));
    if (k)
        k->peak = mmb_row_pipe_peak(&a->r);
    return buf;
}

const char *mmb_report_findings_claim_column(struct mmb_report_claims *c, const struct mmb_report_row *a,
                                             const char *column, double value, char *buf)
{
    mmb_report_finding_pct(value, buf);
    const struct mmb_column *col = mmb_column_find(column);
    if (!col || col->type != MMB_COL_REAL || !isfinite(value) ||
        *(const double *)((const char *)&a->r + col->offset) != value)
        return buf; /* not a cell of the row: nothing a reader of the CSV could check */
    struct mmb_report_claim *k = claim_add(c, MMB_REPORT_CLAIM_COLUMN, a, NULL, buf);
    if (k)
        snprintf(k->column, sizeof k->column, "%s", column);
    return buf;
}

const char *mmb_report_findings_claim_traffic(struct mmb_report_claims *c, const struct mmb_report_row *a, char *buf)
{
    return record(c, MMB_REPORT_CLAIM_TRAFFIC, a, NULL,
                  mmb_report_finding_ratio(mmb_report_finding_dram_bytes(a) / mmb_row_compulsory_bytes(&a->r), buf));
}

const char *mmb_report_findings_claim_declared(struct mmb_report_claims *c, const struct mmb_report_row *a, char *buf)
{
    return record(c, MMB_REPORT_CLAIM_DECLARED, a, NULL, mmb_report_finding_pct(mmb_row_declared_pct(&a->r), buf));
}

void mmb_report_findings_claims_merge(struct mmb_report_claims *to, const struct mmb_report_claims *from)
{
    for (size_t i = 0; i < from->n && to->n < MMB_REPORT_CLAIMS_MAX; i++) {
        const struct mmb_report_claim *k = &from->list[i];
        size_t items = k->nitems * k->arity;
        if (items && to->npool + items > MMB_REPORT_CLAIMS_POOL)
            continue;
        struct mmb_report_claim *t = &to->list[to->n++];
        *t = *k;
        if (items) {
            t->first = to->npool;
            memcpy(&to->pool[to->npool], &from->pool[k->first], items * sizeof *to->pool);
            to->npool += items;
        }
    }
}

/* {"file": ..., "line": N, "kernel": ..., ...}: where a row is and what it must hold. */
static cJSON *row_json(const struct mmb_report *rep, const struct mmb_report_row *r)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    const struct mmb_report_file *file = &rep->data.files[r->file];
    cJSON_AddStringToObject(o, "file", file->shown ? file->shown : file->path);
    cJSON_AddNumberToObject(o, "line", (double)r->line);
    cJSON_AddStringToObject(o, "kernel", r->r.kernel);
    cJSON_AddStringToObject(o, "params", r->r.params);
    cJSON_AddStringToObject(o, "dtype", r->r.dtype);
    cJSON_AddNumberToObject(o, "m", (double)r->r.m);
    cJSON_AddNumberToObject(o, "n", (double)r->r.n);
    cJSON_AddNumberToObject(o, "k", (double)r->r.k);
    cJSON_AddStringToObject(o, "cache", r->r.cache);
    return o;
}

static cJSON *claim_json(const struct mmb_report *rep, const struct mmb_report_claim *k,
                         const struct mmb_report_row *const *pool)
{
    cJSON *o = cJSON_CreateObject(), *rows = cJSON_CreateArray();
    if (!o || !rows) {
        cJSON_Delete(o);
        cJSON_Delete(rows);
        return NULL;
    }
    cJSON_AddStringToObject(o, "text", k->text);
    cJSON_AddStringToObject(o, "formula", formula_names[k->formula]);
    if (k->column[0])
        cJSON_AddStringToObject(o, k->formula == MMB_REPORT_CLAIM_SETTING ? "file" : "column", k->column);
    if (k->format[0])
        cJSON_AddStringToObject(o, "format", k->format);
    if (k->what[0])
        cJSON_AddStringToObject(o, k->formula == MMB_REPORT_CLAIM_SETTING ? "name" : "what", k->what);
    if (k->formula == MMB_REPORT_CLAIM_PCT_PEAK)
        cJSON_AddNumberToObject(o, "peak_gflops", k->peak);
    if (k->formula == MMB_REPORT_CLAIM_SETTING)
        cJSON_AddNumberToObject(o, "scale", k->peak);
    for (size_t i = 0; i < 2 && k->rows[i]; i++)
        cJSON_AddItemToArray(rows, row_json(rep, k->rows[i]));
    cJSON_AddItemToObject(o, "rows", rows);
    if (k->formula == MMB_REPORT_CLAIM_COUNT || k->formula == MMB_REPORT_CLAIM_MEAN) {
        cJSON *list = cJSON_CreateArray();
        for (size_t i = 0; list && i < k->nitems; i++) {
            cJSON *item = k->arity > 1 ? cJSON_CreateArray() : NULL;
            for (size_t j = 0; j < k->arity; j++) {
                cJSON *r = row_json(rep, pool[k->first + i * k->arity + j]);
                if (item)
                    cJSON_AddItemToArray(item, r);
                else
                    item = r;
            }
            cJSON_AddItemToArray(list, item);
        }
        cJSON_AddItemToObject(o, "items", list);
    }
    return o;
}

int mmb_report_findings_claims_write(const struct mmb_report *rep, char *err, size_t errlen)
{
    struct mmb_report_finding *fs = calloc(MMB_REPORT_FINDINGS_MAX, sizeof *fs);
    cJSON *root = cJSON_CreateObject(), *findings = cJSON_CreateArray();
    if (!fs || !root || !findings) {
        free(fs);
        cJSON_Delete(root);
        cJSON_Delete(findings);
        return mmb_failf(err, errlen, "out of memory");
    }
    size_t n = mmb_report_findings(rep, fs), p, g;
    if (n < MMB_REPORT_FINDINGS_MAX) { /* the summary's sentences, README.md's first */
        mmb_report_findings_summary(rep, &fs[n], &p, &g);
        n += fs[n].text[0] != '\0';
    }
    cJSON_AddStringToObject(root, "about", "the numbers of README.md's summary and Key findings and of tuning.md's "
                                           "findings: each claim's text as printed, "
                                           "its formula (docs: harness/report/doc/claims.h) and the CSV rows it is "
                                           "computed from (file relative to the source root, line, key cells)");
    cJSON_AddStringToObject(root, "root", rep->root);
    for (size_t i = 0; i < n; i++) {
        cJSON *f = cJSON_CreateObject(), *claims = cJSON_CreateArray();
        if (!f || !claims) {
            cJSON_Delete(f);
            cJSON_Delete(claims);
            break;
        }
        cJSON_AddStringToObject(f, "lead", fs[i].lead);
        cJSON_AddStringToObject(f, "text", fs[i].text);
        cJSON_AddStringToObject(f, "document", fs[i].tuning ? "tuning.md" : "README.md"); /* where it is printed */
        for (size_t j = 0; j < fs[i].claims.n; j++)
            cJSON_AddItemToArray(claims, claim_json(rep, &fs[i].claims.list[j], fs[i].claims.pool));
        cJSON_AddItemToObject(f, "claims", claims);
        cJSON_AddItemToArray(findings, f);
    }
    cJSON_AddItemToObject(root, "findings", findings);
    free(fs);
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    struct mmb_report_out o;
    char path[4400];
    if (!text)
        return mmb_failf(err, errlen, "out of memory");
    if (mmb_report_state_path(rep, path, sizeof path, NULL, "claims.json", err, errlen) != 0 ||
        mmb_report_out_open(&o, err, errlen) != 0) {
        free(text);
        return -1;
    }
    fputs(text, o.f);
    fputc('\n', o.f);
    free(text);
    return mmb_report_out_commit(&o, path, err, errlen);
}
