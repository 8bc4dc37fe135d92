/* compile.c - NVRTC: kernel source + -D macros + -arch -> cubin, cached on disk. */
#include "cuda/compile.h"

#include <errno.h>
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/errcheck.h"
#include "core/util.h"

#define MMB_MAX_OPTIONS 64

void mmb_compile_default_cache_dir(char *out, size_t len)
{
    const char *env = getenv("MMB_CACHE_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    if (env && *env)
        snprintf(out, len, "%s", env);
    else if (xdg && *xdg)
        snprintf(out, len, "%s/mmbench", xdg);
    else
        snprintf(out, len, "%s/.cache/mmbench", home && *home ? home : "/tmp");
}

void mmb_compile_defines(const struct mmb_kernel_spec *kernel, const struct mmb_config *cfg,
                         enum mmb_dtype dtype, char storage[][MMB_DEFINE_LEN], const char **defines)
{
    int n = 0;
    for (int i = 0; i < kernel->nparams; i++, n++) {
        snprintf(storage[n], MMB_DEFINE_LEN, "%s=%lld", kernel->params[i].name, cfg->values[i]);
        defines[n] = storage[n];
    }
    snprintf(storage[n], MMB_DEFINE_LEN, "elem_t=%s", mmb_dtype_info(dtype)->ctype);
    defines[n] = storage[n];
    defines[n + 1] = NULL;
}

uint64_t mmb_compile_key(const struct mmb_kernel_spec *kernel, const char *const *defines)
{
    uint64_t key = mmb_hash_bytes(MMB_FNV_SEED, kernel->source, strlen(kernel->source) + 1);
    key = mmb_hash_bytes(key, kernel->function, strlen(kernel->function) + 1);
    key = mmb_hash_bytes(key, kernel->nvrtc_options, strlen(kernel->nvrtc_options) + 1);
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

/* Splits extra options on spaces into opts (pointers into a copy kept by the caller). */
static int add_extra_options(char *copy, const char **opts, int n)
{
    for (char *save = NULL, *tok = strtok_r(copy, " \t", &save); tok && n < MMB_MAX_OPTIONS;
         tok = strtok_r(NULL, " \t", &save))
        opts[n++] = tok;
    return n;
}

static void copy_log(nvrtcProgram prog, char *err, size_t errlen)
{
    size_t size = 0;
    if (nvrtcGetProgramLogSize(prog, &size) != NVRTC_SUCCESS || size <= 1)
        return;
    char *log = malloc(size);
    if (!log || nvrtcGetProgramLog(prog, log) != NVRTC_SUCCESS) {
        free(log);
        return;
    }
    size_t used = strlen(err);
    /* Keep the first lines: the first error is the one that explains the rest. */
    for (char *p = log; *p; p++)
        if (*p == '\n')
            *p = ' ';
    snprintf(err + used, errlen > used ? errlen - used : 0, ": %s", log);
    free(log);
}

enum mmb_status mmb_compile(const struct mmb_compile_request *req, struct mmb_cubin *out,
                            char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    double t0 = mmb_seconds_now();
    char arch_opt[32];
    snprintf(arch_opt, sizeof arch_opt, "--gpu-architecture=sm_%d", req->arch);
    char *extra = strdup(req->extra_options ? req->extra_options : "");
    char **defs = NULL;
    const char *opts[MMB_MAX_OPTIONS];
    int nopts = 0, ndefs = 0;
    enum mmb_status st = MMB_STATUS_COMPILE_ERROR;
    nvrtcProgram prog = NULL;
    if (!extra) {
        mmb_errorf(err, errlen, "out of host memory");
        return MMB_STATUS_OUT_OF_MEMORY;
    }
    opts[nopts++] = arch_opt;
    opts[nopts++] = "--std=c++17";
    for (const char *const *d = req->defines; d && *d; d++)
        ndefs++;
    defs = calloc((size_t)ndefs + 1, sizeof *defs);
    if (!defs) {
        mmb_errorf(err, errlen, "out of host memory");
        free(extra);
        return MMB_STATUS_OUT_OF_MEMORY;
    }
    for (int i = 0; i < ndefs && nopts < MMB_MAX_OPTIONS; i++) {
        size_t n = strlen(req->defines[i]) + 3;
        defs[i] = malloc(n);
        if (!defs[i]) {
            mmb_errorf(err, errlen, "out of host memory");
            st = MMB_STATUS_OUT_OF_MEMORY;
            goto out;
        }
        snprintf(defs[i], n, "-D%s", req->defines[i]);
        opts[nopts++] = defs[i];
    }
    nopts = add_extra_options(extra, opts, nopts);

    int major = 0, minor = 0;
    MMB_CHECK_NVRTC(nvrtcVersion(&major, &minor), goto out);
    uint64_t h = mmb_hash_bytes(MMB_FNV_SEED, req->source, strlen(req->source));
    h = mmb_hash_bytes(h, req->function, strlen(req->function) + 1);
    for (int i = 0; i < nopts; i++)
        h = mmb_hash_bytes(h, opts[i], strlen(opts[i]) + 1);
    int ver[2] = {major, minor};
    h = mmb_hash_bytes(h, ver, sizeof ver);

    char cache_path[4096] = "", log_path[4096] = "";
    if (req->cache_dir) {
        snprintf(cache_path, sizeof cache_path, "%s/%016llx-sm_%d.cubin", req->cache_dir,
                 (unsigned long long)h, req->arch);
        snprintf(log_path, sizeof log_path, "%s/%016llx-sm_%d.error", req->cache_dir,
                 (unsigned long long)h, req->arch);
        char ignored[256];
        size_t len = 0;
        char *data = mmb_file_read(cache_path, &len, ignored, sizeof ignored);
        if (data && len > 0) {
            out->data = data;
            out->size = len;
            out->from_cache = true;
            out->compile_seconds = mmb_seconds_now() - t0;
            st = MMB_STATUS_OK;
            goto out;
        }
        free(data);
        /* A configuration the compiler rejected is rejected again for the same inputs:
         * remembering its message makes a second tune compile nothing at all. */
        data = mmb_file_read(log_path, &len, ignored, sizeof ignored);
        if (data && len > 0) {
            mmb_errorf(err, errlen, "%s", data);
            free(data);
            out->from_cache = true;
            out->compile_seconds = mmb_seconds_now() - t0;
            goto out;
        }
        free(data);
    }

    MMB_CHECK_NVRTC(nvrtcCreateProgram(&prog, req->source, req->source_path, 0, NULL, NULL), goto out);
    nvrtcResult r = nvrtcCompileProgram(prog, nopts, opts);
    if (r != NVRTC_SUCCESS) {
        mmb_errorf(err, errlen, "%s: NVRTC: %s", req->source_path, nvrtcGetErrorString(r));
        copy_log(prog, err, errlen);
        char ignored[256];
        if (r == NVRTC_ERROR_COMPILATION && log_path[0] && mmb_mkdir_p(req->cache_dir, ignored, sizeof ignored) == 0)
            (void)mmb_file_write_atomic(log_path, err, strlen(err), ignored, sizeof ignored);
        goto out;
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
    out->compile_seconds = mmb_seconds_now() - t0;
    st = MMB_STATUS_OK;
    if (cache_path[0]) {
        /* A cache that cannot be written costs time, not results: report nothing. */
        char ignored[256];
        if (mmb_mkdir_p(req->cache_dir, ignored, sizeof ignored) == 0)
            (void)mmb_file_write_atomic(cache_path, out->data, out->size, ignored, sizeof ignored);
    }
out:
    if (prog)
        nvrtcDestroyProgram(&prog);
    for (int i = 0; i < ndefs; i++)
        free(defs[i]);
    free(defs);
    free(extra);
    return st;
}
