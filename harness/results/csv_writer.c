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
#include "core/imap.h"
#include "results/columns.h"
#include "results/csv_impl.h"
#include "results/resume.h"

/* The keys of the rows in the file, each with the version of its row that counts
 * (results/resume.h): the key's index into versions. */
struct key_set {
    struct mmb_smap index;
    struct mmb_row_version *versions;
    size_t count, cap;
};

struct mmb_csv_writer {
    int fd;
    char *path;
    size_t rows;
    struct key_set keys; /* configuration and GPU: mmb_csv_writer_has */
    struct key_set runs; /* configuration alone: mmb_csv_writer_has_any_gpu */
    char *owner;         /* whose run lock it holds (mmb_csv_writer_lock), NULL: none */
    /* the protocol texts of its rows, by the hash their versions carry (a file holds a
     * few), to say how a stale row was measured; past the table's size, not kept */
    struct {
        uint64_t hash;
        char *text;
    } protocols[32];
    size_t nprotocols;
};

static int run_lock(struct mmb_csv_writer *w, const char *owner, char *err, size_t errlen);

static struct mmb_row_version *key_set_find(const struct key_set *s, const char *key)
{
    uintptr_t i;
    return mmb_smap_get(&s->index, key, &i) ? &s->versions[i] : NULL;
}

/* Adds key with version v, or keeps for it whichever of its version and v counts. */
static int key_set_add(struct key_set *s, const char *key, const struct mmb_row_version *v)
{
    struct mmb_row_version *old = key_set_find(s, key);
    if (old) {
        if (mmb_row_version_replaces(old, v))
            *old = *v;
        return 0;
    }
    if (s->count == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 256;
        struct mmb_row_version *grown = realloc(s->versions, cap * sizeof *grown);
        if (!grown)
            return -1;
        s->versions = grown;
        s->cap = cap;
    }
    if (mmb_smap_put(&s->index, key, s->count) != 0)
        return -1;
    s->versions[s->count++] = *v;
    return 0;
}

static void key_set_free(struct key_set *s)
{
    mmb_smap_free(&s->index);
    free(s->versions);
    s->versions = NULL;
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
        if (mmb_csv_cell_needs_quotes(cell)) {
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

/* Remembers a row's keys, with and without its GPU, and its protocol's text. */
static int keys_add(struct mmb_csv_writer *w, const struct mmb_row *row)
{
    char key[MMB_ROW_KEY_LEN];
    struct mmb_row_version v;
    mmb_row_version_of(row, &v);
    if (v.protocol && !mmb_csv_writer_protocol(w, v.protocol) &&
        w->nprotocols < sizeof w->protocols / sizeof w->protocols[0]) {
        if (!(w->protocols[w->nprotocols].text = strdup(row->protocol)))
            return -1;
        w->protocols[w->nprotocols++].hash = v.protocol;
    }
    mmb_row_key(row, true, key, sizeof key);
    if (key_set_add(&w->keys, key, &v) != 0)
        return -1;
    mmb_row_key(row, false, key, sizeof key);
    return key_set_add(&w->runs, key, &v);
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

static int writer_lock(int fd, const char *path, int how, char *err, size_t errlen)
{
    while (flock(fd, how) != 0) {
        if (errno != EINTR) {
            mmb_errorf(err, errlen, "%s: flock: %s", path, strerror(errno));
            return -1;
        }
    }
    return 0;
}

/* Opens path for appending into w->fd (closing the one before). */
static int writer_reopen(struct mmb_csv_writer *w, char *err, size_t errlen)
{
    int fd = open(w->path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NONBLOCK, 0644);
    if (fd < 0) {
        mmb_errorf(err, errlen, "%s: cannot open for appending: %s", w->path, strerror(errno));
        return -1;
    }
    if (w->fd >= 0)
        close(w->fd);
    w->fd = fd;
    return w->owner ? run_lock(w, w->owner, err, errlen) : 0;
}

/* Whether w->fd is still the file at w->path: another writer may have rewritten it
 * under a newer header (writer_migrate), renaming a new file over it. */
static bool writer_current(const struct mmb_csv_writer *w)
{
    struct stat open_st, path_st;
    return fstat(w->fd, &open_st) == 0 && open_st.st_nlink > 0 && stat(w->path, &path_st) == 0 &&
           path_st.st_ino == open_st.st_ino && path_st.st_dev == open_st.st_dev;
}

/* Takes the append lock on the file at w->path, following a rewrite of it. */
static int writer_lock_current(struct mmb_csv_writer *w, char *err, size_t errlen)
{
    for (int tries = 0; tries < 8; tries++) {
        if (writer_lock(w->fd, w->path, LOCK_EX, err, errlen) != 0)
            return -1;
        if (writer_current(w))
            return 0;
        flock(w->fd, LOCK_UN);
        if (writer_reopen(w, err, errlen) != 0)
            return -1;
    }
    mmb_errorf(err, errlen, "%s: replaced again and again while appending; expected one writer to rewrite it",
               w->path);
    return -1;
}

/* Replaces the file by text (its rows under this mmbench's header), atomically: a new
 * file renamed over it, then opened for appending. The caller holds the lock. */
static int writer_migrate(struct mmb_csv_writer *w, const char *text, size_t len, size_t added, char *err,
                          size_t errlen)
{
    /* through a link, the file it names is rewritten (the link stays), with its mode */
    char *target = realpath(w->path, NULL);
    struct stat st;
    bool had_mode = fstat(w->fd, &st) == 0;
    int rc = mmb_file_write_atomic(target ? target : w->path, text, len, err, errlen);
    if (rc == 0 && had_mode)
        (void)chmod(target ? target : w->path, st.st_mode & 07777);
    free(target);
    if (rc != 0)
        return -1;
    int old = w->fd;
    w->fd = -1;
    rc = writer_reopen(w, err, errlen);
    flock(old, LOCK_UN);
    close(old);
    if (rc == 0)
        fprintf(stderr, "mmbench: %s: rewritten once under this mmbench's header (%zu column%s added, empty in its "
                "%zu rows)\n", w->path, added, added == 1 ? "" : "s", w->rows);
    return rc;
}

/* Loads the rows already in the file, cutting a partial last line first; a file of an
 * older header is rewritten under this one (mmb_csv_migrate_text) once its rows have
 * been read. Holds the append lock throughout. */
static int writer_load(struct mmb_csv_writer *w, char *err, size_t errlen)
{
    if (writer_lock_current(w, err, errlen) != 0)
        return -1;
    size_t len;
    char *buf = mmb_file_read_regular(w->path, MMB_CSV_MAX_BYTES, "CSV file", &len, err, errlen);
    if (!buf) {
        flock(w->fd, LOCK_UN);
        return -1;
    }
    char header[8192];
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
    char *migrated = NULL;
    size_t mlen = 0, added = 0;
    if (rc == 0 && len == 0)
        rc = write_all(w->fd, w->path, header, hlen, err, errlen);
    else if (rc == 0 && (rc = mmb_csv_migrate_text(w->path, buf, len, &migrated, &mlen, &added, err, errlen)) == 0)
        rc = mmb_csv_read_buffer(w->path, migrated ? migrated : buf, migrated ? mlen : len, true,
                                 writer_existing_row, w, err, errlen);
    if (rc == 0 && migrated)
        rc = writer_migrate(w, migrated, mlen, added, err, errlen);
    if (w->fd >= 0)
        flock(w->fd, LOCK_UN);
    free(migrated);
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
    w->fd = -1;
    if (writer_reopen(w, err, errlen) != 0) {
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

const struct mmb_row_version *mmb_csv_writer_find(const struct mmb_csv_writer *w, const struct mmb_row *row,
                                                  bool any_gpu)
{
    char key[MMB_ROW_KEY_LEN];
    mmb_row_key(row, !any_gpu, key, sizeof key);
    return key_set_find(any_gpu ? &w->runs : &w->keys, key);
}

const char *mmb_csv_writer_protocol(const struct mmb_csv_writer *w, uint64_t hash)
{
    for (size_t i = 0; i < w->nprotocols; i++)
        if (w->protocols[i].hash == hash)
            return w->protocols[i].text;
    return NULL;
}

bool mmb_csv_writer_has(const struct mmb_csv_writer *w, const struct mmb_row *row)
{
    return mmb_csv_writer_find(w, row, false) != NULL;
}

bool mmb_csv_writer_has_any_gpu(const struct mmb_csv_writer *w, const struct mmb_row *row)
{
    return mmb_csv_writer_find(w, row, true) != NULL;
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
    if (writer_lock_current(w, err, errlen) != 0)
        return -1;
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
    if (run_lock(w, owner, err, errlen) != 0)
        return -1;
    free(w->owner);
    if (!(w->owner = strdup(owner)))
        return mmb_failf(err, errlen, "%s: out of memory", w->path);
    return 0;
}

static int run_lock(struct mmb_csv_writer *w, const char *owner, char *err, size_t errlen)
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
    for (size_t i = 0; i < w->nprotocols; i++)
        free(w->protocols[i].text);
    free(w->owner);
    free(w->path);
    free(w);
}
