/* csv.c - the reader of results CSVs: libcsv fed one physical line at a time, the
 * header mapped to the column table (columns.c), each cell parsed through it. The
 * writer is csv_writer.c. */
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

#include "core/error.h"
#include "core/file.h"
#include "results/columns.h"
#include "results/csv_impl.h"

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

/* ---- records: libcsv fed one physical line at a time ------------------------ */

struct record {
    char *buf;        /* fields, each NUL-terminated, back to back */
    size_t len, cap;
    size_t *offs;     /* start of each field in buf */
    size_t nfields, fcap;
};

typedef int (*record_fn)(void *ctx, const struct record *rec, long line, char *err, size_t errlen);

struct parse_state {
    const char *path;
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
    if (len && memchr(s, '\0', len)) {
        /* a cell is C text from here on: a NUL would cut it silently */
        mmb_errorf(st->err, st->errlen, "%s:%ld: field %zu holds a NUL byte: expected text", st->path, st->line,
                   r->nfields + 1);
        st->failed = 1;
        return;
    }
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

/* The physical line at p, its end included: LF, CR LF, or a bare CR (old Mac
 * files; libcsv ends a record on either), so that line numbers count them all. */
static size_t line_length(const char *p, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (p[i] == '\n')
            return i + 1;
        if (p[i] == '\r')
            return i + 1 < len && p[i + 1] == '\n' ? i + 2 : i + 1;
    }
    return len;
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
    struct parse_state st = {.path = path, .fn = fn, .ctx = ctx, .between = true, .err = err, .errlen = errlen};
    char msg[1024] = "";
    st.err = msg;
    st.errlen = sizeof msg;
    int rc = 0;
    size_t pos = 0;
    while (pos < len && !st.failed) {
        size_t n = line_length(buf + pos, len - pos);
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

struct records_ctx {
    mmb_csv_record_fn fn;
    void *ctx;
    const char **fields;
    size_t cap;
};

static int records_forward(void *ctx, const struct record *rec, long line, char *err, size_t errlen)
{
    struct records_ctx *c = ctx;
    if (rec->nfields > c->cap) {
        const char **f = realloc(c->fields, rec->nfields * sizeof *f);
        if (!f)
            return mmb_failf(err, errlen, "out of memory");
        c->fields = f;
        c->cap = rec->nfields;
    }
    for (size_t i = 0; i < rec->nfields; i++)
        c->fields[i] = record_field(rec, i);
    return c->fn(c->ctx, c->fields, rec->nfields, line, err, errlen);
}

int mmb_csv_records(const char *path, const char *buf, size_t len, mmb_csv_record_fn fn, void *ctx, char *err,
                    size_t errlen)
{
    struct records_ctx c = {fn, ctx, NULL, 0};
    int rc = records_parse(path, buf, len, records_forward, &c, err, errlen);
    free(c.fields);
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

int mmb_csv_read_buffer(const char *path, const char *buf, size_t len, bool exact_header, mmb_csv_row_fn fn,
                        void *ctx, char *err, size_t errlen)
{
    struct reader rd = {.path = path, .row_fn = fn, .ctx = ctx, .exact_header = exact_header};
    return reader_run(&rd, buf, len, err, errlen);
}

int mmb_csv_read(const char *path, mmb_csv_row_fn fn, void *ctx, char *err, size_t errlen)
{
    size_t len;
    char *buf = mmb_file_read_regular(path, MMB_CSV_MAX_BYTES, "CSV file", &len, err, errlen);
    if (!buf)
        return -1;
    int rc = mmb_csv_read_buffer(path, buf, len, false, fn, ctx, err, errlen);
    free(buf);
    return rc;
}

int mmb_csv_read_appended(const char *path, mmb_csv_row_fn fn, void *ctx, bool *partial, char *err, size_t errlen)
{
    size_t len;
    char *buf = mmb_file_read_regular(path, MMB_CSV_MAX_BYTES, "CSV file", &len, err, errlen);
    if (!buf)
        return -1;
    size_t keep = len;
    while (keep > 0 && buf[keep - 1] != '\n')
        keep--;
    if (keep == 0)
        keep = len; /* no newline at all: the reader says what is wrong with it */
    if (partial)
        *partial = keep < len;
    int rc = mmb_csv_read_buffer(path, buf, keep, false, fn, ctx, err, errlen);
    free(buf);
    return rc;
}

/* ---- migration: an older header to this table's ------------------------------ */

bool mmb_csv_cell_needs_quotes(const char *s)
{
    if (s[0] == ' ' || s[0] == '\t')
        return true;
    size_t n = strlen(s);
    if (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        return true;
    return strpbrk(s, ",\"\r\n") != NULL;
}

struct migration {
    const char *path;
    size_t ncols;         /* the table's */
    long *from;           /* [table column]: the file's field, -1 when the file lacks it */
    size_t nfields;       /* the file's header */
    bool header_done, current;
    char *out;
    size_t len, cap;
    size_t added;         /* table columns the file lacked */
};

static int out_append(struct migration *m, const char *s, size_t n, bool quote, char *err, size_t errlen)
{
    size_t need = quote ? 2 * n + 3 : n;
    if (m->len + need + 2 > m->cap) {
        size_t cap = m->cap ? m->cap : 4096;
        while (cap < m->len + need + 2)
            cap *= 2;
        char *grown = realloc(m->out, cap);
        if (!grown)
            return mmb_failf(err, errlen, "%s: out of memory", m->path);
        m->out = grown;
        m->cap = cap;
    }
    m->len += quote ? csv_write(m->out + m->len, m->cap - m->len, s, n) : (memcpy(m->out + m->len, s, n), n);
    return 0;
}

static int migration_header(struct migration *m, const struct record *rec, char *err, size_t errlen)
{
    m->nfields = rec->nfields;
    m->current = rec->nfields == m->ncols;
    for (size_t c = 0; c < m->ncols; c++)
        m->from[c] = -1;
    for (size_t i = 0; i < rec->nfields; i++) {
        const char *name = record_field(rec, i);
        const struct mmb_column *c = mmb_column_find(name);
        if (!c)
            return mmb_failf(err, errlen, "%s:1: column '%s' is not one of mmbench's columns: rewriting the file to "
                             "this mmbench's header would drop it; write to a new file (-o)", m->path, name);
        size_t at = (size_t)(c - mmb_columns);
        if (m->from[at] >= 0)
            return mmb_failf(err, errlen, "%s:1: column '%s' appears twice in the header", m->path, name);
        m->from[at] = (long)i;
        m->current = m->current && at == i;
    }
    for (size_t c = 0; c < m->ncols; c++) {
        m->added += m->from[c] < 0;
        if (m->from[c] < 0 && mmb_columns[c].required != MMB_REQUIRED_NO) {
            char list[256];
            required_list(list, sizeof list);
            return mmb_failf(err, errlen, "%s:1: header lacks the required column '%s' (a CSV of mmbench results "
                             "must have %s)", m->path, mmb_columns[c].name, list);
        }
    }
    for (size_t c = 0; c < m->ncols && !m->current; c++) {
        if (out_append(m, c ? "," : "", c ? 1 : 0, false, err, errlen) != 0 ||
            out_append(m, mmb_columns[c].name, strlen(mmb_columns[c].name), false, err, errlen) != 0)
            return -1;
    }
    return m->current ? 0 : out_append(m, "\n", 1, false, err, errlen);
}

static int migration_record(void *ctx, const struct record *rec, long line, char *err, size_t errlen)
{
    struct migration *m = ctx;
    if (!m->header_done) {
        m->header_done = true;
        return migration_header(m, rec, err, errlen);
    }
    if (m->current)
        return 0;
    if (rec->nfields != m->nfields)
        return mmb_failf(err, errlen, "%s:%ld: expected %zu fields as in the header, found %zu", m->path, line,
                         m->nfields, rec->nfields);
    for (size_t c = 0; c < m->ncols; c++) {
        const char *cell = m->from[c] >= 0 ? record_field(rec, (size_t)m->from[c]) : "";
        if ((c && out_append(m, ",", 1, false, err, errlen) != 0) ||
            out_append(m, cell, strlen(cell), mmb_csv_cell_needs_quotes(cell), err, errlen) != 0)
            return -1;
    }
    return out_append(m, "\n", 1, false, err, errlen);
}

int mmb_csv_migrate_text(const char *path, const char *buf, size_t len, char **out, size_t *outlen, size_t *added,
                         char *err, size_t errlen)
{
    struct migration m = {.path = path, .ncols = mmb_columns_count()};
    *out = NULL;
    *outlen = 0;
    *added = 0;
    if (!(m.from = calloc(m.ncols, sizeof *m.from)))
        return mmb_failf(err, errlen, "%s: out of memory", path);
    int rc = records_parse(path, buf, len, migration_record, &m, err, errlen);
    if (rc == 0 && !m.header_done)
        rc = mmb_failf(err, errlen, "%s:1: expected the CSV header line, found only blank lines", path);
    free(m.from);
    if (rc != 0 || m.current) {
        free(m.out);
        return rc;
    }
    *out = m.out;
    *outlen = m.len;
    *added = m.added;
    return 0;
}
