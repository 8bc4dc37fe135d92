/* csv.h - results CSVs: an append-only writer that resumes interrupted sweeps, and a
 * reader (libcsv). The columns are results/columns.h's table. */
#ifndef MMB_CSV_H
#define MMB_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/row.h"

struct mmb_csv_writer;

/* The largest CSV file read (or resumed): a results file of a million rows is
 * about 300 MB; anything larger is refused, not read until memory runs out. */
#define MMB_CSV_MAX_BYTES ((size_t)256 << 20)

/* Opens path for appending: creates it with the header when absent or empty. A
 * trailing partial line left by a killed run is cut off. A file written by an older
 * mmbench (fewer columns, another order, every column one of this table's) is
 * rewritten once, atomically, under this table's header, the new cells empty and the
 * others as they were; a header naming a column this table lacks is refused (-1, err
 * names the file and the column). The keys of the rows present are remembered, each
 * with the version of its row that counts (results/resume.h), for
 * mmb_csv_writer_find. Another writer's rewrite of the file is followed when
 * appending. */
struct mmb_csv_writer *mmb_csv_writer_open(const char *path, char *err, size_t errlen);

/* The version of the row that counts for row's key in the file (results/resume.h),
 * NULL when there is none: with the GPU (any_gpu false), the same cells in the column
 * table's key, config and device columns (kernel, params, dtype, m, n, k, cache,
 * gpu_uuid); with any_gpu, the same without the device. */
struct mmb_row_version;
const struct mmb_row_version *mmb_csv_writer_find(const struct mmb_csv_writer *w, const struct mmb_row *row,
                                                  bool any_gpu);
/* The protocol text whose hash a version of this file carries (struct
 * mmb_row_version's protocol); NULL when not kept (a file of many protocols). */
const char *mmb_csv_writer_protocol(const struct mmb_csv_writer *w, uint64_t hash);
/* True when a row with the same key is already in the file: this configuration
 * measured on row's GPU. */
bool mmb_csv_writer_has(const struct mmb_csv_writer *w, const struct mmb_row *row);
/* The same without the device: this configuration measured on any GPU. A GPU that
 * sweeps alone takes a row of another GPU of its folder (its model) as done; GPUs of
 * one model that share a file at once each measure their own (mmb_csv_writer_has). */
bool mmb_csv_writer_has_any_gpu(const struct mmb_csv_writer *w, const struct mmb_row *row);

/* Formats the whole line first, writes it with one write(2), flushes to the file. */
int mmb_csv_append_row(struct mmb_csv_writer *w, const struct mmb_row *row, char *err, size_t errlen);
/* Holds the file for owner (a GPU's UUID) until the writer closes: a second run or
 * tune of the same owner on the same file gets -1 with a message. */
int mmb_csv_writer_lock(struct mmb_csv_writer *w, const char *owner, char *err, size_t errlen);
size_t mmb_csv_writer_rows(const struct mmb_csv_writer *w); /* rows in the file */
void mmb_csv_writer_close(struct mmb_csv_writer *w);

/* Reads every row of path; calls fn(ctx, row, path, line) for each (line is the
 * 1-based line of the row). Columns are matched by header name: columns the table
 * lacks are ignored, table columns the file lacks stay empty; the table's required
 * columns (kernel, params, dtype, m, n, k, status) must be there, and all but params
 * must hold a value in every row; each cell must hold what its column's domain
 * allows (columns.h). path must be a regular file of at most MMB_CSV_MAX_BYTES.
 * Returns 0, or -1 with err "path:line: what was expected" (also when fn returns
 * non-zero, with fn's message left in err). */
typedef int (*mmb_csv_row_fn)(void *ctx, const struct mmb_row *row, const char *path, long line,
                              char *err, size_t errlen);
int mmb_csv_read(const char *path, mmb_csv_row_fn fn, void *ctx, char *err, size_t errlen);
/* mmb_csv_read for a file another process may be appending to (the GPUs of one model
 * share a results file) or that a killed run left: rows are appended whole, so only
 * the last line can be part of a row, and a last line without its newline is left out
 * (*partial set; partial may be NULL). */
int mmb_csv_read_appended(const char *path, mmb_csv_row_fn fn, void *ctx, bool *partial, char *err,
                          size_t errlen);
/* The same over a file's text already in memory (path names it in messages). With
 * exact_header, the header must be mmbench's own columns in order (the writer's check). */
int mmb_csv_read_buffer(const char *path, const char *buf, size_t len, bool exact_header, mmb_csv_row_fn fn,
                        void *ctx, char *err, size_t errlen);

#endif
