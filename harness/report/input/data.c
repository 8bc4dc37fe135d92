/* data.c - reads the CSVs for the report (every row checked: see row_check and
 * the column domains), the values a figure needs from a row, and the shapes'
 * labels; select.c picks what is drawn. */
#include "report/input/data.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "core/error.h"
#include "core/file.h"
#include "report/input/story.h"
#include "results/csv.h"
#include "results/csv_samples.h"
#include "results/resume.h"

/* ---- loading ------------------------------------------------------------------- */

_Static_assert(sizeof(struct mmb_report_row) <= MMB_REPORT_ROW_BYTES,
               "a report row outgrew MMB_REPORT_ROW_BYTES: measure the memory again and say so in data.h");

struct load_ctx {
    struct mmb_report_data *d;
    size_t file;
};

/* What the report demands of a row beyond each cell's domain (columns.h). */
static int row_check(const struct mmb_row *row, const char *path, long line, char *err, size_t errlen)
{
    if (row->status == MMB_STATUS_OK && isnan(row->time_ms_median))
        return mmb_failf(err, errlen, "%s:%ld: column 'time_ms_median': expected the median time of an ok row, found an empty cell",
                         path, line);
    if (row->time_ms_min > row->time_ms_median || row->time_ms_median > row->time_ms_max)
        return mmb_failf(err, errlen, "%s:%ld: expected time_ms_min <= time_ms_median <= time_ms_max, found %g, %g and %g",
                         path, line, row->time_ms_min, row->time_ms_median, row->time_ms_max);
    return 0;
}

static int load_row(void *ctx, const struct mmb_row *row, const char *path, long line, char *err,
                    size_t errlen)
{
    struct load_ctx *lc = ctx;
    struct mmb_report_data *d = lc->d;
    if (row_check(row, path, line, err, errlen) != 0)
        return -1;
    if (d->nrows == MMB_REPORT_ROWS_MAX)
        return mmb_failf(err, errlen, "%s:%ld: more than %d rows in the inputs: the report reads at most that many (name fewer CSV files)",
                         path, line, MMB_REPORT_ROWS_MAX);
    if (d->nrows == d->caprows) {
        /* by a quarter: at most a quarter of the array unused (data.h's memory) */
        size_t cap = d->caprows ? d->caprows + d->caprows / 4 : 1024;
        cap = cap < MMB_REPORT_ROWS_MAX ? cap : MMB_REPORT_ROWS_MAX;
        struct mmb_report_row *rows = realloc(d->rows, cap * sizeof *rows);
        if (!rows) {
            mmb_errorf(err, errlen, "%s:%ld: out of memory", path, line);
            return -1;
        }
        d->rows = rows;
        d->caprows = cap;
    }
    struct mmb_report_row *r = &d->rows[d->nrows++];
    memset(r, 0, sizeof *r);
    r->r = *row;
    r->file = lc->file;
    r->line = line;
    r->shape = -1;
    r->published = mmb_report_story_published(row->reason);
    struct mmb_report_file *f = &d->files[lc->file];
    f->rows++;
    f->published += r->published;
    if ((unsigned)row->status < MMB_STATUS_COUNT)
        f->by_status[row->status]++;
    return 0;
}

/* A CSV may carry a note for the report next to it: x.csv and x.md. A note behind a
 * link to nothing is left out, and d's warnings say so. */
static int note_read(struct mmb_report_data *d, const char *csv, char **note, char *err, size_t errlen)
{
    *note = NULL;
    size_t n = strlen(csv);
    if (n < 4 || strcmp(csv + n - 4, ".csv") != 0)
        return 0;
    char path[4096];
    if (n >= sizeof path) {
        mmb_errorf(err, errlen, "%s: path too long", csv);
        return -1;
    }
    snprintf(path, sizeof path, "%.*s.md", (int)(n - 4), csv);
    struct stat st;
    char why[1200];
    if (stat(path, &st) != 0) {
        int e = errno;
        if (mmb_file_dangling(path, why, sizeof why)) {
            char warning[sizeof path + sizeof why + sizeof path + 64];
            snprintf(warning, sizeof warning, "%s: %s; %s is read without its note", path, why, csv);
            mmb_join_append(d->warnings, sizeof d->warnings, "; ", warning);
            return 0;
        }
        if (e == ENOENT)
            return 0;
        mmb_errorf(err, errlen, "%s: stat: %s", path, strerror(e));
        return -1;
    }
    *note = mmb_file_read_regular(path, (size_t)1 << 20, "note (Markdown text)", NULL, err, errlen);
    return *note ? 0 : -1;
}

/* [a, b) without blanks on either side and without one pair of backticks. */
static void cell_trim(const char **a, const char **b)
{
    while (*a < *b && (**a == ' ' || **a == '\t'))
        (*a)++;
    while (*b > *a && ((*b)[-1] == ' ' || (*b)[-1] == '\t' || (*b)[-1] == '\r'))
        (*b)--;
}

bool mmb_report_data_note_kernel(const char *note, const char *kernel, char *out, size_t len)
{
    size_t klen = strlen(kernel);
    for (const char *line = note; note && *line;) {
        const char *end = line + strcspn(line, "\n"), *p = line;
        while (p < end && *p == ' ')
            p++;
        const char *bar1 = p < end && *p == '|' ? p : NULL;
        const char *bar2 = bar1 ? memchr(bar1 + 1, '|', (size_t)(end - bar1 - 1)) : NULL;
        if (bar2) {
            const char *a = bar1 + 1, *b = bar2;
            cell_trim(&a, &b);
            if (b - a >= 2 && *a == '`' && b[-1] == '`')
                a++, b--;
            /* the last cell: between the last two bars, or after the last one */
            const char *last_end = end;
            while (last_end > bar2 && (last_end[-1] == ' ' || last_end[-1] == '\r'))
                last_end--;
            if (last_end > bar2 && last_end[-1] == '|')
                last_end--;
            const char *last = last_end;
            while (last > bar2 && last[-1] != '|')
                last--;
            cell_trim(&last, &last_end);
            if ((size_t)(b - a) == klen && strncmp(a, kernel, klen) == 0 && last < last_end) {
                snprintf(out, len, "%.*s", (int)(last_end - last), last);
                return true;
            }
        }
        line = *end ? end + 1 : end;
    }
    return false;
}

struct keyed {
    char *key;
    size_t row;
};

static int keyed_cmp(const void *a, const void *b)
{
    const struct keyed *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->row > y->row) - (x->row < y->row);
}

/* Of the rows d->rows[first..nrows) of one file, keeps those that count, one per
 * configuration on each GPU and profile (results/resume.h), in file order; the others are counted
 * as the file's superseded rows and left out of its counts. */
static int drop_superseded(struct mmb_report_data *d, size_t first, char *err, size_t errlen)
{
    size_t n = d->nrows - first;
    if (n < 2)
        return 0;
    struct keyed *k = calloc(n, sizeof *k);
    bool *keep = calloc(n, sizeof *keep);
    if (!k || !keep) {
        free(k);
        free(keep);
        return mmb_failf(err, errlen, "out of memory");
    }
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        /* a file may hold the rows of several profiles (-o): each keeps its own */
        char key[MMB_ROW_KEY_LEN + 80];
        const struct mmb_row *r = &d->rows[first + i].r;
        size_t len = (size_t)snprintf(key, sizeof key, "%s\x1f", r->profile);
        mmb_row_key(r, true, key + len, sizeof key - len);
        k[i] = (struct keyed){strdup(key), i};
        if (!k[i].key && rc == 0)
            rc = mmb_failf(err, errlen, "out of memory");
    }
    if (rc != 0)
        goto out;
    qsort(k, n, sizeof *k, keyed_cmp);
    for (size_t i = 0; i < n;) {
        size_t end = i + 1, win = k[i].row;
        struct mmb_row_version vw, v;
        mmb_row_version_of(&d->rows[first + win].r, &vw);
        for (; end < n && !strcmp(k[end].key, k[i].key); end++) {
            mmb_row_version_of(&d->rows[first + k[end].row].r, &v);
            if (mmb_row_version_replaces(&vw, &v)) {
                win = k[end].row;
                vw = v;
            }
        }
        keep[win] = true;
        i = end;
    }
    size_t kept = first;
    for (size_t i = 0; i < n; i++) {
        struct mmb_report_row *r = &d->rows[first + i];
        if (keep[i]) {
            d->rows[kept++] = *r;
            continue;
        }
        struct mmb_report_file *f = &d->files[r->file];
        f->rows--;
        f->published -= r->published;
        if ((unsigned)r->r.status < MMB_STATUS_COUNT)
            f->by_status[r->r.status]--;
        f->superseded++;
    }
    d->nrows = kept;
out:
    for (size_t i = 0; i < n; i++)
        free(k[i].key);
    free(k);
    free(keep);
    return rc;
}

int mmb_report_data_add_csv(struct mmb_report_data *d, const char *path, const char *shown, char *err,
                            size_t errlen)
{
    if (mmb_samples_path_is(path))
        return mmb_failf(err, errlen, "%s: the side file of launch times of a results CSV, not one itself; expected "
                         "a results CSV (its samples are read with it)", path);
    struct mmb_report_file *files = realloc(d->files, (d->nfiles + 1) * sizeof *files);
    if (!files) {
        mmb_errorf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    d->files = files;
    struct mmb_report_file *f = &d->files[d->nfiles];
    memset(f, 0, sizeof *f);
    f->path = strdup(path);
    f->shown = strdup(shown);
    if (!f->path || !f->shown) {
        free(f->path);
        free(f->shown);
        mmb_errorf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    d->nfiles++;
    if (note_read(d, path, &f->note, err, errlen) != 0)
        return -1;
    struct load_ctx lc = {d, d->nfiles - 1};
    size_t first = d->nrows;
    if (mmb_csv_read(path, load_row, &lc, err, errlen) != 0 || mmb_samples_load(path, &f->samples, err, errlen) != 0)
        return -1;
    return drop_superseded(d, first, err, errlen);
}

void mmb_report_data_free(struct mmb_report_data *d)
{
    for (size_t i = 0; i < d->nfiles; i++) {
        free(d->files[i].path);
        free(d->files[i].shown);
        free(d->files[i].note);
        mmb_samples_free(d->files[i].samples);
    }
    free(d->files);
    free(d->rows);
    free(d->gpus);
    free(d->kernels);
    free(d->shapes);
    free(d->best);
    for (size_t p = 0; d->profiles && p < d->nprofiles; p++)
        free(d->profiles[p].docs);
    free(d->profiles);
    memset(d, 0, sizeof *d);
}
