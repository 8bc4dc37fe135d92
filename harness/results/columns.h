/* columns.h - the CSV columns: one table (name, type, row field, unit, description)
 * that the writer, the reader, the tuner's objectives and the T4 export read, and
 * the text of one cell in each direction. */
#ifndef MMB_COLUMNS_H
#define MMB_COLUMNS_H

#include <stddef.h>

#include "results/row_fields.h"

enum mmb_col_type { MMB_COL_STR, MMB_COL_INT, MMB_COL_REAL, MMB_COL_STATUS };

struct mmb_column {
    const char *name;       /* CSV header */
    enum mmb_col_type type;
    size_t offset;          /* offsetof(struct mmb_row, field) */
    size_t size;            /* sizeof the field (strings: buffer size) */
    const char *unit;       /* "" when none */
    const char *description;
};

extern const struct mmb_column mmb_columns[]; /* in CSV order, ends with a NULL name */
size_t mmb_columns_count(void);
const struct mmb_column *mmb_column_find(const char *name);

/* The cell's text as the CSV holds it, unquoted: "" when empty. */
void mmb_column_format(const struct mmb_column *c, const struct mmb_row *row, char *out, size_t len);
/* Parses one cell into the row. Returns 0, or -1 with err "what was expected". */
int mmb_column_parse(const struct mmb_column *c, const char *text, struct mmb_row *row, char *err,
                     size_t errlen);

#endif
