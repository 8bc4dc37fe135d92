/* tune_history.h - the resume cache of a tune: the rows the results file already
 * holds for one (GPU model, kernel, problem), by configuration index. */
#ifndef MMB_TUNE_HISTORY_H
#define MMB_TUNE_HISTORY_H

#include <stdbool.h>
#include <stddef.h>

#include "model/profile.h"
#include "results/row.h"

/* Rows already in the results for one (kernel, problem). */
struct mmb_tune_history;

struct mmb_tune_history *mmb_tune_history_new(void);
void mmb_tune_history_free(struct mmb_tune_history *h);
/* Which rows of the file count when loading: keep(ctx, index, row) false leaves a row
 * out (a row measured otherwise than the tune would measure it now: results/resume.h),
 * counted by mmb_tune_history_left_out. Without a filter every row counts. */
void mmb_tune_history_filter(struct mmb_tune_history *h,
                             bool (*keep)(void *ctx, size_t index, const struct mmb_row *row), void *ctx);
/* The rows the filter left out, over every load. */
size_t mmb_tune_history_left_out(const struct mmb_tune_history *h);
/* Remembers row as configuration index's result: a later add replaces it as
 * mmb_row_version_replaces says (results/resume.h). */
int mmb_tune_history_add(struct mmb_tune_history *h, size_t index, const struct mmb_row *row);
/* NULL when index has no row. */
const struct mmb_row *mmb_tune_history_find(const struct mmb_tune_history *h, size_t index);
/* Calls fn for every remembered row, in no particular order. */
void mmb_tune_history_each(const struct mmb_tune_history *h,
                           void (*fn)(void *ctx, size_t index, const struct mmb_row *row), void *ctx);

/* Writes the remembered rows to t4_path as Kernel Tuner T4 results (results/t4.h), in
 * the order they were measured (timestamp, then configuration index). compile_ms (may
 * be NULL) gives a configuration's compile time in ms, NaN when unknown. *count gets
 * the number of results. */
int mmb_tune_history_export_t4(const struct mmb_tune_history *h, const char *objective,
                               double (*compile_ms)(void *ctx, size_t index), void *ctx, const char *t4_path,
                               size_t *count, char *err, size_t errlen);

/* Reads the rows of csv_path that belong to kernel at identity's problem (kernel
 * name, dtype, m, n, k and cache equal) into h; a missing file is an empty history.
 * Rows whose params are no longer in the space are skipped and counted in *stale.
 * Rows of every GPU of identity's model are used (a configuration another GPU of the
 * model measured is not measured again); a row of another model (gpu differs, when
 * identity has one) is an error: one results file per GPU model. Loading into a
 * history that holds rows adds the file's (rows that other workers appended since). */
int mmb_tune_history_load(struct mmb_tune_history *h, const char *csv_path, const struct mmb_kernel_spec *kernel,
                          const struct mmb_row *identity, size_t *loaded, size_t *stale, char *err, size_t errlen);

#endif
