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
#include "results/compare/compare.h"

#define MMB_REPORT_FINDINGS_MAX 32

/* The formulas, each over the rows of the claim (a, b), with the CSV's own columns:
 *   tflops     2 m n k / (a.time_ms_median 1e-3) / 1e12
 *   speedup    a.time_ms_median / b.time_ms_median       (b is that many times faster)
 *   pct_time   100 a.time_ms_median / b.time_ms_median   (b reaches this % of a: cuBLAS first)
 *   pct_peak   100 (2 m n k / (a.time_ms_median 1e-3) / 1e9) / peak, peak the
 *              GFLOP/s the claim names (the row's pipe peak, a.peak_gflops for f32)
 *   column     a.<column> as it is (a counter percentage)
 *   traffic    (a.dram_read_bytes + a.dram_write_bytes) / compulsory bytes, those
 *              (m k + k n) x input size + m n x output size (docs/profiles.md)
 *   declared   100 (compulsory bytes / (a.time_ms_median 1e-3) / 1e9) / a.peak_gbps
 *   cell       a.<column> in the claim's format (mmb_report_findings_claim_format)
 *   compulsory a's compulsory bytes in the claim's format
 *   key        a's key as printed: column "size" (its shape label), "params" (its
 *              configuration's label: the same values in the same order) or
 *              "reason" (the compiler's line and message, within a.reason)
 *   count      how many items (rows, or pairs of rows: arity 2) satisfy the predicate
 *              "what": "status:S|T" (each row's status is one of them), "verdict:V|W"
 *              (each pair's verdict, mmbench compare's, is one of them), "within:F"
 *              (each pair's second time is at most F times its first), "params" (each
 *              pair holds one configuration), "kernels" (items of distinct kernels)
 *   mean       the mean of column over the items (rows), in the claim's format
 *   verdict    mmbench compare of b (new) against a (old) from their launch times (the
 *              CSVs' side files) or min and max: "what" the part shown, "ratio", "lo"
 *              or "hi" (format f3), or "verdict" (its word)
 *   setting    a constant of the program: "what" its name in the source file
 *              "column", times scale, in the claim's format
 *   device     a field of the GPU's line in data/<gpu>/bench/devices.txt: "what" one
 *              of sms, sm_mhz, l2_mib, peak_gbps, peak_gflops; a the GPU's row
 *   change     100 (a.<column> / b.<column> - 1) ("what" more) or 100 (1 - a.<column> /
 *              b.<column>) ("what" less), format f1 */
enum mmb_report_claim_formula {
    MMB_REPORT_CLAIM_TFLOPS,
    MMB_REPORT_CLAIM_SPEEDUP,
    MMB_REPORT_CLAIM_PCT_TIME,
    MMB_REPORT_CLAIM_PCT_PEAK,
    MMB_REPORT_CLAIM_COLUMN,
    MMB_REPORT_CLAIM_TRAFFIC,
    MMB_REPORT_CLAIM_DECLARED,
    MMB_REPORT_CLAIM_CELL,
    MMB_REPORT_CLAIM_COMPULSORY,
    MMB_REPORT_CLAIM_KEY,
    MMB_REPORT_CLAIM_COUNT,
    MMB_REPORT_CLAIM_MEAN,
    MMB_REPORT_CLAIM_VERDICT,
    MMB_REPORT_CLAIM_SETTING,
    MMB_REPORT_CLAIM_DEVICE,
    MMB_REPORT_CLAIM_CHANGE,
};

struct mmb_report_claim {
    enum mmb_report_claim_formula formula;
    const struct mmb_report_row *rows[2]; /* b is NULL for one-row formulas */
    char column[64];                      /* column, cell, mean, key; setting: its source file */
    char format[8];                       /* cell, compulsory, mean, setting */
    char what[48];                        /* count: its predicate; verdict: the part; setting, device: the name */
    double peak;                          /* pct_peak: GFLOP/s; setting: its scale */
    size_t first, nitems, arity;          /* count, mean: items in the pool */
    char text[256];                       /* as printed */
};

#define MMB_REPORT_CLAIMS_MAX 96
#define MMB_REPORT_CLAIMS_POOL 1024
struct mmb_report_claims {
    struct mmb_report_claim list[MMB_REPORT_CLAIMS_MAX];
    size_t n;
    const struct mmb_report_row *pool[MMB_REPORT_CLAIMS_POOL]; /* the items of counts and means */
    size_t npool;
};

struct mmb_report_finding {
    char lead[320];   /* a few words, bold: "The course profile's kernels, H100 80GB HBM3, 4096" */
    char text[2048];  /* plain text with numbers; the writers escape it */
    bool tuning;      /* what a tuning run found: reports/tuning.md's, not the README's */
    bool summary;     /* a sentence of the README's summary (its lead names it) */
    bool energy;      /* the Energy efficiency section's, in README.md, not a Key finding */
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
/* Whether new b's time differs from old a's beyond the noise: mmbench compare's verdict
 * (mmb_report_pairs_compare) FASTER or SLOWER, under one protocol. */
bool mmb_report_finding_differs(const struct mmb_report_findings_ctx *c, const struct mmb_report_row *a,
                                const struct mmb_report_row *b);
/* b's gain over a as findings print it, claimed: "×1.45" where the two differ beyond
 * the noise, else "×1.01, SAME" or "×1.01, UNSURE" (compare's verdict): no faster or
 * slower without it. */
const char *mmb_report_finding_gain(const struct mmb_report_findings_ctx *c, struct mmb_report_finding *f,
                                    const struct mmb_report_row *a, const struct mmb_report_row *b, char *out,
                                    size_t len);
/* Among n rows, those that do not differ from the fastest beyond the noise, as
 * " (not told apart by mmbench compare from X, Y)" into out (empty when none): a
 * "fastest" is only as sure as its verdict against them. */
void mmb_report_finding_ties(const struct mmb_report_findings_ctx *c, const struct mmb_report_row *fastest,
                             const struct mmb_report_row *const *rows, size_t n, char *out, size_t len);
/* "H100 80GB HBM3", "GTX TITAN X (published)" */
void mmb_report_finding_gpu(const struct mmb_report_findings_ctx *c, size_t g, char *out, size_t len);
/* "naive 1.01 [0.998, 1.02] SAME": compare's comparison of b (new) against a (old) as findings
 * write it, after kernel (none when ""), its numbers claimed. */
void mmb_report_finding_verdict(struct mmb_report_finding *f, const char *kernel, const struct mmb_report_row *a,
                                const struct mmb_report_row *b, const struct mmb_comparison *cmp, char *out, size_t len);

/* Each writes one finding and returns true, or false when the data does not carry it.
 * findings_compare.c: GPU generations a and b, the published GPU g against profile p,
 * cuBLAS, the element types, the small sizes; findings_compare_tuning.c: tuned group j. */
/* findings_gallery.c: a slide of slides.tex for each seed kernel that fails as written on the
 * primary GPU: the source line, the error and the fix. */
void mmb_report_findings_gallery_slides(FILE *f, const struct mmb_report_findings_ctx *c);
/* findings_seeds.c: seed 000's tiling claim, seed 004's bandwidth claim. */
bool mmb_report_findings_seeds_000(const struct mmb_report_findings_ctx *c, struct mmb_report_finding *f);
bool mmb_report_findings_seeds_004(const struct mmb_report_findings_ctx *c, struct mmb_report_finding *f);
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
/* The Energy efficiency section's finding (findings_energy.c): where the least-energy
 * configuration saves the most over the fastest. */
bool mmb_report_findings_energy(const struct mmb_report_findings_ctx *c, struct mmb_report_finding *f);
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
/* The whole summary in s (lead "Summary", its sentences "- " lines); the ladder shown
 * in *p, *g, and true, when there is one. */
bool mmb_report_findings_summary(const struct mmb_report *rep, struct mmb_report_finding *s, size_t *p, size_t *g);

#endif
