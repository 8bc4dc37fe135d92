/* file.c - files read whole and bounded (regular files only, where a user names
 * them), written atomically, folders made, and a GPU's folder name. */
#include "core/file.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"

char *mmb_stream_read_max(FILE *f, size_t limit, size_t *len, bool *over)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    if (over)
        *over = false;
    while (buf) {
        size_t want = cap - n - 1;
        if (want > limit - n + 1)
            want = limit - n + 1; /* one byte past the limit tells "more" from "exactly" */
        size_t got = fread(buf + n, 1, want, f);
        n += got;
        if (n > limit) {
            n = limit;
            if (over)
                *over = true;
            break;
        }
        if (got == 0)
            break;
        if (cap - n - 1 == 0) {
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    if (!buf || ferror(f)) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

char *mmb_stream_read(FILE *f, size_t *len)
{
    return mmb_stream_read_max(f, SIZE_MAX - 1, len, NULL);
}

char *mmb_file_read(const char *path, size_t *len, char *err, size_t errlen)
{
    return mmb_file_read_regular(path, MMB_FILE_MAX, "file", len, err, errlen);
}

const char *mmb_file_kind(unsigned mode)
{
    if (S_ISREG(mode))
        return "a regular file";
    if (S_ISDIR(mode))
        return "a folder";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISFIFO(mode))
        return "a FIFO (named pipe)";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

/* "256 MiB", "1.5 KiB", "12 bytes" */
static void size_text(double bytes, char *out, size_t len)
{
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    size_t u = 0;
    while (bytes >= 1024 && u + 1 < sizeof units / sizeof units[0]) {
        bytes /= 1024;
        u++;
    }
    snprintf(out, len, u == 0 || bytes == (double)(long long)bytes ? "%.0f %s" : "%.1f %s", bytes, units[u]);
}

bool mmb_file_dangling(const char *path, char *why, size_t len)
{
    struct stat st;
    int e = stat(path, &st) == 0 ? 0 : errno;
    if ((e != ENOENT && e != ELOOP) || lstat(path, &st) != 0 || !S_ISLNK(st.st_mode))
        return false;
    char target[1024];
    ssize_t n = readlink(path, target, sizeof target - 1);
    if (n < 0)
        snprintf(target, sizeof target, "?");
    else
        target[n] = '\0';
    snprintf(why, len, "a link to '%s', which %s", target, e == ELOOP ? "is a loop of links" : "does not exist");
    return true;
}

/* The message of an open(2) of path that failed with errno e. */
static void open_failed(const char *path, const char *what, int e, char *err, size_t errlen)
{
    char why[1200];
    if ((e == ENOENT || e == ELOOP) && mmb_file_dangling(path, why, sizeof why))
        mmb_errorf(err, errlen, "%s: %s: expected a %s", path, why, what);
    else
        mmb_errorf(err, errlen, "%s: cannot open: %s", path, strerror(e));
}

FILE *mmb_file_open_regular(const char *path, size_t limit, const char *what, char *err, size_t errlen)
{
    /* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        open_failed(path, what, errno, err, errlen);
        return NULL;
    }
    struct stat st;
    char have[32], most[32];
    size_text((double)limit, most, sizeof most);
    int flags;
    FILE *f = NULL;
    if (fstat(fd, &st) != 0) {
        mmb_errorf(err, errlen, "%s: fstat: %s", path, strerror(errno));
    } else if (!S_ISREG(st.st_mode)) {
        mmb_errorf(err, errlen, "%s: %s, not a regular file: expected a %s", path, mmb_file_kind(st.st_mode), what);
    } else if (st.st_size < 0 || (unsigned long long)st.st_size > limit) {
        size_text((double)st.st_size, have, sizeof have);
        mmb_errorf(err, errlen, "%s: %s, larger than the %s a %s may have", path, have, most, what);
    } else if ((flags = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0 ||
               !(f = fdopen(fd, "rb"))) {
        mmb_errorf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    }
    if (!f)
        close(fd);
    return f;
}

char *mmb_file_read_regular(const char *path, size_t limit, const char *what, size_t *len, char *err,
                            size_t errlen)
{
    /* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        open_failed(path, what, errno, err, errlen);
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        mmb_errorf(err, errlen, "%s: fstat: %s", path, strerror(errno));
        close(fd);
        return NULL;
    }
    char have[32], most[32];
    size_text((double)limit, most, sizeof most);
    if (!S_ISREG(st.st_mode)) {
        mmb_errorf(err, errlen, "%s: %s, not a regular file: expected a %s", path, mmb_file_kind(st.st_mode), what);
        close(fd);
        return NULL;
    }
    if (st.st_size < 0 || (unsigned long long)st.st_size > limit) {
        size_text((double)st.st_size, have, sizeof have);
        mmb_errorf(err, errlen, "%s: %s, larger than the %s a %s may have", path, have, most, what);
        close(fd);
        return NULL;
    }
    /* the size may change while it is read: read at most limit + 1 bytes */
    size_t cap = (size_t)st.st_size + 1, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        if (n == cap) {
            if (cap > limit)
                break;
            size_t bigger_cap = cap * 2 > limit + 1 ? limit + 1 : cap * 2;
            char *bigger = realloc(buf, bigger_cap + 1);
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap = bigger_cap;
        }
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            mmb_errorf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
            free(buf);
            close(fd);
            return NULL;
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    close(fd);
    if (!buf) {
        mmb_errorf(err, errlen, "%s: cannot read: out of memory", path);
        return NULL;
    }
    if (n > limit) {
        mmb_errorf(err, errlen, "%s: grew past the %s a %s may have while it was read", path, most, what);
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

int mmb_file_write_atomic(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    char tmp[4096];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid()) >= sizeof tmp) {
        mmb_errorf(err, errlen, "%s: path too long", path);
        return -1;
    }
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        mmb_errorf(err, errlen, "%s: cannot create: %s", tmp, strerror(errno));
        return -1;
    }
    const char *p = data;
    size_t left = len;
    while (left > 0) {
        ssize_t w = write(fd, p, left);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            mmb_errorf(err, errlen, "%s: cannot write: %s", tmp, strerror(errno));
            close(fd);
            unlink(tmp);
            return -1;
        }
        p += w;
        left -= (size_t)w;
    }
    if (close(fd) != 0 || rename(tmp, path) != 0) {
        mmb_errorf(err, errlen, "%s: cannot finish writing: %s", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

int mmb_mkdir_p(const char *path, char *err, size_t errlen)
{
    char buf[4096];
    if ((size_t)snprintf(buf, sizeof buf, "%s", path) >= sizeof buf) {
        mmb_errorf(err, errlen, "%s: path too long", path);
        return -1;
    }
    for (char *p = buf + 1; ; p++) {
        if (*p == '/' || *p == '\0') {
            char saved = *p;
            *p = '\0';
            if (mkdir(buf, 0755) != 0 && errno != EEXIST) {
                mmb_errorf(err, errlen, "%s: cannot create folder: %s", buf, strerror(errno));
                return -1;
            }
            *p = saved;
            if (saved == '\0')
                break;
        }
    }
    return 0;
}

void mmb_gpu_slug(const char *name, char *out, size_t len)
{
    if (len == 0)
        return;
    if (strncasecmp(name, "NVIDIA ", 7) == 0)
        name += 7;
    size_t o = 0;
    bool dash = false;
    for (const char *p = name; *p && o + 1 < len; p++) {
        if (isalnum((unsigned char)*p)) {
            if (dash && o > 0 && o + 2 < len)
                out[o++] = '-';
            dash = false;
            out[o++] = (char)tolower((unsigned char)*p);
        } else {
            dash = true;
        }
    }
    out[o] = '\0';
    if (o == 0)
        snprintf(out, len, "unknown-gpu");
}
