/* util.h - small helpers shared by modules: errors, hashing, files, time. */
#ifndef MMB_UTIL_H
#define MMB_UTIL_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

/* The number of elements of an array (not of a pointer). */
#define MMB_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* snprintf into err, never overflowing, always terminated. */
void mmb_errorf(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* mmb_errorf, then returns -1: `return mmb_failf(err, errlen, "...", ...);` */
int mmb_failf(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Appends name to the list in buf (which starts as ""), with sep before every name
 * but the first; cut at len as snprintf cuts. Builds "expected one of a, b, c". */
void mmb_join_append(char *buf, size_t len, const char *sep, const char *name);

/* 64-bit FNV-1a, chainable through seed (start with MMB_FNV_SEED). */
#define MMB_FNV_SEED 0xcbf29ce484222325ULL
uint64_t mmb_hash_bytes(uint64_t seed, const void *data, size_t len);

/* Reads f to its end (NUL-terminated); NULL on a read error (ferror) or without memory. */
char *mmb_stream_read(FILE *f, size_t *len);

/* Reads a whole regular file of at most MMB_FILE_MAX bytes (NUL-terminated).
 * Returns NULL with err set. */
char *mmb_file_read(const char *path, size_t *len, char *err, size_t errlen);

/* Reads a whole regular file of at most limit bytes (NUL-terminated), for input
 * that a user names: what is not a regular file (a folder, a device such as
 * /dev/zero, a FIFO, which is opened without waiting for a writer) and a file over
 * the limit are refused, never read. what names the expected input ("CSV file").
 * Returns NULL with err "path: what was expected". */
char *mmb_file_read_regular(const char *path, size_t limit, const char *what, size_t *len, char *err,
                            size_t errlen);
/* "a folder", "a character device", ...: what st_mode is, for messages. */
const char *mmb_file_kind(unsigned mode);

/* Whether path is a symbolic link whose target cannot be reached: then why says so
 * ("a link to 'T', which does not exist", or "..., which is a loop of links"). For the
 * message of a file that cannot be opened, and for folder walks that pass over links
 * they do not need. */
bool mmb_file_dangling(const char *path, char *why, size_t len);

/* mmb_stream_read, stopping after limit bytes: *over is set when more was there. */
char *mmb_stream_read_max(FILE *f, size_t limit, size_t *len, bool *over);
/* The same, opened as a stream (for a reader that takes one): NULL with err unless
 * path is a regular file of at most limit bytes; never waits on a FIFO. */
FILE *mmb_file_open_regular(const char *path, size_t limit, const char *what, char *err, size_t errlen);
/* The limit of mmb_file_read: kernel sources and cached cubins. */
#define MMB_FILE_MAX ((size_t)256 << 20)
/* Writes data to path atomically (temporary file + rename). */
int mmb_file_write_atomic(const char *path, const void *data, size_t len, char *err, size_t errlen);
/* mkdir -p. */
int mmb_mkdir_p(const char *path, char *err, size_t errlen);

/* "NVIDIA H100 80GB HBM3" -> "h100-80gb-hbm3": a folder name for data/<gpu>/. */
void mmb_gpu_slug(const char *name, char *out, size_t len);

/* ISO 8601 UTC, e.g. 2026-11-21T23:59:59Z */
void mmb_timestamp_utc(char *out, size_t len);
double mmb_seconds_now(void);

/* splitmix64: a seedable generator for reproducible inputs. */
static inline uint64_t mmb_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

#endif
