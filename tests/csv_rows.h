/* csv_rows.h - for tests: every row of a results CSV, read back into memory. */
#ifndef MMB_TEST_CSV_ROWS_H
#define MMB_TEST_CSV_ROWS_H

#include <check.h>
#include <stdlib.h>

#include "results/csv.h"

struct collected {
    struct mmb_row *rows;
    size_t n, cap;
};

static inline int collect(void *ctx, const struct mmb_row *row, const char *path, long line, char *err,
                          size_t errlen)
{
    struct collected *c = ctx;
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 64;
        c->rows = realloc(c->rows, c->cap * sizeof *c->rows);
        ck_assert_ptr_nonnull(c->rows);
    }
    c->rows[c->n++] = *row;
    return 0;
}

/* Every row of csv; fails the test when it cannot be read. Free .rows after. */
static inline struct collected read_csv(const char *csv)
{
    struct collected c = {0};
    char err[1024];
    ck_assert_msg(mmb_csv_read(csv, collect, &c, err, sizeof err) == 0, "%s", err);
    return c;
}

#endif
