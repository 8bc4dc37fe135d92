/* claims.h - where each number of the Key findings comes from: the findings' writers
 * format a number through these functions, which record the rows it was computed from
 * (CSV file and line, and the row's key), the formula, and the text printed; `mmbench
 * report` writes them to claims.json beside README.md, and tests/test_claims.py
 * recomputes every one from the CSVs alone. */
#ifndef MMB_REPORT_CLAIMS_H
#define MMB_REPORT_CLAIMS_H

#include <stddef.h>

#include "report/input/data.h"
#include "report/input/state.h"

/* The formulas, each over the rows of the claim (a, b), with the CSV's own columns:
 *   tflops    2 m n k / (a.time_ms_median 1e-3) / 1e12
 *   speedup   a.time_ms_median / b.time_ms_median       (b is that many times faster)
 *   pct_time  100 a.time_ms_median / b.time_ms_median   (b reaches this % of a: cuBLAS first)
 *   pct_peak  100 (2 m n k / (a.time_ms_median 1e-3) / 1e9) / peak, peak the
 *             GFLOP/s the claim names (the row's pipe peak, a.peak_gflops for f32)
 *   column    a.<column> as it is (a counter percentage)
 *   traffic   (a.dram_read_bytes + a.dram_write_bytes) / compulsory bytes, those
 *             (m k + k n) x input size + m n x output size (docs/profiles.md)
 *   declared  100 (compulsory bytes / (a.time_ms_median 1e-3) / 1e9) / a.peak_gbps */
enum mmb_report_claim_formula {
    MMB_REPORT_CLAIM_TFLOPS,
    MMB_REPORT_CLAIM_SPEEDUP,
    MMB_REPORT_CLAIM_PCT_TIME,
    MMB_REPORT_CLAIM_PCT_PEAK,
    MMB_REPORT_CLAIM_COLUMN,
    MMB_REPORT_CLAIM_TRAFFIC,
    MMB_REPORT_CLAIM_DECLARED,
};

struct mmb_report_claim {
    enum mmb_report_claim_formula formula;
    const struct mmb_report_row *rows[2]; /* b is NULL for one-row formulas */
    char column[32];                      /* for column */
    double peak;                          /* for pct_peak: GFLOP/s */
    char text[16];                        /* as printed */
};

#define MMB_REPORT_CLAIMS_MAX 48
struct mmb_report_claims {
    struct mmb_report_claim list[MMB_REPORT_CLAIMS_MAX];
    size_t n;
};

/* Each formats as the findings do (mmb_report_finding_tflops, _ratio, _pct) into buf
 * (16 bytes), records the claim in c (when there is room) and returns buf. */
const char *mmb_report_claim_tflops(struct mmb_report_claims *c, const struct mmb_report_row *a, char *buf);
const char *mmb_report_claim_speedup(struct mmb_report_claims *c, const struct mmb_report_row *a,
                                     const struct mmb_report_row *b, char *buf);
const char *mmb_report_claim_pct_time(struct mmb_report_claims *c, const struct mmb_report_row *a,
                                      const struct mmb_report_row *b, char *buf);
const char *mmb_report_claim_pct_peak(struct mmb_report_claims *c, const struct mmb_report_row *a, char *buf);
/* a's column (a counter percentage: l1_util_pct, ...), or value, what the caller
 * printed for it when it is no cell (a fallback computed otherwise: not recorded). */
const char *mmb_report_claim_column(struct mmb_report_claims *c, const struct mmb_report_row *a, const char *column,
                                    double value, char *buf);

/* a's DRAM bytes over its compulsory bytes (ratio format); nvbench's BWUtil (% format). */
const char *mmb_report_claim_traffic(struct mmb_report_claims *c, const struct mmb_report_row *a, char *buf);
const char *mmb_report_claim_declared(struct mmb_report_claims *c, const struct mmb_report_row *a, char *buf);

/* claims.json in the report's folder: every finding's lead and claims, each with its
 * formula, rows (file relative to the source root, line, and the key cells kernel,
 * params, dtype, m, n, k, cache) and text. -1 with err when it cannot be written. */
int mmb_report_claims_write(const struct mmb_report *rep, char *err, size_t errlen);

#endif
