/* findings_claims.c - the numbers of the Key findings with their provenance, and claims.json. */
#include "report/doc/findings_claims.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "report/input/out.h"
#include "report/input/row.h"
#include "results/columns.h"
#include "results/row.h"

static const char *const formula_names[] = {"tflops", "speedup", "pct_time", "pct_peak",
                                            "column", "traffic", "declared"};

static const char *record(struct mmb_report_claims *c, enum mmb_report_claim_formula formula,
                          const struct mmb_report_row *a, const struct mmb_report_row *b, const char *buf)
{
    if (c && a && c->n < MMB_REPORT_CLAIMS_MAX) {
        struct mmb_report_claim *k = &c->list[c->n++];
        memset(k, 0, sizeof *k);
        k->formula = formula;
        k->rows[0] = a;
        k->rows[1] = b;
        k->peak = NAN;
        snprintf(k->text, sizeof k->text, "%s", buf);
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
    size_t n = c ? c->n : 0;
    record(c, MMB_REPORT_CLAIM_PCT_PEAK, a, NULL, mmb_report_finding_pct(mmb_row_fp32_pct(&a->r), buf));
    if (c && c->n > n)
        c->list[n].peak = mmb_row_pipe_peak(&a->r);
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
    size_t n = c ? c->n : 0;
    record(c, MMB_REPORT_CLAIM_COLUMN, a, NULL, buf);
    if (c && c->n > n)
        snprintf(c->list[n].column, sizeof c->list[n].column, "%s", column);
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

static cJSON *claim_json(const struct mmb_report *rep, const struct mmb_report_claim *k)
{
    cJSON *o = cJSON_CreateObject(), *rows = cJSON_CreateArray();
    if (!o || !rows) {
        cJSON_Delete(o);
        cJSON_Delete(rows);
        return NULL;
    }
    cJSON_AddStringToObject(o, "text", k->text);
    cJSON_AddStringToObject(o, "formula", formula_names[k->formula]);
    if (k->formula == MMB_REPORT_CLAIM_COLUMN)
        cJSON_AddStringToObject(o, "column", k->column);
    if (k->formula == MMB_REPORT_CLAIM_PCT_PEAK)
        cJSON_AddNumberToObject(o, "peak_gflops", k->peak);
    for (size_t i = 0; i < 2 && k->rows[i]; i++)
        cJSON_AddItemToArray(rows, row_json(rep, k->rows[i]));
    cJSON_AddItemToObject(o, "rows", rows);
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
    size_t n = mmb_report_findings(rep, fs);
    cJSON_AddStringToObject(root, "about", "the numbers of README.md's Key findings: each claim's text as printed, "
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
            cJSON_AddItemToArray(claims, claim_json(rep, &fs[i].claims.list[j]));
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
