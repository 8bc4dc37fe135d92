/* t4.h - export of tuning results in the T4 results format of the auto-tuning
 * community (schema_version 1.0.0, as Kernel Tuner writes it with store_output_file),
 * so that Kernel Tuner's tools and the autotuning methodology can load them. */
#ifndef MMB_T4_H
#define MMB_T4_H

#include <stddef.h>

#include "results/row.h"

struct mmb_t4;

#define MMB_T4_SCHEMA_VERSION "1.0.0"

/* objective: the name listed in every result's "objectives" (e.g. "time"). */
struct mmb_t4 *mmb_t4_new(const char *objective, char *err, size_t errlen);
/* Appends one result; compile_ms is NaN when unknown (a row of an earlier run).
 * Returns 0, or -1 with err (params that are not name=integer pairs). */
int mmb_t4_add(struct mmb_t4 *t4, const struct mmb_row *row, double compile_ms, char *err, size_t errlen);
size_t mmb_t4_count(const struct mmb_t4 *t4);
/* Writes the document atomically. */
int mmb_t4_write(const struct mmb_t4 *t4, const char *path, char *err, size_t errlen);
void mmb_t4_free(struct mmb_t4 *t4);

/* The T4 file of one problem (the kernel, m, n, k and dtype of row) beside the
 * results file csv_path: <csv_path less .csv>-<kernel>-<m>x<n>x<k>-<dtype>.t4.json,
 * as `mmbench tune` writes it and the report links it. -1 when it does not fit out. */
int mmb_t4_path(const char *csv_path, const struct mmb_row *row, char *out, size_t len);

/* The T4 "invalidity" of a status (the status table's t4 text): correct, compile,
 * runtime, correctness or constraints. A result is correct when it is "correct". */
const char *mmb_t4_invalidity(enum mmb_status status);

#endif
