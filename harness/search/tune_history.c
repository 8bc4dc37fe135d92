/* tune_history.c - the resume cache of a tune: the rows the results file already
 * holds for one (GPU, kernel, problem), by configuration index. The results CSV is
 * the cache file, so nothing can disagree with what was published. */
#include "search/tune_history.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/error.h"
#include "core/imap.h"
#include "model/space.h"
#include "results/csv.h"
#include "results/resume.h"
#include "results/t4/t4.h"

struct mmb_tune_history {
    struct mmb_imap rows; /* index -> struct mmb_row * */
    bool (*keep)(void *ctx, size_t index, const struct mmb_row *row);
    void *keep_ctx;
    size_t left_out;
};

void mmb_tune_history_filter(struct mmb_tune_history *h,
                             bool (*keep)(void *ctx, size_t index, const struct mmb_row *row), void *ctx)
{
    h->keep = keep;
    h->keep_ctx = ctx;
}

size_t mmb_tune_history_left_out(const struct mmb_tune_history *h)
{
    return h->left_out;
}

struct mmb_tune_history *mmb_tune_history_new(void)
{
    return calloc(1, sizeof(struct mmb_tune_history));
}

static void free_row(void *ctx, size_t index, uintptr_t value)
{
    free((void *)value);
}

void mmb_tune_history_free(struct mmb_tune_history *h)
{
    if (!h)
        return;
    mmb_imap_each(&h->rows, free_row, NULL);
    mmb_imap_free(&h->rows);
    free(h);
}

int mmb_tune_history_add(struct mmb_tune_history *h, size_t index, const struct mmb_row *row)
{
    uintptr_t old;
    if (mmb_imap_get(&h->rows, index, &old)) {
        struct mmb_row_version a, b;
        mmb_row_version_of((const struct mmb_row *)old, &a);
        mmb_row_version_of(row, &b);
        if (mmb_row_version_replaces(&a, &b))
            *(struct mmb_row *)old = *row;
        return 0;
    }
    struct mmb_row *copy = malloc(sizeof *copy);
    if (!copy)
        return -1;
    *copy = *row;
    if (mmb_imap_put(&h->rows, index, (uintptr_t)copy) != 0) {
        free(copy);
        return -1;
    }
    return 0;
}

const struct mmb_row *mmb_tune_history_find(const struct mmb_tune_history *h, size_t index)
{
    uintptr_t v;
    return mmb_imap_get(&h->rows, index, &v) ? (const struct mmb_row *)v : NULL;
}

struct each_ctx {
    void (*fn)(void *ctx, size_t index, const struct mmb_row *row);
    void *ctx;
};

static void each_row(void *ctx, size_t index, uintptr_t value)
{
    struct each_ctx *e = ctx;
    e->fn(e->ctx, index, (const struct mmb_row *)value);
}

void mmb_tune_history_each(const struct mmb_tune_history *h,
                           void (*fn)(void *ctx, size_t index, const struct mmb_row *row), void *ctx)
{
    struct each_ctx e = {fn, ctx};
    mmb_imap_each(&h->rows, each_row, &e);
}

/* ---- the T4 export ---------------------------------------------------------------------- */

struct entry {
    size_t index;
    const struct mmb_row *row;
};

struct collect {
    struct entry *v;
    size_t n;
};

static void collect_row(void *ctx, size_t index, const struct mmb_row *row)
{
    struct collect *c = ctx;
    c->v[c->n++] = (struct entry){index, row};
}

static int measured_cmp(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;
    int c = strcmp(x->row->timestamp, y->row->timestamp);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

int mmb_tune_history_export_t4(const struct mmb_tune_history *h, const char *objective,
                               double (*compile_ms)(void *ctx, size_t index), void *ctx, const char *t4_path,
                               size_t *count, char *err, size_t errlen)
{
    size_t n = h->rows.count;
    struct collect c = {malloc((n ? n : 1) * sizeof *c.v), 0};
    struct mmb_t4 *t4 = c.v ? mmb_t4_new(objective, err, errlen) : NULL;
    if (!t4) {
        free(c.v);
        return c.v ? -1 : mmb_failf(err, errlen, "out of host memory");
    }
    mmb_tune_history_each(h, collect_row, &c);
    qsort(c.v, c.n, sizeof *c.v, measured_cmp);
    int rc = 0;
    for (size_t i = 0; i < c.n && rc == 0; i++)
        rc = mmb_t4_add(t4, c.v[i].row, compile_ms ? compile_ms(ctx, c.v[i].index) : NAN, err, errlen);
    if (rc == 0)
        rc = mmb_t4_write(t4, t4_path, err, errlen);
    if (count)
        *count = mmb_t4_count(t4);
    mmb_t4_free(t4);
    free(c.v);
    return rc;
}

/* ---- loading ---------------------------------------------------------------------------- */

struct load_ctx {
    struct mmb_tune_history *h;
    const struct mmb_kernel_spec *kernel;
    const struct mmb_row *id;
    size_t loaded, stale;
};

static int load_row(void *ctx, const struct mmb_row *row, const char *path, long line, char *err, size_t errlen)
{
    struct load_ctx *c = ctx;
    const struct mmb_row *id = c->id;
    if (!mmb_row_same_problem(row, id))
        return 0;
    /* Another GPU of the model (a re-run elsewhere, or the GPUs of one node that split
     * the space) measured what this one would: its rows count. */
    if (id->gpu[0] && row->gpu[0] && strcmp(row->gpu, id->gpu)) {
        mmb_errorf(err, errlen, "%s:%ld: a row measured on %s (%s), but this tune runs on %s (%s); "
                   "expected one results file per GPU model (give another -o)", path, line, row->gpu,
                   row->gpu_uuid, id->gpu, id->gpu_uuid);
        return -1;
    }
    struct mmb_config cfg;
    size_t index;
    if (mmb_space_parse_params(c->kernel, row->params, &cfg, &index) != 0) {
        c->stale++; /* the profile's space changed since: not this space's result */
        return 0;
    }
    if (c->h->keep && !c->h->keep(c->h->keep_ctx, index, row)) {
        c->h->left_out++;
        return 0;
    }
    if (mmb_tune_history_add(c->h, index, row) != 0) {
        mmb_errorf(err, errlen, "%s:%ld: out of host memory", path, line);
        return -1;
    }
    c->loaded++;
    return 0;
}

int mmb_tune_history_load(struct mmb_tune_history *h, const char *csv_path, const struct mmb_kernel_spec *kernel,
                          const struct mmb_row *identity, size_t *loaded, size_t *stale, char *err, size_t errlen)
{
    struct load_ctx c = {.h = h, .kernel = kernel, .id = identity};
    struct stat st;
    if (loaded)
        *loaded = 0;
    if (stale)
        *stale = 0;
    if (stat(csv_path, &st) != 0) {
        if (errno == ENOENT)
            return 0; /* nothing measured yet: mmb_csv_writer_open creates it */
        mmb_errorf(err, errlen, "%s: cannot read: %s", csv_path, strerror(errno));
        return -1;
    }
    if (st.st_size == 0)
        return 0;
    /* GPUs of one model append to the file as it is read: a half row at its end is theirs. */
    int rc = mmb_csv_read_appended(csv_path, load_row, &c, NULL, err, errlen);
    if (loaded)
        *loaded = c.loaded;
    if (stale)
        *stale = c.stale;
    return rc;
}
