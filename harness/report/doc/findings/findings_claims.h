/* findings_claims.h - where each number of the Key findings comes from: the findings'
 * writers format a number through these functions, which record the rows it was
 * computed from (CSV file and line, and the row's key), the formula, and the text
 * printed; `mmbench report` writes them to claims.json beside README.md, and
 * tests/test_claims.py recomputes every one from the CSVs alone. Private to
 * findings*.c. */
#ifndef MMB_REPORT_FINDINGS_CLAIMS_H
#define MMB_REPORT_FINDINGS_CLAIMS_H

#include "report/doc/findings/findings_impl.h"
#include "results/compare/compare.h"

/* Each formats as the findings do (mmb_report_finding_tflops, _ratio, _pct) into buf
 * (16 bytes), records the claim in c (when there is room) and returns buf. */
const char *mmb_report_findings_claim_tflops(struct mmb_report_claims *c, const struct mmb_report_row *a, char *buf);
const char *mmb_report_findings_claim_speedup(struct mmb_report_claims *c, const struct mmb_report_row *a,
                                              const struct mmb_report_row *b, char *buf);
const char *mmb_report_findings_claim_pct_time(struct mmb_report_claims *c, const struct mmb_report_row *a,
                                               const struct mmb_report_row *b, char *buf);
const char *mmb_report_findings_claim_pct_peak(struct mmb_report_claims *c, const struct mmb_report_row *a, char *buf);
/* a's column (a counter percentage: l1_util_pct, ...), or value, what the caller
 * printed for it when it is no cell (a fallback computed otherwise: not recorded). */
const char *mmb_report_findings_claim_column(struct mmb_report_claims *c, const struct mmb_report_row *a,
                                             const char *column, double value, char *buf);

/* a's DRAM bytes over its compulsory bytes (ratio format); nvbench's BWUtil (% format). */
const char *mmb_report_findings_claim_traffic(struct mmb_report_claims *c, const struct mmb_report_row *a, char *buf);
const char *mmb_report_findings_claim_declared(struct mmb_report_claims *c, const struct mmb_report_row *a, char *buf);

/* Numbers in a named format, into buf (16 bytes): pct, ratio, tflops (from GFLOP/s),
 * int, f1, f3, g4 (four significant digits), count (268.4 M: mmb_report_tabular_count),
 * gb and mb (from bytes), us (from ms). NULL for an unknown format. */
const char *mmb_report_findings_claim_format(const char *format, double v, char *buf);

/* a's cell column (real or integer) in format; recorded only when value is the cell's.
 * Two columns are derived from the row's cells: dram_bytes (read + write) and
 * spread_pct (100 (max - min) / median of the time). */
const char *mmb_report_findings_claim_cell(struct mmb_report_claims *c, const struct mmb_report_row *a,
                                           const char *column, const char *format, double value, char *buf);
/* How much a's cell column differs from b's, in percent of b's (f1 format): more,
 * 100 (a / b - 1), or less, 100 (1 - a / b). */
const char *mmb_report_findings_claim_change(struct mmb_report_claims *c, const struct mmb_report_row *a,
                                             const struct mmb_report_row *b, const char *column, bool less,
                                             char *buf);
/* a's compulsory bytes in format (mb). */
const char *mmb_report_findings_claim_compulsory(struct mmb_report_claims *c, const struct mmb_report_row *a,
                                                 const char *format, char *buf);
/* a's key as printed into buf (len bytes): "size" (the shape label), "params" (the
 * configuration's label), "reason" (the compiler's line and message), "protocol" (its items
 * separated by "; "). */
const char *mmb_report_findings_claim_key(struct mmb_report_claims *c, const struct mmb_report_row *a,
                                          const char *column, char *buf, size_t len);
/* How many of the n items (rows; arity 2: pairs, rows[2 i] and rows[2 i + 1]) there are,
 * each satisfying predicate what (findings_impl.h), as an integer. */
const char *mmb_report_findings_claim_count(struct mmb_report_claims *c, const char *what,
                                            const struct mmb_report_row *const *rows, size_t n, size_t arity,
                                            char *buf);
/* The mean of column over n rows, value as the caller computed it, in format. */
const char *mmb_report_findings_claim_mean(struct mmb_report_claims *c, const char *column, const char *format,
                                           const struct mmb_report_row *const *rows, size_t n, double value,
                                           char *buf);
/* "1.015 [1.014, 1.016] SAME" (or "1.015 (no 95% interval) UNSURE") into out: cmp, new b
 * against old a as mmb_report_pairs_compare gives it, with its three numbers' claims. */
const char *mmb_report_findings_claim_verdict(struct mmb_report_claims *c, const struct mmb_report_row *a,
                                              const struct mmb_report_row *b, const struct mmb_comparison *cmp,
                                              char *out, size_t len);
/* A constant of the program: name in source file (relative to the source root), value
 * times scale in format. */
const char *mmb_report_findings_claim_setting(struct mmb_report_claims *c, const char *file, const char *name,
                                              double value, double scale, const char *format, char *buf);
/* A field of GPU a->gpu's devices.txt line (sms, sm_mhz, l2_mib, peak_gbps, peak_gflops). */
const char *mmb_report_findings_claim_device(struct mmb_report_claims *c, const struct mmb_report_row *a,
                                             const char *field, double value, const char *format, char *buf);

/* Appends from's claims (and their items) to to's, as many as there is room for. */
void mmb_report_findings_claims_merge(struct mmb_report_claims *to, const struct mmb_report_claims *from);

/* claims.json in the report's folder (findings.h's mmb_report_findings_json). */
int mmb_report_findings_claims_write(const struct mmb_report *rep, char *err, size_t errlen);

#endif
