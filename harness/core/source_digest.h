/* source_digest.h - what a kernel is compiled from, as one number: the source text and
 * every file it includes, found as NVRTC finds them, so that an edited header is a new
 * digest. The cubin cache keys on it; a row's identity can carry it. */
#ifndef MMB_SOURCE_DIGEST_H
#define MMB_SOURCE_DIGEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Folders and pre-included headers one set of NVRTC options names, at most. */
#define MMB_INCLUDE_DIRS_MAX 32
#define MMB_PRE_INCLUDES_MAX 8
/* Files one digest reads at most (the source among them), their bytes in all, and
 * how deep includes may nest: past any of them the digest is an error, not a guess. */
#define MMB_DIGEST_FILES_MAX 4096
#define MMB_DIGEST_BYTES_MAX ((size_t)256 << 20)
#define MMB_DIGEST_DEPTH_MAX 200

/* Where NVRTC looks for an included file, from its options. */
struct mmb_include_paths {
    const char *dirs[MMB_INCLUDE_DIRS_MAX];     /* -I, in the order given */
    int ndirs;
    const char *pre[MMB_PRE_INCLUDES_MAX];      /* --pre-include: included ahead of the source */
    int npre;
    bool no_source_include;                     /* -no-source-include: a quoted include is not
                                                   looked for beside the file that includes it */
    char text[2048];                            /* the strings above point into it */
};

/* The include search that NVRTC options text sets (space-separated, as a profile's
 * nvrtc_options): -I DIR, -IDIR, -I=DIR, --include-path=DIR, --include-path DIR,
 * -include H, --pre-include=H, --pre-include H, -no-source-include and
 * --no-source-include; any other option is not about includes and is passed over.
 * Returns 0, or -1 with err (an option without its folder, more than the limits). */
int mmb_include_paths_parse(const char *options, struct mmb_include_paths *out, char *err, size_t errlen);

struct mmb_source_digest {
    uint64_t value;
    char hex[17];      /* value as 16 hexadecimal digits */
    unsigned files;    /* files read: the source, then each file it includes once */
    unsigned builtin;  /* includes that no folder has: NVRTC's built-in headers (such as
                          <cuda_fp16.h>), which the NVRTC version identifies, or files missing */
};

/* The digest of the kernel source at path (text: its content when already read, else
 * NULL and it is read) and of every file it includes, each once, depth first: an
 * `#include "F"` is looked for beside the file that includes it (unless
 * no_source_include), then in inc->dirs; `#include <F>` in inc->dirs only; so is each
 * `__has_include` and each pre-included header. Comments and string literals are not
 * read for directives; an include is followed wherever it stands (inside #if too), so
 * the digest may name more files than a compile opens, never fewer; an include written
 * with a macro cannot be followed. An include that no folder has adds its name, so that
 * the file appearing later is a new digest. inc may be NULL (no options). FNV-1a 64:
 * an identity for caches and rows, not a defence against crafted collisions.
 * Returns 0, or -1 with err naming the file (unreadable, not a regular file, over
 * the limits above). */
int mmb_source_digest(const char *path, const char *text, const struct mmb_include_paths *inc,
                      struct mmb_source_digest *out, char *err, size_t errlen);

#endif
