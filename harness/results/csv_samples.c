/* csv_samples.c - the side file of raw launch times beside a results CSV
 * (csv_samples.h): written a line per row before the row, read into a map from the
 * row's key and time stamp to its times. */
#include "results/csv_samples.h"

#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "core/file.h"
#include "core/imap.h"
#include "core/stats.h"
#include "results/columns.h"
#include "results/csv.h"
#include "results/csv_impl.h"

#define SUFFIX ".samples.csv"
#define SAMPLES_PATH_MAX 4096
/* The key columns, then the time stamp and the times: the header of every side file. */
static const char *const header_names[] = {"gpu_uuid", "kernel", "params", "dtype",     "m",
                                           "n",        "k",      "cache",  "timestamp", "samples_ms"};
#define NFIELDS (sizeof header_names / sizeof header_names[0])

int mmb_samples_path(const char *csv_path, char *out, size_t len)
{
    size_t n = strlen(csv_path);
    if (n >= 4 && !strcmp(csv_path + n - 4, ".csv"))
        n -= 4;
    return (size_t)snprintf(out, len, "%.*s%s", (int)n, csv_path, SUFFIX) < len ? 0 : -1;
}

bool mmb_samples_path_is(const char *path)
{
    size_t n = strlen(path), s = strlen(SUFFIX);
    return n >= s && !strcmp(path + n - s, SUFFIX);
}

/* ---- writing ---------------------------------------------------------------------- */

struct mmb_samples_writer {
    int fd;
    char path[SAMPLES_PATH_MAX];
};

/* A growing text. */
struct text {
    char *s;
    size_t len, cap;
};

static int text_add(struct text *t, const char *s, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 1024;
        while (cap < t->len + n + 1)
            cap *= 2;
        char *grown = realloc(t->s, cap);
        if (!grown)
            return -1;
        t->s = grown;
        t->cap = cap;
    }
    memcpy(t->s + t->len, s, n);
    t->len += n;
    t->s[t->len] = '\0';
    return 0;
}

static int cell_add(struct text *t, const char *cell, bool first)
{
    if (!first && text_add(t, ",", 1) != 0)
        return -1;
    size_t n = strlen(cell);
    if (!mmb_csv_cell_needs_quotes(cell))
        return text_add(t, cell, n);
    char *q = malloc(2 * n + 3);
    if (!q)
        return -1;
    size_t m = csv_write(q, 2 * n + 3, cell, n);
    int rc = text_add(t, q, m);
    free(q);
    return rc;
}

static size_t header_text(char *out, size_t len)
{
    size_t o = 0;
    for (size_t i = 0; i < NFIELDS; i++)
        o += (size_t)snprintf(out + o, len - o, "%s%s", i ? "," : "", header_names[i]);
    o += (size_t)snprintf(out + o, len - o, "\n");
    return o;
}

static int write_whole(int fd, const char *path, const char *buf, size_t len, char *err, size_t errlen)
{
    while (len > 0) {
        ssize_t w = write(fd, buf, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return mmb_failf(err, errlen, "%s: write: %s", path, strerror(errno));
        buf += w;
        len -= (size_t)w;
    }
    return 0;
}

static int lock(int fd, const char *path, char *err, size_t errlen)
{
    while (flock(fd, LOCK_EX) != 0)
        if (errno != EINTR)
            return mmb_failf(err, errlen, "%s: flock: %s", path, strerror(errno));
    return 0;
}

/* Under the lock: a new file gets its header, a half last line is cut, another header
 * is refused. */
static int writer_prepare(struct mmb_samples_writer *w, char *err, size_t errlen)
{
    char header[256];
    size_t hlen = header_text(header, sizeof header);
    size_t len = 0;
    char *buf = mmb_file_read_regular(w->path, MMB_CSV_MAX_BYTES, "side file of samples", &len, err, errlen);
    if (!buf)
        return -1;
    size_t keep = len;
    while (keep > 0 && buf[keep - 1] != '\n')
        keep--;
    int rc = 0;
    if (keep > 0 && (keep < hlen || memcmp(buf, header, hlen) != 0))
        rc = mmb_failf(err, errlen, "%s:1: expected the header of a side file of samples (%.*s), found another; "
                       "move it away or write the results elsewhere (-o)", w->path, (int)(hlen - 1), header);
    else if (keep < len && ftruncate(w->fd, (off_t)keep) != 0)
        rc = mmb_failf(err, errlen, "%s: ftruncate: %s", w->path, strerror(errno));
    else if (keep == 0)
        rc = write_whole(w->fd, w->path, header, hlen, err, errlen);
    free(buf);
    return rc;
}

struct mmb_samples_writer *mmb_samples_writer_open(const char *csv_path, char *err, size_t errlen)
{
    struct mmb_samples_writer *w = calloc(1, sizeof *w);
    if (!w) {
        mmb_errorf(err, errlen, "%s: out of memory", csv_path);
        return NULL;
    }
    w->fd = -1;
    if (mmb_samples_path(csv_path, w->path, sizeof w->path) != 0) {
        mmb_errorf(err, errlen, "%s: path too long for its side file of samples", csv_path);
        goto fail;
    }
    w->fd = open(w->path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NONBLOCK, 0644);
    struct stat st;
    if (w->fd < 0) {
        mmb_errorf(err, errlen, "%s: cannot open for appending: %s", w->path, strerror(errno));
        goto fail;
    }
    if (fstat(w->fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        mmb_errorf(err, errlen, "%s: not a regular file: expected the side file of samples", w->path);
        goto fail;
    }
    if (lock(w->fd, w->path, err, errlen) != 0)
        goto fail;
    int rc = writer_prepare(w, err, errlen);
    flock(w->fd, LOCK_UN);
    if (rc == 0)
        return w;
fail:
    mmb_samples_writer_close(w);
    return NULL;
}

/* The shortest decimal that reads back as the same float (the events' precision). */
static void time_format(double v, char *out, size_t len)
{
    float f = (float)v;
    for (int digits = 6; digits <= 9; digits++) {
        snprintf(out, len, "%.*g", digits, (double)f);
        if ((float)strtod(out, NULL) == f)
            return;
    }
}

int mmb_samples_append(struct mmb_samples_writer *w, const struct mmb_row *row, const double *ms, size_t n,
                       char *err, size_t errlen)
{
    struct text t = {0};
    char cell[64];
    int rc = 0;
    for (size_t i = 0; i + 1 < NFIELDS && rc == 0; i++) {
        const struct mmb_column *c = mmb_column_find(header_names[i]);
        char text[1024];
        mmb_column_format(c, row, text, sizeof text);
        rc = cell_add(&t, text, i == 0);
    }
    rc = rc ? rc : text_add(&t, ",", 1);
    for (size_t i = 0; i < n && rc == 0; i++) {
        if (!isfinite(ms[i]) || ms[i] < 0) {
            free(t.s);
            return mmb_failf(err, errlen, "%s: launch %zu of %s %s took %g ms: expected a time", w->path, i + 1,
                             row->kernel, row->params, ms[i]);
        }
        time_format(ms[i], cell, sizeof cell);
        rc = (i && text_add(&t, " ", 1) != 0) || text_add(&t, cell, strlen(cell)) != 0;
    }
    rc = rc ? rc : text_add(&t, "\n", 1);
    if (rc != 0) {
        free(t.s);
        return mmb_failf(err, errlen, "%s: out of memory", w->path);
    }
    struct stat st;
    if ((rc = lock(w->fd, w->path, err, errlen)) == 0) {
        if (fstat(w->fd, &st) != 0)
            rc = mmb_failf(err, errlen, "%s: fstat: %s", w->path, strerror(errno));
        else if ((rc = write_whole(w->fd, w->path, t.s, t.len, err, errlen)) != 0 &&
                 ftruncate(w->fd, st.st_size) != 0)
            mmb_errorf(err, errlen, "%s: a line was written in part and could not be cut off: %s", w->path,
                       strerror(errno));
        flock(w->fd, LOCK_UN);
    }
    free(t.s);
    return rc;
}

void mmb_samples_writer_close(struct mmb_samples_writer *w)
{
    if (!w)
        return;
    if (w->fd >= 0)
        close(w->fd);
    free(w);
}

/* ---- reading ---------------------------------------------------------------------- */

struct entry {
    size_t first;   /* into the pool */
    size_t n;
};

struct mmb_samples_set {
    struct mmb_smap index; /* mmb_row_key with the device, then the time stamp: into entries */
    struct entry *entries;
    size_t count, cap;
    double *pool;
    size_t used, pool_cap;
    const char *path; /* while loading */
    bool header_done;
};

static void key_of(const struct mmb_row *row, char *out, size_t len)
{
    char key[MMB_ROW_KEY_LEN];
    mmb_row_key(row, true, key, sizeof key);
    snprintf(out, len, "%s%s", key, row->timestamp);
}

static struct entry *entry_of(const struct mmb_samples_set *s, const char *key)
{
    uintptr_t i;
    return mmb_smap_get(&s->index, key, &i) ? &s->entries[i] : NULL;
}

/* The entry of a key not seen before; NULL when out of memory. */
static struct entry *entry_add(struct mmb_samples_set *s, const char *key)
{
    if (s->count == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 256;
        struct entry *grown = realloc(s->entries, cap * sizeof *grown);
        if (!grown)
            return NULL;
        s->entries = grown;
        s->cap = cap;
    }
    if (mmb_smap_put(&s->index, key, s->count) != 0)
        return NULL;
    return &s->entries[s->count++];
}

/* Parses "t1 t2 ..." into the pool; -1 with err on anything but positive numbers. */
static int times_parse(struct mmb_samples_set *s, const char *text, long line, size_t *first, size_t *n, char *err,
                       size_t errlen)
{
    *first = s->used;
    *n = 0;
    for (const char *p = text; *p;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        char *end;
        errno = 0;
        double v = strtod(p, &end);
        if (end == p || (*end && *end != ' ') || errno || !isfinite(v) || v < 0)
            return mmb_failf(err, errlen, "%s:%ld: column 'samples_ms': expected times in ms separated by blanks, "
                             "found '%.*s'", s->path, line, (int)strcspn(p, " "), p);
        if (s->used == s->pool_cap) {
            size_t cap = s->pool_cap ? 2 * s->pool_cap : 4096;
            double *grown = realloc(s->pool, cap * sizeof *grown);
            if (!grown)
                return mmb_failf(err, errlen, "%s:%ld: out of memory", s->path, line);
            s->pool = grown;
            s->pool_cap = cap;
        }
        s->pool[s->used++] = (double)(float)v; /* written as the shortest text of a float */
        ++*n;
        p = end;
    }
    return 0;
}

static int load_record(void *ctx, const char *const *f, size_t n, long line, char *err, size_t errlen)
{
    struct mmb_samples_set *s = ctx;
    if (!s->header_done) {
        s->header_done = true;
        for (size_t i = 0; i < NFIELDS; i++)
            if (n != NFIELDS || strcmp(f[i], header_names[i]))
                return mmb_failf(err, errlen, "%s:%ld: expected the header of a side file of samples (gpu_uuid, "
                                 "kernel, params, dtype, m, n, k, cache, timestamp, samples_ms)", s->path, line);
        return 0;
    }
    if (n != NFIELDS)
        return mmb_failf(err, errlen, "%s:%ld: expected %zu fields as in the header, found %zu", s->path, line,
                         (size_t)NFIELDS, n);
    struct mmb_row row;
    mmb_row_init(&row);
    for (size_t i = 0; i + 1 < NFIELDS; i++) {
        char msg[512];
        if (mmb_column_parse(mmb_column_find(header_names[i]), f[i], &row, msg, sizeof msg) != 0)
            return mmb_failf(err, errlen, "%s:%ld: %s", s->path, line, msg);
    }
    size_t first, count;
    if (times_parse(s, f[NFIELDS - 1], line, &first, &count, err, errlen) != 0)
        return -1;
    char key[MMB_ROW_KEY_LEN + 64];
    key_of(&row, key, sizeof key);
    struct entry *e = entry_of(s, key);
    if (!e && !(e = entry_add(s, key)))
        return mmb_failf(err, errlen, "%s:%ld: out of memory", s->path, line);
    e->first = first; /* the last line of a key and time stamp */
    e->n = count;
    return 0;
}

int mmb_samples_load(const char *csv_path, struct mmb_samples_set **out, char *err, size_t errlen)
{
    char path[SAMPLES_PATH_MAX];
    struct mmb_samples_set *s = calloc(1, sizeof *s);
    *out = NULL;
    if (!s)
        return mmb_failf(err, errlen, "%s: out of memory", csv_path);
    if (mmb_samples_path(csv_path, path, sizeof path) != 0) {
        free(s);
        return mmb_failf(err, errlen, "%s: path too long for its side file of samples", csv_path);
    }
    struct stat st;
    if (stat(path, &st) != 0 && errno == ENOENT) {
        *out = s;
        return 0;
    }
    size_t len;
    char *buf = mmb_file_read_regular(path, MMB_CSV_MAX_BYTES, "side file of samples", &len, err, errlen);
    if (!buf) {
        free(s);
        return -1;
    }
    while (len > 0 && buf[len - 1] != '\n')
        len--; /* a line being appended */
    s->path = path;
    int rc = mmb_csv_records(path, buf, len, load_record, s, err, errlen);
    s->path = NULL;
    free(buf);
    if (rc != 0) {
        mmb_samples_free(s);
        return -1;
    }
    *out = s;
    return 0;
}

const double *mmb_samples_find(const struct mmb_samples_set *s, const struct mmb_row *row, size_t *n)
{
    char key[MMB_ROW_KEY_LEN + 64];
    *n = 0;
    if (!s || row->repeats == MMB_INT_EMPTY || isnan(row->time_ms_median))
        return NULL;
    key_of(row, key, sizeof key);
    const struct entry *e = entry_of(s, key);
    if (!e || e->n != (size_t)row->repeats)
        return NULL;
    double *sorted = malloc(e->n * sizeof *sorted);
    if (!sorted)
        return NULL;
    memcpy(sorted, s->pool + e->first, e->n * sizeof *sorted);
    struct mmb_stats st;
    mmb_stats_compute(sorted, e->n, &st);
    free(sorted);
    if (mmb_csv_round(st.median) != mmb_csv_round(row->time_ms_median))
        return NULL;
    *n = e->n;
    return s->pool + e->first;
}

size_t mmb_samples_count(const struct mmb_samples_set *s)
{
    return s ? s->count : 0;
}

void mmb_samples_free(struct mmb_samples_set *s)
{
    if (!s)
        return;
    mmb_smap_free(&s->index);
    free(s->entries);
    free(s->pool);
    free(s);
}
