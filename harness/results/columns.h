/* columns.h - the CSV columns: one table that says, for every field of a row, its
 * CSV name and type, what it is (role), whether a file must have it, which
 * direction is better, its unit and its description. The writer, the reader, the
 * row key, the tuner's objectives and the T4 export all read it, so no other list
 * of columns exists. Also the text of one cell in each direction. */
#ifndef MMB_COLUMNS_H
#define MMB_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>

#include "model/profile.h"
#include "results/row_fields.h"

enum mmb_col_type { MMB_COL_STR, MMB_COL_INT, MMB_COL_REAL, MMB_COL_STATUS };

/* What a column says about its row. Only outcome, time, counter, derived and static
 * numbers are results of the configuration (mmb_column_is_result). */
enum mmb_col_role {
    MMB_ROLE_IDENTITY, /* where, when and how it was measured: GPU, software, profile,
                        * timed launches, the GPU's peaks, the time stamp */
    MMB_ROLE_DEVICE,   /* the one GPU that measured it (gpu_uuid): GPUs of one model share
                        * a folder and may share a file, where each has its own rows */
    MMB_ROLE_KEY,      /* the problem: kernel, dtype, m, n, k, cache (mmb_row_same_problem) */
    MMB_ROLE_CONFIG,   /* the configuration in the kernel's space: with the key and the
                        * device, one row per file (mmb_csv_writer_has) */
    MMB_ROLE_OUTCOME,  /* status, reason, error against the reference */
    MMB_ROLE_TIME,     /* event timing and the SM clock */
    MMB_ROLE_COUNTER,  /* hardware counters (results/metrics.h fills them) */
    MMB_ROLE_DERIVED,  /* computed from other columns (mmb_row_derive) */
    MMB_ROLE_STATIC,   /* the compiled kernel's resources */
};

/* What the reader demands of a file. */
enum mmb_col_required {
    MMB_REQUIRED_NO,     /* a file may lack it: its cells read as empty */
    MMB_REQUIRED_COLUMN, /* in every file's header; a cell may be empty (params: cuBLAS has none) */
    MMB_REQUIRED_VALUE,  /* in every header and every row: without it a row cannot be told
                          * apart from another or judged */
};

/* The direction an objective on the column takes without :min or :max: higher is
 * maximised, lower and none minimised. */
enum mmb_col_better { MMB_BETTER_NONE, MMB_BETTER_LOWER, MMB_BETTER_HIGHER };

/* What a cell may hold besides being empty; the reader refuses anything else with
 * the file and line, so that no impossible value reaches a figure or a loop. */
enum mmb_col_domain {
    MMB_DOMAIN_TEXT,     /* any text without a NUL */
    MMB_DOMAIN_DTYPE,    /* a name of core/dtype's table: f32, f64, i32, f16, ... */
    MMB_DOMAIN_PIPE,     /* a name of core/dtype's pipe table: fp32, tensor_f16, ... */
    MMB_DOMAIN_CACHE,    /* a name of core/cache's table: cold, hot */
    MMB_DOMAIN_LIMITER,  /* a name of mmb_limiter_table (limiter.h) */
    MMB_DOMAIN_COUNT,    /* an integer of at least 1: sizes, SMs, repeats */
    MMB_DOMAIN_NONNEG,   /* a finite number of at least 0: counts, bytes, percentages */
    MMB_DOMAIN_ERROR,    /* at least 0, or inf: an error against a reference, which an
                          * output element left unwritten (NaN) makes infinite */
    MMB_DOMAIN_POSITIVE, /* a finite number from 1e-300 to 1e300: times, rates, peaks */
    MMB_DOMAIN_STATUS,   /* a name of core/status's table */
    MMB_DOMAIN_STOP,     /* a name of core/converge's mmb_stop_table: why timing stopped */
    MMB_DOMAIN_THROTTLE, /* "none", or words of core/throttle's table joined by '+', each once */
    MMB_DOMAIN_ENERGY_STATUS, /* a name of core/counters.h's energy status table */
};

struct mmb_column {
    const char *name;       /* CSV header */
    enum mmb_col_type type;
    size_t offset;          /* offsetof(struct mmb_row, field) */
    size_t size;            /* sizeof the field (strings: buffer size) */
    enum mmb_col_role role;
    enum mmb_col_required required;
    enum mmb_col_better better;
    enum mmb_col_domain domain;
    const char *unit;       /* "" when none; T4 measurements carry it */
    const char *description;
};

extern const struct mmb_column mmb_columns[]; /* in CSV order, ends with a NULL name */
size_t mmb_columns_count(void);
const struct mmb_column *mmb_column_find(const char *name);

/* A number the configuration produced (role outcome, time, counter, derived or
 * static, type int or real): what a tune may optimise and T4 lists as measurements. */
bool mmb_column_is_result(const struct mmb_column *c);
/* A column of the energy phase: power_w, energy_j, gflops_per_watt. */
bool mmb_column_is_energy(const struct mmb_column *c);
/* The cell of a numeric column as a double; NaN when empty or not numeric. */
double mmb_column_number(const struct mmb_column *c, const struct mmb_row *row);

/* The cell's text as the CSV holds it, unquoted: "" when empty, line breaks as
 * spaces, reals as mmb_csv_round describes. */
void mmb_column_format(const struct mmb_column *c, const struct mmb_row *row, char *out, size_t len);
/* Parses one cell into the row and checks it against the column's domain. Returns
 * 0, or -1 with err "column 'x': expected ..., found '...'". */
int mmb_column_parse(const struct mmb_column *c, const char *text, struct mmb_row *row, char *err,
                     size_t errlen);

/* v as a real cell is written and read back: integral values (below 1e18) exactly,
 * others to 9 significant digits; NaN stays NaN. A resumed tune reads its scores
 * from the CSV, so the tuner rounds fresh ones with this to replay the same path. */
double mmb_csv_round(double v);

/* Every kernel's `motivation` of a profile (the counter that motivated its change, for
 * the report's worklog) is empty or names a measured column (a counter, a derived or a
 * static number): returns 0, else -1 with err "path:line: ...". */
int mmb_profile_check_motivations(const struct mmb_profile *p, char *err, size_t errlen);

#endif
