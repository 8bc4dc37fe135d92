/* source_digest.c - the digest of a kernel source and of the files it includes: the
 * include search of NVRTC's options, a scanner of preprocessing directives that steps
 * over comments and literals, and a depth-first walk that reads each file once. */
#include "core/source_digest.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/array.h"
#include "core/error.h"
#include "core/file.h"
#include "core/hash.h"

/* ---- the options ---- */

static int paths_add(struct mmb_include_paths *p, size_t *used, bool pre, const char *value, size_t len, char *err,
                     size_t errlen)
{
    const char *what = pre ? "pre-included headers" : "include folders";
    int *count = pre ? &p->npre : &p->ndirs;
    int most = pre ? MMB_PRE_INCLUDES_MAX : MMB_INCLUDE_DIRS_MAX;
    if (len == 0)
        return mmb_failf(err, errlen, "NVRTC options: an empty %s", pre ? "header name" : "folder");
    if (*count == most)
        return mmb_failf(err, errlen, "NVRTC options: more than %d %s", most, what);
    if (*used + len + 1 > sizeof p->text)
        return mmb_failf(err, errlen, "NVRTC options: the %s take more than %zu characters", what, sizeof p->text - 1);
    char *copy = p->text + *used;
    memcpy(copy, value, len);
    copy[len] = '\0';
    *used += len + 1;
    (pre ? p->pre : p->dirs)[(*count)++] = copy;
    return 0;
}

/* The spellings of the options about includes: alone (the value is the next word) or
 * joined to their value; 'I' a folder, 'p' a pre-included header. Longer prefixes
 * first, so that -I= is not read as -I with the value "=...". */
static const struct {
    const char *word;
    bool joined;
    char kind;
} include_options[] = {
    {"-I", false, 'I'},           {"--include-path", false, 'I'}, {"-include", false, 'p'},
    {"--pre-include", false, 'p'}, {"--include-path=", true, 'I'}, {"--pre-include=", true, 'p'},
    {"-I=", true, 'I'},            {"-I", true, 'I'},
};

int mmb_include_paths_parse(const char *options, struct mmb_include_paths *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    size_t used = 0;
    char pending = 0; /* the kind of an option whose value is the next word */
    for (const char *s = options ? options : "";;) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s)
            break;
        size_t len = strcspn(s, " \t");
        const char *w = s;
        s += len;
        if (pending) {
            if (paths_add(out, &used, pending == 'p', w, len, err, errlen) != 0)
                return -1;
            pending = 0;
            continue;
        }
        if ((len == 18 && !memcmp(w, "-no-source-include", 18)) || (len == 19 && !memcmp(w, "--no-source-include", 19))) {
            out->no_source_include = true;
            continue;
        }
        for (size_t i = 0; i < MMB_COUNT(include_options); i++) {
            size_t n = strlen(include_options[i].word);
            if (n > len || memcmp(w, include_options[i].word, n) != 0)
                continue;
            if (!include_options[i].joined && n == len) {
                pending = include_options[i].kind;
                break;
            }
            if (include_options[i].joined && n < len) {
                if (paths_add(out, &used, include_options[i].kind == 'p', w + n, len - n, err, errlen) != 0)
                    return -1;
                break;
            }
        }
    }
    if (pending)
        return mmb_failf(err, errlen, "NVRTC options: %s at the end, without its %s",
                         pending == 'I' ? "-I" : "--pre-include", pending == 'I' ? "folder" : "header");
    return 0;
}

/* ---- the directives of one text ---- */

typedef int (*include_fn)(void *ctx, const char *name, size_t len, bool quoted);

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* p at '"' or '<': the header name up to its closing character on this line. */
static int header_name(const char *p, const char *end, include_fn fn, void *ctx)
{
    char close = *p == '"' ? '"' : '>';
    const char *q = p + 1;
    while (q < end && *q != close && *q != '\n')
        q++;
    if (q < end && *q == close && q > p + 1)
        return fn(ctx, p + 1, (size_t)(q - p - 1), close == '"');
    return 0;
}

static const char *skip_blanks(const char *p, const char *end)
{
    for (;;) {
        if (p < end && (*p == ' ' || *p == '\t'))
            p++;
        else if (end - p >= 2 && p[0] == '\\' && p[1] == '\n')
            p += 2;
        else
            return p;
    }
}

/* After R" (p at the '"'): past the raw string's end, or end. */
static const char *raw_string_end(const char *p, const char *end)
{
    const char *open = p + 1;
    while (open < end && *open != '(' && open - p <= 17)
        open++;
    if (open >= end || *open != '(')
        return p + 1;
    size_t dlen = (size_t)(open - p - 1);
    for (const char *q = open + 1; q < end; q++)
        if (*q == ')' && (size_t)(end - q) > dlen + 1 && !memcmp(q + 1, p + 1, dlen) && q[1 + dlen] == '"')
            return q + dlen + 2;
    return end;
}

/* Calls fn for each #include (and #include_next) and each __has_include of text. */
static int scan_includes(const char *text, size_t size, include_fn fn, void *ctx)
{
    const char *p = text, *end = text + size;
    bool line_start = true;
    while (p < end) {
        char c = *p;
        if (c == '\n') {
            line_start = true;
            p++;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            p++;
        } else if (c == '/' && p + 1 < end && p[1] == '/') {
            while (p < end && *p != '\n')
                p++;
        } else if (c == '/' && p + 1 < end && p[1] == '*') {
            const char *close = p + 2;
            while (close + 1 < end && !(close[0] == '*' && close[1] == '/'))
                close++;
            p = close + 1 < end ? close + 2 : end;
        } else if (c == '"' || (c == '\'' && !(p > text && ident_char(p[-1])))) {
            /* a literal (a quote after a digit is a digit separator, 1'000) */
            const char *q = p + 1;
            while (q < end && *q != c && *q != '\n')
                q += *q == '\\' && q + 1 < end ? 2 : 1;
            p = q < end ? q + 1 : end;
            line_start = false;
        } else if (c == '#' && line_start) {
            const char *q = skip_blanks(p + 1, end), *word = q;
            while (q < end && ident_char(*q))
                q++;
            size_t wlen = (size_t)(q - word);
            if ((wlen == 7 && !memcmp(word, "include", 7)) || (wlen == 12 && !memcmp(word, "include_next", 12))) {
                q = skip_blanks(q, end);
                if (q < end && (*q == '"' || *q == '<')) {
                    int rc = header_name(q, end, fn, ctx);
                    if (rc)
                        return rc;
                    while (q < end && *q != '\n')
                        q++;
                }
            }
            p = q;
            line_start = false;
        } else if (ident_char(c)) {
            const char *word = p;
            while (p < end && ident_char(*p))
                p++;
            size_t wlen = (size_t)(p - word);
            if (p < end && *p == '"' && word[wlen - 1] == 'R' && wlen <= 3) {
                p = raw_string_end(p, end); /* R"(...)", u8R"x(...)x" */
            } else if ((wlen == 13 && !memcmp(word, "__has_include", 13)) ||
                       (wlen == 18 && !memcmp(word, "__has_include_next", 18))) {
                const char *q = skip_blanks(p, end);
                if (q < end && *q == '(') {
                    q = skip_blanks(q + 1, end);
                    if (q < end && (*q == '"' || *q == '<')) {
                        int rc = header_name(q, end, fn, ctx);
                        if (rc)
                            return rc;
                    }
                }
            }
            line_start = false;
        } else {
            p++;
            line_start = false;
        }
    }
    return 0;
}

/* ---- the walk ---- */

struct seen_file {
    dev_t dev;
    ino_t ino;
};

struct walk {
    const struct mmb_include_paths *inc;
    uint64_t h;
    unsigned files, builtin;
    size_t bytes;
    struct seen_file *seen;
    int depth;
    const char *dir; /* of the file being scanned; "" the current folder */
    const char *path;
    char *err;
    size_t errlen;
};

static uint64_t mix(uint64_t h, char tag, const void *data, size_t len)
{
    h = mmb_hash_bytes(h, &tag, 1);
    uint64_t n = len;
    h = mmb_hash_bytes(h, &n, sizeof n);
    return mmb_hash_bytes(h, data, len);
}

/* dir/name into out (name alone when absolute or dir is ""); false when too long. */
static bool join(const char *dir, const char *name, size_t len, char *out, size_t size)
{
    int w = name[0] == '/' || !dir[0] ? snprintf(out, size, "%.*s", (int)len, name)
                                      : snprintf(out, size, "%s/%.*s", dir, (int)len, name);
    return w >= 0 && (size_t)w < size;
}

static bool regular_file(const char *path, struct stat *st)
{
    return stat(path, st) == 0 && S_ISREG(st->st_mode);
}

/* Where NVRTC finds the include: beside the includer (quoted, unless told not to),
 * then each -I folder; an absolute name is itself. False when no folder has it. */
static bool resolve(const struct walk *w, const char *name, size_t len, bool quoted, char *out, size_t size,
                    struct stat *st)
{
    if (name[0] == '/')
        return join("", name, len, out, size) && regular_file(out, st);
    if (quoted && !w->inc->no_source_include && join(w->dir, name, len, out, size) && regular_file(out, st))
        return true;
    for (int i = 0; i < w->inc->ndirs; i++)
        if (join(w->inc->dirs[i], name, len, out, size) && regular_file(out, st))
            return true;
    return false;
}

static int visit_text(struct walk *w, const char *path, const char *text, size_t len);

/* Marks the file seen; its index among those seen before when it was, else -1. */
static long seen_index(struct walk *w, const struct stat *st)
{
    for (unsigned i = 0; i < w->files; i++)
        if (w->seen[i].dev == st->st_dev && w->seen[i].ino == st->st_ino)
            return (long)i;
    return -1;
}

static int visit_file(struct walk *w, const char *path, const struct stat *st)
{
    long before = seen_index(w, st);
    if (before >= 0) {
        w->h = mix(w->h, 'S', &before, sizeof before);
        return 0;
    }
    if (w->files == MMB_DIGEST_FILES_MAX)
        return mmb_failf(w->err, w->errlen, "%s: more than %d files included (in all); expected fewer", path,
                         MMB_DIGEST_FILES_MAX);
    if (w->depth == MMB_DIGEST_DEPTH_MAX)
        return mmb_failf(w->err, w->errlen, "%s: includes nested more than %d deep", path, MMB_DIGEST_DEPTH_MAX);
    size_t len = 0, left = MMB_DIGEST_BYTES_MAX - w->bytes;
    if ((unsigned long long)st->st_size > left)
        return mmb_failf(w->err, w->errlen, "%s: the files included take more than %zu MiB in all; expected less",
                         path, MMB_DIGEST_BYTES_MAX >> 20);
    w->seen[w->files++] = (struct seen_file){st->st_dev, st->st_ino};
    char *text = mmb_file_read_regular(path, left < MMB_FILE_MAX ? left : MMB_FILE_MAX, "header (text)", &len,
                                       w->err, w->errlen);
    if (!text)
        return -1;
    w->depth++;
    int rc = visit_text(w, path, text, len);
    w->depth--;
    free(text);
    return rc;
}

static int on_include(void *ctx, const char *name, size_t len, bool quoted)
{
    struct walk *w = ctx;
    char path[4096];
    struct stat st;
    if (!resolve(w, name, len, quoted, path, sizeof path, &st)) {
        /* NVRTC's own header, or a file that is not there (yet) */
        w->builtin++;
        char kind = quoted ? '"' : '<';
        w->h = mmb_hash_bytes(w->h, &kind, 1);
        w->h = mix(w->h, 'U', name, len);
        return 0;
    }
    return visit_file(w, path, &st);
}

static int visit_text(struct walk *w, const char *path, const char *text, size_t len)
{
    w->bytes += len;
    w->h = mix(w->h, 'F', text, len);
    char dir[4096];
    const char *slash = strrchr(path, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash == path ? 1 : slash - path) : 0, path);
    const char *outer_dir = w->dir, *outer_path = w->path;
    w->dir = dir;
    w->path = path;
    int rc = scan_includes(text, len, on_include, w);
    w->dir = outer_dir;
    w->path = outer_path;
    return rc;
}

int mmb_source_digest(const char *path, const char *text, const struct mmb_include_paths *inc,
                      struct mmb_source_digest *out, char *err, size_t errlen)
{
    static const struct mmb_include_paths none;
    memset(out, 0, sizeof *out);
    struct walk w = {.inc = inc ? inc : &none, .h = MMB_FNV_SEED, .dir = "", .path = path, .err = err,
                     .errlen = errlen};
    if (!(w.seen = calloc(MMB_DIGEST_FILES_MAX, sizeof *w.seen)))
        return mmb_failf(err, errlen, "%s: out of memory", path);
    char *own = NULL;
    size_t len = 0;
    int rc = 0;
    if (!text && !(text = own = mmb_file_read_regular(path, MMB_FILE_MAX, "kernel source", &len, err, errlen)))
        rc = -1;
    else if (!own)
        len = strlen(text);
    /* the source itself, when it is a file: a header that includes it back is seen */
    struct stat st;
    if (rc == 0 && regular_file(path, &st))
        w.seen[w.files] = (struct seen_file){st.st_dev, st.st_ino};
    else
        w.seen[w.files] = (struct seen_file){(dev_t)-1, (ino_t)-1};
    w.files++;
    /* pre-included headers come first, found as quoted includes of the source */
    char root_dir[4096];
    const char *slash = strrchr(path, '/');
    snprintf(root_dir, sizeof root_dir, "%.*s", slash ? (int)(slash == path ? 1 : slash - path) : 0, path);
    w.dir = root_dir;
    for (int i = 0; rc == 0 && i < w.inc->npre; i++)
        rc = on_include(&w, w.inc->pre[i], strlen(w.inc->pre[i]), true);
    if (rc == 0)
        rc = visit_text(&w, path, text, len);
    free(own);
    free(w.seen);
    if (rc != 0)
        return -1;
    out->value = w.h;
    out->files = w.files;
    out->builtin = w.builtin;
    snprintf(out->hex, sizeof out->hex, "%016llx", (unsigned long long)w.h);
    return 0;
}
