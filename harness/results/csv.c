/* csv.c - the append-only resumable writer and the reader of results CSVs. Cells
 * go through the column table (columns.c); libcsv parses and quotes. */
#include "results/csv.h"

#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"
#include "results/columns.h"

/* "kernel, params, dtype, m, n, k and status": the columns every file must have. */
static void required_list(char *out, size_t len)
{
    size_t o = 0, total = 0, seen = 0;
    for (const struct mmb_column *c = mmb_columns; c->name; c++)
        total += c->required != MMB_REQUIRED_NO;
    out[0] = '\0';
    for (const struct mmb_column *c = mmb_columns; c->name && o < len; c++) {
        if (c->required == MMB_REQUIRED_NO)
            continue;
        const char *sep = seen == 0 ? "" : seen + 1 == total ? " and " : ", ";
        int w = snprintf(out + o, len - o, "%s%s", sep, c->name);
        if (w < 0)
            break;
        o += (size_t)w;
        seen++;
    }
}

static bool cell_needs_quotes(const char *s)
{
    if (s[0] == ' ' || s[0] == '\t')
        return true;
    size_t n = strlen(s);
    if (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        return true;
    return strpbrk(s, ",\"\r\n") != NULL;
}

/* ---- records: libcsv fed one physical line at a time ------------------------ */

struct record {
    char *buf;        /* fields, each NUL-terminated, back to back */
    size_t len, cap;
    size_t *offs;     /* start of each field in buf */
    size_t nfields, fcap;
};

typedef int (*record_fn)(void *ctx, const struct record *rec, long line, char *err, size_t errlen);

struct parse_state {
    struct record rec;
    record_fn fn;
    void *ctx;
    long line;          /* physical line being fed */
    long rec_line;      /* line where the current record began */
    bool between;       /* no field of a record seen yet */
    int failed;         /* 1: fn or memory failed; further callbacks do nothing */
    char *err;
    size_t errlen;
};

static void on_field(void *s, size_t len, void *data)
{
    struct parse_state *st = data;
    struct record *r = &st->rec;
    if (st->failed)
        return;
    if (r->nfields == r->fcap) {
        size_t cap = r->fcap ? 2 * r->fcap : 64;
        size_t *offs = realloc(r->offs, cap * sizeof *offs);
        if (!offs)
            goto oom;
        r->offs = offs;
        r->fcap = cap;
    }
    if (r->len + len + 1 > r->cap) {
        size_t cap = r->cap ? r->cap : 1024;
        while (cap < r->len + len + 1)
            cap *= 2;
        char *buf = realloc(r->buf, cap);
        if (!buf)
            goto oom;
        r->buf = buf;
        r->cap = cap;
    }
    r->offs[r->nfields++] = r->len;
    if (len)
        memcpy(r->buf + r->len, s, len);
    r->buf[r->len + len] = '\0';
    r->len += len + 1;
    return;
oom:
    mmb_errorf(st->err, st->errlen, "out of memory");
    st->failed = 1;
}

static void on_record(int c, void *data)
{
    struct parse_state *st = data;
    (void)c;
    if (!st->failed && st->fn(st->ctx, &st->rec, st->rec_line, st->err, st->errlen) != 0)
        st->failed = 1;
    st->rec.len = 0;
    st->rec.nfields = 0;
    st->between = true;
}

static const char *record_field(const struct record *r, size_t i)
{
    return r->buf + r->offs[i];
}

/* Parses buf as CSV, calling fn for each record with the line it starts on.
 * Errors are "path:line: ..." in err. */
static int records_parse(const char *path, const char *buf, size_t len, record_fn fn, void *ctx,
                         char *err, size_t errlen)
{
    struct csv_parser p;
    if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0) {
        mmb_errorf(err, errlen, "%s: csv_init: out of memory", path);
        return -1;
    }
    struct parse_state st = {.fn = fn, .ctx = ctx, .between = true, .err = err, .errlen = errlen};
    char msg[1024] = "";
    st.err = msg;
    st.errlen = sizeof msg;
    int rc = 0;
    size_t pos = 0;
    while (pos < len && !st.failed) {
        const char *nl = memchr(buf + pos, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - (buf + pos)) + 1 : len - pos;
        st.line++;
        if (st.between)
            st.rec_line = st.line;
        /* A record whose first field is empty reports no field until its end,
         * so "between" is cleared by any non-blank input, not only by fields. */
        if (strspn(buf + pos, "\r\n") < n)
            st.between = false;
        if (csv_parse(&p, buf + pos, n, on_field, on_record, &st) != n) {
            mmb_errorf(err, errlen, "%s:%ld: malformed CSV (%s): expected a quote only at the start of a field, doubled inside it, or closing it before a comma or the end of the line",
                       path, st.line, csv_strerror(csv_error(&p)));
            rc = -1;
            break;
        }
        pos += n;
    }
    if (rc == 0 && !st.failed && csv_fini(&p, on_field, on_record, &st) != 0) {
        mmb_errorf(err, errlen, "%s:%ld: malformed CSV: expected a closing quote before the end of the file",
                   path, st.rec_line);
        rc = -1;
    }
    if (rc == 0 && st.failed) {
        mmb_errorf(err, errlen, "%s", msg);
        rc = -1;
    }
    csv_free(&p);
    free(st.rec.buf);
    free(st.rec.offs);
    return rc;
}

/* ---- reader ------------------------------------------------------------------ */

struct reader {
    const char *path;
    const struct mmb_column **map; /* per file column: table column or NULL */
    size_t ncols;
    bool header_done;
    int (*row_fn)(void *ctx, const struct mmb_row *row, const char *path, long line, char *err,
                  size_t errlen);
    void *ctx;
    bool exact_header;             /* the writer: the header must be the table's */
};

static int header_check_exact(struct reader *rd, const struct record *rec, char *err, size_t errlen)
{
    size_t want = mmb_columns_count();
    for (size_t i = 0; i < want || i < rec->nfields; i++) {
        const char *have = i < rec->nfields ? record_field(rec, i) : NULL;
        const char *expect = i < want ? mmb_columns[i].name : NULL;
        if (have && expect && strcmp(have, expect) == 0)
            continue;
        if (!have)
            mmb_errorf(err, errlen, "%s:1: header differs from mmbench's columns: it ends at column %zu, expected '%s' there; write to a new file",
                       rd->path, i + 1, expect);
        else if (!expect)
            mmb_errorf(err, errlen, "%s:1: header differs from mmbench's columns: column %zu '%s' is not one of them; write to a new file",
                       rd->path, i + 1, have);
        else
            mmb_errorf(err, errlen, "%s:1: header differs from mmbench's columns at column %zu: found '%s', expected '%s'; write to a new file",
                       rd->path, i + 1, have, expect);
        return -1;
    }
    return 0;
}

static int header_map(struct reader *rd, const struct record *rec, char *err, size_t errlen)
{
    if (rd->exact_header && header_check_exact(rd, rec, err, errlen) != 0)
        return -1;
    rd->map = calloc(rec->nfields ? rec->nfields : 1, sizeof *rd->map);
    if (!rd->map) {
        mmb_errorf(err, errlen, "%s:1: out of memory", rd->path);
        return -1;
    }
    rd->ncols = rec->nfields;
    for (size_t i = 0; i < rec->nfields; i++) {
        const struct mmb_column *c = mmb_column_find(record_field(rec, i));
        for (size_t j = 0; c && j < i; j++) {
            if (rd->map[j] == c) {
                mmb_errorf(err, errlen, "%s:1: column '%s' appears twice in the header", rd->path, c->name);
                return -1;
            }
        }
        rd->map[i] = c;
    }
    for (const struct mmb_column *c = mmb_columns; c->name; c++) {
        if (c->required == MMB_REQUIRED_NO)
            continue;
        bool found = false;
        for (size_t i = 0; i < rd->ncols && !found; i++)
            found = rd->map[i] == c;
        if (!found) {
            char list[256];
            required_list(list, sizeof list);
            mmb_errorf(err, errlen, "%s:1: header lacks the required column '%s' (a CSV of mmbench results must have %s)",
                       rd->path, c->name, list);
            return -1;
        }
    }
    return 0;
}

static int reader_record(void *ctx, const struct record *rec, long line, char *err, size_t errlen)
{
    struct reader *rd = ctx;
    if (!rd->header_done) {
        rd->header_done = true;
        return header_map(rd, rec, err, errlen);
    }
    if (rec->nfields != rd->ncols) {
        mmb_errorf(err, errlen, "%s:%ld: expected %zu fields as in the header, found %zu", rd->path, line,
                   rd->ncols, rec->nfields);
        return -1;
    }
    struct mmb_row row;
    mmb_row_init(&row);
    for (size_t i = 0; i < rec->nfields; i++) {
        const struct mmb_column *c = rd->map[i];
        if (!c)
            continue;
        const char *text = record_field(rec, i);
        char msg[768];
        if (mmb_column_parse(c, text, &row, msg, sizeof msg) != 0) {
            mmb_errorf(err, errlen, "%s:%ld: %s", rd->path, line, msg);
            return -1;
        }
        if (c->required == MMB_REQUIRED_VALUE && text[0] == '\0') {
            mmb_errorf(err, errlen, "%s:%ld: column '%s': expected a value, found an empty cell", rd->path, line,
                       c->name);
            return -1;
        }
    }
    char msg[768] = "";
    if (rd->row_fn(rd->ctx, &row, rd->path, line, msg, sizeof msg) != 0) {
        mmb_errorf(err, errlen, "%s", msg[0] ? msg : "stopped by the caller");
        return -1;
    }
    return 0;
}

static int reader_run(struct reader *rd, const char *buf, size_t len, char *err, size_t errlen)
{
    if (len == 0) {
        mmb_errorf(err, errlen, "%s:1: expected the CSV header line, found an empty file", rd->path);
        return -1;
    }
    int rc = records_parse(rd->path, buf, len, reader_record, rd, err, errlen);
    if (rc == 0 && !rd->header_done) {
        mmb_errorf(err, errlen, "%s:1: expected the CSV header line, found only blank lines", rd->path);
        rc = -1;
    }
    free(rd->map);
    rd->map = NULL;
    return rc;
}

int mmb_csv_read(const char *path, mmb_csv_row_fn fn, void *ctx, char *err, size_t errlen)
{
    size_t len;
    char *buf = mmb_file_read(path, &len, err, errlen);
    if (!buf)
        return -1;
    struct reader rd = {.path = path, .row_fn = fn, .ctx = ctx};
    int rc = reader_run(&rd, buf, len, err, errlen);
    free(buf);
    return rc;
}

/* ---- writer ------------------------------------------------------------------ */

/* The keys of the rows in the file: an open-addressing set of strings. */
struct key_set {
    char **slots;
    size_t cap, count;
};

struct mmb_csv_writer {
    int fd;
    char *path;
    size_t rows;
    struct key_set keys;
};

/* The cells of the key and config columns, each followed by \x1f (unit separator),
 * which occurs in no name, params or dtype, so that joined cells cannot collide. */
static void row_key(const struct mmb_row *row, char *out, size_t len)
{
    size_t o = 0;
    out[0] = '\0';
    for (const struct mmb_column *c = mmb_columns; c->name && o < len; c++) {
        if (c->role != MMB_ROLE_KEY && c->role != MMB_ROLE_CONFIG)
            continue;
        char cell[512];
        mmb_column_format(c, row, cell, sizeof cell);
        int w = snprintf(out + o, len - o, "%s\x1f", cell);
        if (w < 0)
            break;
        o += (size_t)w;
    }
}

static int key_set_grow(struct key_set *s)
{
    size_t cap = s->cap ? 2 * s->cap : 256;
    char **slots = calloc(cap, sizeof *slots);
    if (!slots)
        return -1;
    for (size_t i = 0; i < s->cap; i++) {
        if (!s->slots[i])
            continue;
        size_t h = (size_t)mmb_hash_bytes(MMB_FNV_SEED, s->slots[i], strlen(s->slots[i])) & (cap - 1);
        while (slots[h])
            h = (h + 1) & (cap - 1);
        slots[h] = s->slots[i];
    }
    free(s->slots);
    s->slots = slots;
    s->cap = cap;
    return 0;
}

static bool key_set_has(const struct key_set *s, const char *key)
{
    if (s->cap == 0)
        return false;
    size_t h = (size_t)mmb_hash_bytes(MMB_FNV_SEED, key, strlen(key)) & (s->cap - 1);
    while (s->slots[h]) {
        if (strcmp(s->slots[h], key) == 0)
            return true;
        h = (h + 1) & (s->cap - 1);
    }
    return false;
}

static int key_set_add(struct key_set *s, const char *key)
{
    if (key_set_has(s, key))
        return 0;
    if (2 * (s->count + 1) > s->cap && key_set_grow(s) != 0)
        return -1;
    char *copy = strdup(key);
    if (!copy)
        return -1;
    size_t h = (size_t)mmb_hash_bytes(MMB_FNV_SEED, key, strlen(key)) & (s->cap - 1);
    while (s->slots[h])
        h = (h + 1) & (s->cap - 1);
    s->slots[h] = copy;
    s->count++;
    return 0;
}

static void key_set_free(struct key_set *s)
{
    for (size_t i = 0; i < s->cap; i++)
        free(s->slots[i]);
    free(s->slots);
    s->slots = NULL;
    s->cap = s->count = 0;
}

static int write_all(int fd, const char *path, const char *buf, size_t len, char *err, size_t errlen)
{
    while (len > 0) {
        ssize_t w = write(fd, buf, len);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            mmb_errorf(err, errlen, "%s: write: %s", path, strerror(errno));
            return -1;
        }
        buf += w;
        len -= (size_t)w;
    }
    return 0;
}

/* The header line, with its newline. */
static size_t header_format(char *out, size_t len)
{
    size_t o = 0;
    for (const struct mmb_column *c = mmb_columns; c->name; c++) {
        int w = snprintf(out + o, o < len ? len - o : 0, "%s%s", c == mmb_columns ? "" : ",", c->name);
        o += (size_t)(w > 0 ? w : 0);
    }
    if (o + 1 < len) {
        out[o] = '\n';
        out[o + 1] = '\0';
    }
    return o + 1;
}

/* The whole line for a row, newline included. Returns its length, or 0 when out
 * is too small. */
static size_t row_format(const struct mmb_row *row, char *out, size_t len)
{
    size_t o = 0;
    for (const struct mmb_column *c = mmb_columns; c->name; c++) {
        char cell[1024];
        mmb_column_format(c, row, cell, sizeof cell);
        if (c != mmb_columns) {
            if (o + 1 >= len)
                return 0;
            out[o++] = ',';
        }
        size_t n = strlen(cell);
        if (cell_needs_quotes(cell)) {
            size_t need = csv_write(out + o, len - o, cell, n);
            if (need >= len - o)
                return 0;
            o += need;
        } else {
            if (o + n >= len)
                return 0;
            memcpy(out + o, cell, n);
            o += n;
        }
    }
    if (o + 2 > len)
        return 0;
    out[o++] = '\n';
    out[o] = '\0';
    return o;
}

static int writer_existing_row(void *ctx, const struct mmb_row *row, const char *path, long line,
                               char *err, size_t errlen)
{
    struct mmb_csv_writer *w = ctx;
    char key[1024];
    row_key(row, key, sizeof key);
    if (key_set_add(&w->keys, key) != 0) {
        mmb_errorf(err, errlen, "%s:%ld: out of memory", path, line);
        return -1;
    }
    w->rows++;
    return 0;
}

/* Loads the rows already in the file, cutting a partial last line first. */
static int writer_load(struct mmb_csv_writer *w, char *err, size_t errlen)
{
    size_t len;
    char *buf = mmb_file_read(w->path, &len, err, errlen);
    if (!buf)
        return -1;
    char header[4096];
    size_t hlen = header_format(header, sizeof header);
    size_t keep = len;
    while (keep > 0 && buf[keep - 1] != '\n')
        keep--;
    if (keep == 0 && len > 0 && len < hlen && memcmp(buf, header, len) == 0)
        keep = 0; /* killed while writing the header: start over */
    else if (keep == 0 && len > 0)
        keep = len; /* no newline at all: let the header check say what is wrong */
    int rc = 0;
    if (keep < len) {
        /* A run killed in the middle of write(2) left part of a row: cut it, so
         * the file holds whole rows only and the row is measured again. */
        if (ftruncate(w->fd, (off_t)keep) != 0) {
            mmb_errorf(err, errlen, "%s: ftruncate: %s", w->path, strerror(errno));
            rc = -1;
        }
        len = keep;
    }
    if (rc == 0 && len == 0)
        rc = write_all(w->fd, w->path, header, hlen, err, errlen);
    else if (rc == 0) {
        struct reader rd = {.path = w->path, .row_fn = writer_existing_row, .ctx = w, .exact_header = true};
        rc = reader_run(&rd, buf, len, err, errlen);
    }
    free(buf);
    return rc;
}

struct mmb_csv_writer *mmb_csv_writer_open(const char *path, char *err, size_t errlen)
{
    struct mmb_csv_writer *w = calloc(1, sizeof *w);
    if (!w || !(w->path = strdup(path))) {
        mmb_errorf(err, errlen, "%s: out of memory", path);
        free(w);
        return NULL;
    }
    /* O_APPEND: every row lands at the end, whatever else holds the file open. */
    w->fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NONBLOCK, 0644);
    if (w->fd < 0) {
        mmb_errorf(err, errlen, "%s: cannot open for appending: %s", path, strerror(errno));
        free(w->path);
        free(w);
        return NULL;
    }
    struct stat st;
    bool stat_ok = fstat(w->fd, &st) == 0;
    if (!stat_ok || !S_ISREG(st.st_mode)) {
        mmb_errorf(err, errlen, "%s: %s; expected a regular file for the results", path,
                   stat_ok ? "not a regular file" : strerror(errno));
        mmb_csv_writer_close(w);
        return NULL;
    }
    if (writer_load(w, err, errlen) != 0) {
        mmb_csv_writer_close(w);
        return NULL;
    }
    return w;
}

bool mmb_csv_writer_has(const struct mmb_csv_writer *w, const struct mmb_row *row)
{
    char key[1024];
    row_key(row, key, sizeof key);
    return key_set_has(&w->keys, key);
}

int mmb_csv_append_row(struct mmb_csv_writer *w, const struct mmb_row *row, char *err, size_t errlen)
{
    char line[16384];
    size_t n = row_format(row, line, sizeof line);
    if (n == 0) {
        mmb_errorf(err, errlen, "%s: row for %s %s longer than %zu bytes", w->path, row->kernel, row->params,
                   sizeof line);
        return -1;
    }
    /* One writer at a time (workers of several GPUs may share a file), and a row that
     * could not be written whole (a full disk) is cut off again: no half row stays. */
    while (flock(w->fd, LOCK_EX) != 0) {
        if (errno != EINTR) {
            mmb_errorf(err, errlen, "%s: flock: %s", w->path, strerror(errno));
            return -1;
        }
    }
    struct stat st;
    int rc = fstat(w->fd, &st);
    if (rc != 0)
        mmb_errorf(err, errlen, "%s: fstat: %s", w->path, strerror(errno));
    else if ((rc = write_all(w->fd, w->path, line, n, err, errlen)) != 0) {
        char what[512];
        snprintf(what, sizeof what, "%s", err);
        if (ftruncate(w->fd, st.st_size) != 0)
            mmb_errorf(err, errlen, "%s; cutting the half row off failed too (%s): the next run removes it",
                       what, strerror(errno));
        else
            mmb_errorf(err, errlen, "%s; the row was not kept: run again to go on once that is fixed", what);
    }
    flock(w->fd, LOCK_UN);
    if (rc != 0)
        return -1;
    char key[1024];
    row_key(row, key, sizeof key);
    if (key_set_add(&w->keys, key) != 0) {
        mmb_errorf(err, errlen, "%s: out of memory", w->path);
        return -1;
    }
    w->rows++;
    return 0;
}

int mmb_csv_writer_lock(struct mmb_csv_writer *w, const char *owner, char *err, size_t errlen)
{
    /* An open-file-description lock on one byte far past any real data, chosen by the
     * owner's name: held while the writer is open, gone with its process, so that a
     * killed run leaves no stale lock; other owners lock other bytes. */
    uint64_t h = 1469598103934665603ull;
    for (const char *c = owner; *c; c++)
        h = (h ^ (unsigned char)*c) * 1099511628211ull;
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET,
                       .l_start = (off_t)((1ull << 62) + (h % (1ull << 30))), .l_len = 1};
    if (fcntl(w->fd, F_OFD_SETLK, &fl) == 0)
        return 0;
    if (errno == EAGAIN || errno == EACCES)
        mmb_errorf(err, errlen, "%s is being written by another mmbench run or tune on %s; expected one at a "
                   "time: wait for it to end, or write elsewhere with -o", w->path, owner);
    else
        mmb_errorf(err, errlen, "%s: fcntl(F_OFD_SETLK): %s", w->path, strerror(errno));
    return -1;
}

size_t mmb_csv_writer_rows(const struct mmb_csv_writer *w)
{
    return w->rows;
}

void mmb_csv_writer_close(struct mmb_csv_writer *w)
{
    if (!w)
        return;
    if (w->fd >= 0)
        close(w->fd); /* write(2) already put every row in the file: nothing to lose here */
    key_set_free(&w->keys);
    free(w->path);
    free(w);
}
