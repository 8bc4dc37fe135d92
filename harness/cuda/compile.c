/* compile.c - NVRTC: kernel source + -D macros + -arch (sm_XY, or its arch-specific
 * sm_XYa) -> cubin, cached on disk. */
#include "cuda/compile.h"

#include <ctype.h>
#include <errno.h>
#include <nvrtc.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/clock.h"
#include "core/errcheck.h"
#include "core/error.h"
#include "core/file.h"
#include "core/hash.h"
#include "core/source_digest.h"
#include "cuda/gpu.h"

#define MMB_MAX_OPTIONS 64

/* "f<elem_t>" -> "f<float>": elem_t as a whole word, nowhere else. */
static void function_for(const char *function, const char *ctype, char *out, size_t len)
{
    size_t o = 0;
    for (const char *p = function; *p && o + 1 < len;) {
        bool word = !strncmp(p, "elem_t", 6) && !(isalnum((unsigned char)p[6]) || p[6] == '_') &&
                    (p == function || !(isalnum((unsigned char)p[-1]) || p[-1] == '_'));
        if (word) {
            o += (size_t)snprintf(out + o, len - o, "%s", ctype);
            p += 6;
        } else {
            out[o++] = *p++;
        }
    }
    out[o < len ? o : len - 1] = '\0';
}

int mmb_compile_defines(const struct mmb_kernel_spec *kernel, const struct mmb_config *cfg,
                        const struct mmb_size *size, enum mmb_dtype dtype, struct mmb_defines *out, char *err,
                        size_t errlen)
{
    int n = 0;
    for (int i = 0; i < kernel->nparams; i++, n++) {
        snprintf(out->storage[n], MMB_DEFINE_LEN, "%s=%lld", kernel->params[i].name, cfg->values[i]);
        out->list[n] = out->storage[n];
    }
    if (kernel->ndefines) {
        static const struct mmb_size none = {0, 0, 0};
        long long values[MMB_MAX_DEFINES];
        if (!size && kernel->defines_use_size) {
            mmb_errorf(err, errlen, "kernel '%s': its defines name M, N or K: compiled per size", kernel->name);
            return -1;
        }
        if (mmb_space_define_values(kernel, cfg, size ? size : &none, mmb_dtype_info(dtype)->size, values, err,
                                    errlen) != 0)
            return -1;
        for (int i = 0; i < kernel->ndefines; i++, n++) {
            snprintf(out->storage[n], MMB_DEFINE_LEN, "%s=%lld", kernel->defines[i].name, values[i]);
            out->list[n] = out->storage[n];
        }
    }
    const struct mmb_dtype_info *d = mmb_dtype_info(dtype);
    const char *in_header = mmb_format_info(d->in)->header, *out_header = mmb_format_info(d->out)->header;
    snprintf(out->storage[n++], MMB_DEFINE_LEN, "elem_t=%s", d->ctype);
    snprintf(out->storage[n++], MMB_DEFINE_LEN, "acc_t=%s", d->acc_ctype);
    snprintf(out->storage[n++], MMB_DEFINE_LEN, "out_t=%s", mmb_format_info(d->out)->ctype);
    if (d->b_col_major)
        snprintf(out->storage[n++], MMB_DEFINE_LEN, "b_col_major=1");
    for (int i = 0; i < n; i++)
        out->list[i] = out->storage[i];
    out->list[n] = NULL;
    function_for(kernel->function, d->ctype, out->function, sizeof out->function);
    /* the tensor-core dtypes get the toolkit's headers: their types', and mma.h to include */
    int h = 0;
    out->cuda_headers = mmb_pipe_info(d->pipe)->tensor || in_header || out_header;
    if (in_header)
        out->headers[h++] = in_header;
    if (out_header && (!in_header || strcmp(in_header, out_header) != 0))
        out->headers[h++] = out_header;
    out->headers[h] = NULL;
    return 0;
}

/* Whether dir holds the toolkit's cuda_fp16.h. */
static bool toolkit_headers_in(const char *dir)
{
    char path[4096];
    struct stat st;
    return dir && dir[0] && snprintf(path, sizeof path, "%s/cuda_fp16.h", dir) < (int)sizeof path &&
           stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

#ifndef MMB_TOOLKIT_INCLUDE
#define MMB_TOOLKIT_INCLUDE "/usr/local/cuda/include"
#endif

const char *mmb_cuda_include_dir(void)
{
    static _Thread_local char found[4096];
    const char *env = getenv("MMB_CUDA_INCLUDE");
    if (env)
        return toolkit_headers_in(env) ? env : NULL;
    const char *homes[] = {getenv("CUDA_HOME"), getenv("CUDA_PATH")};
    for (size_t i = 0; i < sizeof homes / sizeof homes[0]; i++) {
        if (homes[i] && snprintf(found, sizeof found, "%s/include", homes[i]) < (int)sizeof found &&
            toolkit_headers_in(found))
            return found;
    }
    if (toolkit_headers_in(MMB_TOOLKIT_INCLUDE))
        return MMB_TOOLKIT_INCLUDE;
    return toolkit_headers_in("/usr/local/cuda/include") ? "/usr/local/cuda/include" : NULL;
}

uint64_t mmb_compile_key(const struct mmb_kernel_spec *kernel, const char *const *defines)
{
    uint64_t key = mmb_hash_bytes(MMB_FNV_SEED, kernel->source, strlen(kernel->source) + 1);
    key = mmb_hash_bytes(key, kernel->function, strlen(kernel->function) + 1);
    key = mmb_hash_bytes(key, kernel->nvrtc_options, strlen(kernel->nvrtc_options) + 1);
    for (int i = 0; i < kernel->ntargets; i++) {
        const int target[2] = {kernel->targets[i].arch, kernel->targets[i].specific};
        key = mmb_hash_bytes(key, target, sizeof target);
    }
    for (const char *const *d = defines; *d; d++)
        key = mmb_hash_bytes(key, *d, strlen(*d) + 1);
    return key;
}

void mmb_cubin_free(struct mmb_cubin *cubin)
{
    free(cubin->data);
    cubin->data = NULL;
    cubin->size = 0;
}

/* What NVRTC gets, in this order: the arch, the C++ standard, the prelude, the CUDA
 * include folder and the headers pre-included (when the request asks for them), one
 * -D per define, then the extra options split on spaces (at most MMB_MAX_OPTIONS in
 * all). */
struct nvrtc_options {
    char arch[32];
    char include[4200];
    char pre[3][96];
    char *extra;      /* a copy of the extra options, cut at the spaces */
    char **defs;      /* "-Dname=value" */
    int ndefs;
    const char *argv[MMB_MAX_OPTIONS];
    int count;
};

static void options_free(struct nvrtc_options *o)
{
    for (int i = 0; i < o->ndefs; i++)
        free(o->defs[i]);
    free(o->defs);
    free(o->extra);
}

/* Splits extra options on spaces into o->argv (pointers into o->extra). */
static void add_extra_options(struct nvrtc_options *o)
{
    for (char *save = NULL, *tok = strtok_r(o->extra, " \t", &save); tok && o->count < MMB_MAX_OPTIONS;
         tok = strtok_r(NULL, " \t", &save))
        o->argv[o->count++] = tok;
}

/* Fills o, or returns MMB_STATUS_OUT_OF_MEMORY with nothing left to free. */
static enum mmb_status build_options(const struct mmb_compile_request *req, struct nvrtc_options *o, char *err,
                                     size_t errlen)
{
    memset(o, 0, sizeof *o);
    snprintf(o->arch, sizeof o->arch, "--gpu-architecture=sm_%d%s", req->arch, req->arch_specific ? "a" : "");
    o->extra = strdup(req->extra_options ? req->extra_options : "");
    if (!o->extra) {
        mmb_errorf(err, errlen, "out of host memory");
        return MMB_STATUS_OUT_OF_MEMORY;
    }
    o->argv[o->count++] = o->arch;
    o->argv[o->count++] = "--std=c++17";
    if (req->prelude == MMB_PRELUDE_STDINT)
        o->argv[o->count++] = "--pre-include=mmb_prelude_stdint.h";
    if (req->cuda_headers) {
        const char *dir = mmb_cuda_include_dir();
        if (!dir) {
            mmb_errorf(err, errlen, "%s: NVRTC needs the CUDA toolkit's headers (cuda_fp16.h and others) for this "
                       "dtype, found in none of MMB_CUDA_INCLUDE, $CUDA_HOME/include, $CUDA_PATH/include, %s, "
                       "/usr/local/cuda/include: set MMB_CUDA_INCLUDE to the toolkit's include folder",
                       req->source_path, MMB_TOOLKIT_INCLUDE);
            options_free(o);
            return MMB_STATUS_COMPILE_ERROR;
        }
        snprintf(o->include, sizeof o->include, "-I%s", dir);
        o->argv[o->count++] = o->include;
        for (int i = 0; req->headers && req->headers[i] && i < 3; i++) {
            snprintf(o->pre[i], sizeof o->pre[i], "--pre-include=%s", req->headers[i]);
            o->argv[o->count++] = o->pre[i];
        }
    }
    int ndefs = 0;
    for (const char *const *d = req->defines; d && *d; d++)
        ndefs++;
    o->defs = calloc((size_t)ndefs + 1, sizeof *o->defs);
    if (!o->defs) {
        mmb_errorf(err, errlen, "out of host memory");
        options_free(o);
        return MMB_STATUS_OUT_OF_MEMORY;
    }
    o->ndefs = ndefs;
    for (int i = 0; i < ndefs && o->count < MMB_MAX_OPTIONS; i++) {
        size_t n = strlen(req->defines[i]) + 3;
        o->defs[i] = malloc(n);
        if (!o->defs[i]) {
            mmb_errorf(err, errlen, "out of host memory");
            options_free(o);
            return MMB_STATUS_OUT_OF_MEMORY;
        }
        snprintf(o->defs[i], n, "-D%s", req->defines[i]);
        o->argv[o->count++] = o->defs[i];
    }
    add_extra_options(o);
    return MMB_STATUS_OK;
}

/* The header --pre-include names for prelude = stdint, given to NVRTC in memory. */
static const char *const prelude_names[] = {"mmb_prelude_stdint.h"};
static const char *const prelude_texts[] = {
    "/* what nvcc's implicit includes make visible and NVRTC does not: <cstdint>'s types */\n"
    "typedef signed char int8_t; typedef unsigned char uint8_t; typedef short int16_t;\n"
    "typedef unsigned short uint16_t; typedef int int32_t; typedef unsigned int uint32_t;\n"
    "typedef long long int64_t; typedef unsigned long long uint64_t;\n"
    "typedef long long intptr_t; typedef unsigned long long uintptr_t;\n"};

/* Where one compile's result lies in the disk cache: the cubin, or the message of a
 * compile the compiler rejected. */
struct cache_entry {
    const char *dir; /* NULL: no cache */
    char cubin[4096], log[4096], name[4096];
};

/* Where NVRTC looks for the request's includes, in the order build_options gives them:
 * the toolkit's include folder and the dtype's pre-included type headers first (a
 * request with cuda_headers), then the -I folders and --pre-include headers of the
 * extra options. The in-memory prelude is no file: its text is hashed apart. Returns
 * 0, or -1 with err. */
static int request_include_paths(const struct mmb_compile_request *req, struct mmb_include_paths *inc, char *err,
                                 size_t errlen)
{
    if (mmb_include_paths_parse(req->extra_options, inc, err, errlen) != 0)
        return -1;
    if (!req->cuda_headers)
        return 0;
    const char *dir = mmb_cuda_include_dir();
    int npre = 0;
    while (req->headers && req->headers[npre] && npre < 3) /* as build_options takes them */
        npre++;
    if (!dir || inc->ndirs + 1 > MMB_INCLUDE_DIRS_MAX || inc->npre + npre > MMB_PRE_INCLUDES_MAX)
        return mmb_failf(err, errlen, "no toolkit include folder, or more folders or headers than a digest takes");
    memmove(&inc->dirs[1], &inc->dirs[0], (size_t)inc->ndirs * sizeof inc->dirs[0]);
    inc->dirs[0] = dir;
    inc->ndirs++;
    memmove(&inc->pre[npre], &inc->pre[0], (size_t)inc->npre * sizeof inc->pre[0]);
    for (int i = 0; i < npre; i++)
        inc->pre[i] = req->headers[i];
    inc->npre += npre;
    return 0;
}

/* The disk key hashes the source text (without its zero, as the cubins already cached
 * were named), every file it and the pre-included headers include (core/
 * source_digest.h: as NVRTC finds them with the request's -I folders, the toolkit's
 * for the dtypes that get its headers; NVRTC's own headers through its version), the
 * pre-included prelude's text, the function, every option NVRTC gets (the arch too)
 * and NVRTC's version: a change to any of them compiles anew. When the includes cannot
 * be read, nothing is cached: the compile says what is wrong. */
static void cache_locate(const struct mmb_compile_request *req, const struct nvrtc_options *o, int major,
                         int minor, const char *prelude_text, struct cache_entry *c)
{
    c->dir = req->cache_dir;
    c->cubin[0] = c->log[0] = '\0';
    if (!c->dir)
        return;
    char ignored[512];
    struct mmb_include_paths inc;
    struct mmb_source_digest digest;
    if (request_include_paths(req, &inc, ignored, sizeof ignored) != 0 ||
        mmb_source_digest(req->source_path, req->source, &inc, &digest, ignored, sizeof ignored) != 0) {
        c->dir = NULL;
        return;
    }
    uint64_t h = mmb_hash_bytes(MMB_FNV_SEED, req->source, strlen(req->source));
    if (digest.files > 1 || digest.builtin > 0) /* a source without includes keeps its key */
        h = mmb_hash_bytes(h, &digest.value, sizeof digest.value);
    if (prelude_text)
        h = mmb_hash_bytes(h, prelude_text, strlen(prelude_text));
    h = mmb_hash_bytes(h, req->function, strlen(req->function) + 1);
    for (int i = 0; i < o->count; i++)
        h = mmb_hash_bytes(h, o->argv[i], strlen(o->argv[i]) + 1);
    int ver[2] = {major, minor};
    h = mmb_hash_bytes(h, ver, sizeof ver);
    const char *variant = req->arch_specific ? "a" : "";
    snprintf(c->cubin, sizeof c->cubin, "%s/%016llx-sm_%d%s.cubin", c->dir, (unsigned long long)h, req->arch, variant);
    snprintf(c->log, sizeof c->log, "%s/%016llx-sm_%d%s.error", c->dir, (unsigned long long)h, req->arch, variant);
    snprintf(c->name, sizeof c->name, "%s/%016llx-sm_%d%s.name", c->dir, (unsigned long long)h, req->arch, variant);
}

/* The cache's answer, when it has one: a cubin (*st MMB_STATUS_OK), or the message of
 * a compile that failed for the same inputs (*st MMB_STATUS_COMPILE_ERROR). */
static bool cache_lookup(const struct cache_entry *c, double t0, struct mmb_cubin *out, enum mmb_status *st,
                         char *err, size_t errlen)
{
    if (!c->dir)
        return false;
    char ignored[256];
    size_t len = 0;
    char *data = mmb_file_read(c->cubin, &len, ignored, sizeof ignored);
    if (data && len > 0) {
        out->data = data;
        out->size = len;
        out->from_cache = true;
        /* The lowered name, kept only where it differs from the function's own. */
        char *name = mmb_file_read(c->name, &len, ignored, sizeof ignored);
        if (name && len > 0 && len < sizeof out->function)
            snprintf(out->function, sizeof out->function, "%.*s", (int)len, name);
        free(name);
        out->compile_seconds = mmb_seconds_now() - t0;
        *st = MMB_STATUS_OK;
        return true;
    }
    free(data);
    /* A configuration the compiler rejected is rejected again for the same inputs:
     * remembering its message makes a second tune compile nothing at all. */
    data = mmb_file_read(c->log, &len, ignored, sizeof ignored);
    if (data && len > 0) {
        mmb_errorf(err, errlen, "%s", data);
        free(data);
        out->from_cache = true;
        out->compile_seconds = mmb_seconds_now() - t0;
        *st = MMB_STATUS_COMPILE_ERROR;
        return true;
    }
    free(data);
    return false;
}

/* Keeps a cubin (st MMB_STATUS_OK) or the message of a source the compiler rejected.
 * A cache that cannot be written costs time, not results: nothing is reported. */
static void cache_store(const struct cache_entry *c, const struct mmb_cubin *cubin, enum mmb_status st,
                        bool rejected, const char *message)
{
    char ignored[256];
    if (!c->dir || (st != MMB_STATUS_OK && !rejected) || mmb_mkdir_p(c->dir, ignored, sizeof ignored) != 0)
        return;
    if (st == MMB_STATUS_OK && cubin->function[0])
        (void)mmb_file_write_atomic(c->name, cubin->function, strlen(cubin->function), ignored, sizeof ignored);
    if (st == MMB_STATUS_OK)
        (void)mmb_file_write_atomic(c->cubin, cubin->data, cubin->size, ignored, sizeof ignored);
    else
        (void)mmb_file_write_atomic(c->log, message, strlen(message), ignored, sizeof ignored);
}

/* NVRTC's log, or NULL when it has none. */
static char *program_log(nvrtcProgram prog)
{
    size_t size = 0;
    if (nvrtcGetProgramLogSize(prog, &size) != NVRTC_SUCCESS || size <= 1)
        return NULL;
    char *log = malloc(size);
    if (log && nvrtcGetProgramLog(prog, log) != NVRTC_SUCCESS) {
        free(log);
        return NULL;
    }
    return log;
}

static bool word_at(const char *line, size_t at, const char *name, size_t n)
{
    return !strncmp(line + at, name, n) && !(isalnum((unsigned char)line[at + n]) || line[at + n] == '_') &&
           (at == 0 || !(isalnum((unsigned char)line[at - 1]) || line[at - 1] == '_'));
}

/* When NVRTC's first error stands on one of the -D macros, a sentence that names it:
 * a parameter or define named like something the compiled code names itself (an
 * identifier of NVRTC's built-in header, of a header the kernel includes, of the
 * kernel) breaks the compile where that name is used. The error's echo of the source
 * line has the macro's name under the caret, or, in NVRTC's built-in header (which no
 * profile author wrote), anywhere on the line. */
static bool macro_blame(const char *log, const char *const *defines, char *out, size_t len)
{
    const char *at = strstr(log, "): error: "), *cat = strstr(log, "): catastrophic error: ");
    if (!at || (cat && cat < at))
        at = cat;
    if (!at || !defines)
        return false;
    const char *loc = at; /* the start of "FILE(LINE" */
    while (loc > log && loc[-1] != '\n')
        loc--;
    const char *msg = strchr(at, ':') + 1, *eol = strchr(at, '\n');
    if (!eol)
        return false;
    char line[1024], caret[1024];
    size_t ln = strcspn(eol + 1, "\n"), cn = eol[1 + ln] ? strcspn(eol + 2 + ln, "\n") : 0;
    snprintf(line, sizeof line, "%.*s", (int)ln, eol + 1);
    snprintf(caret, sizeof caret, "%.*s", (int)cn, eol[1 + ln] ? eol + 2 + ln : "");
    const char *hat = strchr(caret, '^');
    long column = hat && strspn(caret, " ") == (size_t)(hat - caret) ? (long)(hat - caret) : -1;
    bool builtin = !strncmp(loc, "__nv_nvrtc_builtin", 18);
    for (const char *const *d = defines; *d; d++) {
        size_t n = strcspn(*d, "=");
        /* the type macros are mmbench's own (no parameter is named so): not a clash */
        if ((n == 6 && !strncmp(*d, "elem_t", 6)) || (n == 5 && (!strncmp(*d, "acc_t", 5) || !strncmp(*d, "out_t", 5))))
            continue;
        for (size_t i = 0; line[i]; i++) {
            if (!word_at(line, i, *d, n) || !(builtin || (column >= (long)i && column < (long)(i + n))))
                continue;
            snprintf(out, len, "the macro -D%s (a parameter or define of the profile) collides with the name '%.*s' "
                     "at %.*s):%.*s; rename it", *d, (int)n, *d, (int)(at - loc), loc, (int)(eol - msg), msg);
            return true;
        }
    }
    return false;
}

/* err, then ": " and the log on one line: its first lines explain the rest. */
static void append_log(const char *log, char *err, size_t errlen)
{
    size_t used = strlen(err);
    if (!log || used + 1 >= errlen)
        return;
    snprintf(err + used, errlen - used, ": %s", log);
    for (char *p = err + used; *p; p++)
        if (*p == '\n')
            *p = ' ';
}

/* Compiles with NVRTC into out->data and out->size. *rejected: the compiler refused
 * the source (err has its log), which the same inputs would do again. */
static enum mmb_status nvrtc_run(const struct mmb_compile_request *req, const struct nvrtc_options *o,
                                 struct mmb_cubin *out, bool *rejected, char *err, size_t errlen)
{
    enum mmb_status st = MMB_STATUS_COMPILE_ERROR;
    nvrtcProgram prog = NULL;
    *rejected = false;
    bool prelude = req->prelude == MMB_PRELUDE_STDINT;
    MMB_CHECK_NVRTC(nvrtcCreateProgram(&prog, req->source, req->source_path, prelude ? 1 : 0,
                                       prelude ? prelude_texts : NULL, prelude ? prelude_names : NULL),
                    goto out);
    bool named = req->function && req->function[0];
    if (named)
        MMB_CHECK_NVRTC(nvrtcAddNameExpression(prog, req->function), goto out);
    nvrtcResult r = nvrtcCompileProgram(prog, o->count, o->argv);
    if (r != NVRTC_SUCCESS) {
        char *log = program_log(prog), blame[600];
        if (named && !mmb_names_identifier(req->source, req->function))
            mmb_errorf(err, errlen, "%s: function '%s' (the profile's `function`) is not in the source", req->source_path,
                       req->function);
        else if (log && macro_blame(log, req->defines, blame, sizeof blame))
            mmb_errorf(err, errlen, "%s: %s; NVRTC: %s", req->source_path, blame, nvrtcGetErrorString(r));
        else
            mmb_errorf(err, errlen, "%s: NVRTC: %s", req->source_path, nvrtcGetErrorString(r));
        append_log(log, err, errlen);
        free(log);
        *rejected = r == NVRTC_ERROR_COMPILATION;
        goto out;
    }
    if (named) {
        const char *lowered = NULL;
        MMB_CHECK_NVRTC(nvrtcGetLoweredName(prog, req->function, &lowered), goto out);
        if (strlen(lowered) >= sizeof out->function) {
            mmb_errorf(err, errlen, "%s: the lowered name of '%s' is %zu characters long; expected under %zu",
                       req->source_path, req->function, strlen(lowered), sizeof out->function);
            goto out;
        }
        if (strcmp(lowered, req->function) != 0)
            snprintf(out->function, sizeof out->function, "%s", lowered);
    }
    size_t size = 0;
    MMB_CHECK_NVRTC(nvrtcGetCUBINSize(prog, &size), goto out);
    out->data = malloc(size);
    if (!out->data) {
        mmb_errorf(err, errlen, "out of host memory");
        st = MMB_STATUS_OUT_OF_MEMORY;
        goto out;
    }
    MMB_CHECK_NVRTC(nvrtcGetCUBIN(prog, out->data), mmb_cubin_free(out); goto out);
    out->size = size;
    st = MMB_STATUS_OK;
out:
    if (prog)
        nvrtcDestroyProgram(&prog);
    return st;
}

int mmb_compile_nvrtc_version(int *major, int *minor, char *err, size_t errlen)
{
    *major = *minor = 0;
    MMB_CHECK_NVRTC(nvrtcVersion(major, minor), return -1);
    return 0;
}

enum mmb_status mmb_compile(const struct mmb_compile_request *req, struct mmb_cubin *out,
                            char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    double t0 = mmb_seconds_now();
    struct nvrtc_options o;
    enum mmb_status st = build_options(req, &o, err, errlen);
    if (st != MMB_STATUS_OK)
        return st;
    st = MMB_STATUS_COMPILE_ERROR;
    int major = 0, minor = 0;
    MMB_CHECK_NVRTC(nvrtcVersion(&major, &minor), goto out);
    struct cache_entry cache;
    cache_locate(req, &o, major, minor, req->prelude == MMB_PRELUDE_STDINT ? prelude_texts[0] : NULL, &cache);
    bool hit = cache_lookup(&cache, t0, out, &st, err, errlen);
    if (!hit) {
        bool rejected = false;
        st = nvrtc_run(req, &o, out, &rejected, err, errlen);
        if (st == MMB_STATUS_OK)
            out->compile_seconds = mmb_seconds_now() - t0;
        cache_store(&cache, out, st, rejected, err);
    }
    if (st == MMB_STATUS_OK && !out->function[0] && req->function)
        snprintf(out->function, sizeof out->function, "%s", req->function);
out:
    options_free(&o);
    return st;
}

int mmb_compile_options_text(const struct mmb_compile_request *req, int skip_defines, char *out, size_t len,
                             char *err, size_t errlen)
{
    struct nvrtc_options o;
    int major = 0, minor = 0;
    if (build_options(req, &o, err, errlen) != MMB_STATUS_OK)
        return -1;
    int rc = -1;
    MMB_CHECK_NVRTC(nvrtcVersion(&major, &minor), goto out);
    char text[4096];
    size_t n = 0;
    text[0] = '\0';
    for (int i = 0; i < o.count; i++) {
        bool param = false;
        for (int d = 0; d < skip_defines && d < o.ndefs && !param; d++)
            param = o.argv[i] == o.defs[d];
        if (!param && n < sizeof text)
            n += (size_t)snprintf(text + n, sizeof text - n, "%s%s", n ? " " : "", o.argv[i]);
    }
    if (n < sizeof text)
        snprintf(text + n, sizeof text - n, " (NVRTC %d.%d)", major, minor);
    if (strlen(text) < len) {
        snprintf(out, len, "%s", text);
    } else {
        /* too long for the cell: its start, and a hash of the whole so that two texts
         * that differ only in their tail still differ */
        char tail[32];
        int t = snprintf(tail, sizeof tail, " ... #%016llx",
                         (unsigned long long)mmb_hash_bytes(MMB_FNV_SEED, text, strlen(text)));
        snprintf(out, len, "%.*s%s", (int)(len - 1 - (size_t)t), text, tail);
    }
    rc = 0;
out:
    options_free(&o);
    return rc;
}

bool mmb_names_identifier(const char *source, const char *name)
{
    /* The identifier part of a name expression: "f<float>" -> "f", "ns::f" -> "f". */
    const char *start = name, *c;
    for (c = name; *c && *c != '<' && *c != '('; c++)
        if (*c == ':')
            start = c + 1;
    size_t len = (size_t)(c - start);
    if (!len)
        return false;
    for (const char *p = source; *p; p++) {
        if (strncmp(p, start, len) != 0)
            continue;
        bool before = p == source || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        bool after = !(isalnum((unsigned char)p[len]) || p[len] == '_');
        if (before && after)
            return true;
    }
    return false;
}

enum mmb_status mmb_module_build(const struct mmb_compile_request *req, struct mmb_module **out,
                                 struct mmb_kernel_attrs *attrs, char *err, size_t errlen)
{
    struct mmb_cubin cubin;
    enum mmb_status st = mmb_compile(req, &cubin, err, errlen);
    if (st != MMB_STATUS_OK)
        return st;
    st = mmb_module_load(cubin.data, cubin.size, cubin.function, out, attrs, err, errlen);
    mmb_cubin_free(&cubin);
    return st;
}
