/* csv_impl.h - what the CSV reader (csv.c) lends the writer (csv_writer.c): the
 * quoting rule and the migration of a file of an older header. Not for other modules. */
#ifndef MMB_CSV_IMPL_H
#define MMB_CSV_IMPL_H

#include <stdbool.h>
#include <stddef.h>

/* Whether a cell must be quoted: a comma, quote or line break in it, or blanks at
 * either end (which a reader could trim). */
bool mmb_csv_cell_needs_quotes(const char *s);

/* Parses buf (path names it in messages) as CSV, calling fn with each record's fields
 * and the line it starts on; fn's non-zero stops it with fn's message in err.
 * Returns 0, or -1 with err "path:line: ..." (malformed CSV, a NUL byte). */
typedef int (*mmb_csv_record_fn)(void *ctx, const char *const *fields, size_t n, long line, char *err,
                                 size_t errlen);
int mmb_csv_records(const char *path, const char *buf, size_t len, mmb_csv_record_fn fn, void *ctx, char *err,
                    size_t errlen);

/* The text of a results file (buf, len: whole lines) under this mmbench's header: its
 * columns in the table's order, the cells of the columns it lacks empty, every other
 * cell as it was (not parsed and printed again: no digit is lost). *out is NULL when
 * the header is the table's already (nothing to do); else a malloc'd text of *outlen
 * bytes, *added the columns it gained. -1 with err "path:line: ..." for a header that
 * names a column the table lacks (it would be dropped), names one twice or lacks a
 * required one, for a row of another field count, and for malformed CSV. */
int mmb_csv_migrate_text(const char *path, const char *buf, size_t len, char **out, size_t *outlen, size_t *added,
                         char *err, size_t errlen);

#endif
