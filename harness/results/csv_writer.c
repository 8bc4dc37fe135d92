/* csv_writer.c - the append-only, resumable writer of results CSVs: the keys of the
 * rows already in the file (a resumed sweep skips them), a half-written last line cut
 * off, each row appended whole under a lock, and a per-GPU run lock. */
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
#include "core/hash.h"
#include "results/columns.h"

static bool cell_needs_quotes(const char *s)
{
    if (s[0] == ' ' || s[0] == '\t')
        return true;
    size_t n = strlen(s);
    if (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        return true;
    return strpbrk(s, ",\"\r\n") != NULL;
}

/* The keys of the rows in the file: an open-addressing set of strings. */
struct key_set {
    char **slots;
    size_t cap, count;
};

struct mmb_csv_writer {
    int fd;
    char *path;
    size_t rows;
    struct key_set keys; /* configuration and GPU: mmb_csv_writer_has */
    struct key_set runs; /* configuration alone: mmb_csv_writer_has_any_gpu */
};

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

/* Remembers a row's keys, with and without its GPU. */
static int keys_add(struct mmb_csv_writer *w, const struct mmb_row *row)
{
    char key[MMB_ROW_KEY_LEN];
    mmb_row_key(row, true, key, sizeof key);
    if (key_set_add(&w->keys, key) != 0)
        return -1;
    mmb_row_key(row, false, key, sizeof key);
    return key_set_add(&w->runs, key);
}

static int writer_existing_row(void *ctx, const struct mmb_row *row, const char *path, long line,
                               char *err, size_t errlen)
{
    struct mmb_csv_writer *w = ctx;
    if (keys_add(w, row) != 0) {
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
    char *buf = mmb_file_read_regular(w->path, MMB_CSV_MAX_BYTES, "CSV file", &len, err, errlen);
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
        rc = mmb_csv_read_buffer(w->path, buf, len, true, writer_existing_row, w, err, errlen);
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
        if (stat_ok)
            mmb_errorf(err, errlen, "%s: %s, not a regular file: expected a CSV file for the results", path,
                       mmb_file_kind(st.st_mode));
        else
            mmb_errorf(err, errlen, "%s: fstat: %s", path, strerror(errno));
        mmb_csv_writer_close(w);
        return NULL;
    }
    /* Under the appenders' lock: workers of several GPUs that open a new file at once
     * would each write its header, and a partial line cut off here may be a row another
     * worker is writing. */
    int locked;
    while ((locked = flock(w->fd, LOCK_EX)) != 0 && errno == EINTR)
        ;
    if (locked != 0) {
        mmb_errorf(err, errlen, "%s: flock: %s", path, strerror(errno));
        mmb_csv_writer_close(w);
        return NULL;
    }
    int rc = writer_load(w, err, errlen);
    flock(w->fd, LOCK_UN);
    if (rc != 0) {
        mmb_csv_writer_close(w);
        return NULL;
    }
    return w;
}

bool mmb_csv_writer_has(const struct mmb_csv_writer *w, const struct mmb_row *row)
{
    char key[MMB_ROW_KEY_LEN];
    mmb_row_key(row, true, key, sizeof key);
    return key_set_has(&w->keys, key);
}

bool mmb_csv_writer_has_any_gpu(const struct mmb_csv_writer *w, const struct mmb_row *row)
{
    char key[MMB_ROW_KEY_LEN];
    mmb_row_key(row, false, key, sizeof key);
    return key_set_has(&w->runs, key);
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
    if (keys_add(w, row) != 0) {
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
    key_set_free(&w->runs);
    free(w->path);
    free(w);
}
