/* findings_claims.h - where each number of the Key findings comes from: the findings'
 * writers format a number through these functions, which record the rows it was
 * computed from (CSV file and line, and the row's key), the formula, and the text
 * printed; `mmbench report` writes them to claims.json beside README.md, and
 * tests/test_claims.py recomputes every one from the CSVs alone. Private to
 * findings*.c. */
#ifndef MMB_REPORT_FINDINGS_CLAIMS_H
#define MMB_REPORT_FINDINGS_CLAIMS_H

#include "report/doc/findings_impl.h"

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

/* claims.json in the report's folder (findings.h's mmb_report_findings_json). */
int mmb_report_findings_claims_write(const struct mmb_report *rep, char *err, size_t errlen);

#endif
