/* findings_impl.h - the findings as a list, and what their writers share
 * (findings.c: the story's kernels, the limits, traffic and the seeds' claims, and
 * the helpers; findings_compare.c: GPUs, tuning, element types, small sizes;
 * findings_profiles.c: the kernel ladder and the seed kernels as written). Private
 * to findings*.c (findings_claims.c: each finding's numbers with their rows). */
#ifndef MMB_REPORT_FINDINGS_IMPL_H
#define MMB_REPORT_FINDINGS_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "report/input/data.h"
#include "report/input/state.h"
#include "report/input/tune_groups.h"

#define MMB_REPORT_FINDINGS_MAX 24

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

struct mmb_report_finding {
    char lead[320];   /* a few words, bold: "The course profile's kernels, H100 80GB HBM3, 4096" */
    char text[2048];  /* plain text with numbers; the writers escape it */
    bool tuning;      /* what a tuning run found: reports/tuning.md's, not the README's */
    struct mmb_report_claims claims; /* its numbers' provenance, where recorded (findings_claims.h) */
};

/* Fills out (MMB_REPORT_FINDINGS_MAX entries) and returns how many. */
size_t mmb_report_findings(const struct mmb_report *rep, struct mmb_report_finding *out);

struct mmb_report_findings_ctx {
    const struct mmb_report *rep;
    const struct mmb_report_data *d;
    int primary;  /* first measured GPU with rows at the reference size; -1 none */
    int cublas;
    char ref[96], sel[64];
};

/* The context every finding is written in: the primary GPU, cuBLAS, the reference
 * size and the selection as text. */
void mmb_report_findings_ctx_init(const struct mmb_report *rep, struct mmb_report_findings_ctx *c);

/* Appends to f->text, never past its end. */
void mmb_report_finding_add(struct mmb_report_finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Numbers as findings write them, into buf (16 bytes): 0.28 / 9.6 / 77 percent,
 * TFLOP/s from GFLOP/s, ratios of two decimals. */
const char *mmb_report_finding_pct(double v, char *buf);
const char *mmb_report_finding_tflops(double gflops, char *buf);
const char *mmb_report_finding_ratio(double v, char *buf);

const struct mmb_report_row *mmb_report_finding_best(const struct mmb_report_findings_ctx *c, size_t g, size_t k,
                                                     size_t s);
/* at the reference size; NULL without one */
const struct mmb_report_row *mmb_report_finding_at_ref(const struct mmb_report_findings_ctx *c, size_t g, size_t k);
int mmb_report_finding_kernel(const struct mmb_report_data *d, const char *name); /* -1 when absent */
bool mmb_report_finding_measured(const struct mmb_report_data *d, size_t g);    /* not published, has rows */
bool mmb_report_finding_square(const struct mmb_report_shape *s);
double mmb_report_finding_dram_bytes(const struct mmb_report_row *r); /* read + write; NaN unknown */
double mmb_report_finding_dram_pct(const struct mmb_report_row *r);
/* "H100 80GB HBM3", "GTX TITAN X (published)" */
void mmb_report_finding_gpu(const struct mmb_report_findings_ctx *c, size_t g, char *out, size_t len);

/* Each writes one finding and returns true, or false when the data does not carry it.
 * findings_compare.c: GPU generations a and b, the published GPU g against profile p,
 * tuned group j, cuBLAS, the element types, the small sizes. */
bool mmb_report_findings_compare_generations(const struct mmb_report_findings_ctx *c, size_t a, size_t b,
                                             struct mmb_report_finding *f);
bool mmb_report_findings_compare_published(const struct mmb_report_findings_ctx *c, size_t p, size_t g,
                                           struct mmb_report_finding *f);
bool mmb_report_findings_compare_tuning(const struct mmb_report_findings_ctx *c,
                                        const struct mmb_report_tune_group *gs, size_t ngroups, size_t j,
                                        struct mmb_report_finding *f);
bool mmb_report_findings_compare_cublas(const struct mmb_report_findings_ctx *c, struct mmb_report_finding *f);
bool mmb_report_findings_compare_dtypes(const struct mmb_report_findings_ctx *c, struct mmb_report_finding *f);
bool mmb_report_findings_compare_small(const struct mmb_report_findings_ctx *c, struct mmb_report_finding *f);
/* findings_profiles.c: the Kernel ladder of profile p on GPU g, the Seed kernels as written of profile p. */
bool mmb_report_findings_profiles_ladder(const struct mmb_report_findings_ctx *c, size_t p, size_t g,
                                         struct mmb_report_finding *f);
bool mmb_report_findings_profiles_seeds(const struct mmb_report_findings_ctx *c, size_t p,
                                        struct mmb_report_finding *f);

/* findings_summary.c's sentences, each a "- " line ending in a newline, for the summary
 * and the slides: the ladder profile to show and a GPU with its rows (false: none);
 * ladder p on GPU g; the story's fastest kernel on GPU g; two GPUs side by side. */
bool mmb_report_findings_summary_ladder_pick(const struct mmb_report_findings_ctx *c, size_t *p, size_t *g);
void mmb_report_findings_summary_ladder(const struct mmb_report_findings_ctx *c, size_t p, size_t g,
                               struct mmb_report_finding *f);
void mmb_report_findings_summary_story(const struct mmb_report_findings_ctx *c, size_t g, struct mmb_report_finding *f);
void mmb_report_findings_summary_gpus(const struct mmb_report_findings_ctx *c, struct mmb_report_finding *f);

#endif
