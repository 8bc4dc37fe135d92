/* file.h - files: read whole and bounded (what a user names must be a regular file),
 * written atomically, folders made; and a GPU's data folder name. */
#ifndef MMB_CORE_FILE_H
#define MMB_CORE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

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

#endif
