/* compile.h - NVRTC compilation of a kernel source for one configuration, with an
 * on-disk cubin cache keyed by a hash of (source, options, arch, NVRTC version).
 * Needs no GPU: CI compiles every shipped configuration with it. Thread-safe. */
#ifndef MMB_COMPILE_H
#define MMB_COMPILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/profile.h"
#include "model/space.h"
#include "core/status.h"

struct mmb_compile_request {
    const char *source_path;
    const char *source;        /* the text, already read */
    const char *function;
    const char *const *defines;/* "name=value", NULL-terminated */
    int arch;                  /* 90 for sm_90 */
    const char *extra_options; /* space-separated, may be NULL */
    const char *cache_dir;     /* NULL: no cache */
};

struct mmb_cubin {
    void *data;
    size_t size;
    char function[256];        /* the request's function as the module names it (C++ names mangled) */
    bool from_cache;
    double compile_seconds;
};

/* Returns MMB_STATUS_OK, or MMB_STATUS_COMPILE_ERROR with the compiler's log (first
 * lines) in err. The function is compiled as an NVRTC name expression, so that a
 * template instance (`f<float>`) or a C++ function is found under its lowered name
 * (out->function), and a function the source does not define is a compile error. */
enum mmb_status mmb_compile(const struct mmb_compile_request *req, struct mmb_cubin *out,
                            char *err, size_t errlen);
void mmb_cubin_free(struct mmb_cubin *cubin);

/* Whether source mentions the identifier of a function name expression ("f" of
 * "f<float>") as a whole word: tells a missing function from other compile errors. */
bool mmb_names_identifier(const char *source, const char *name);

/* The -D macros NVRTC gets for cfg: "name=value" for each parameter and
 * "elem_t=<ctype>", written into storage; defines gets them NULL-terminated. */
#define MMB_DEFINE_LEN 96
void mmb_compile_defines(const struct mmb_kernel_spec *kernel, const struct mmb_config *cfg,
                         enum mmb_dtype dtype, char storage[][MMB_DEFINE_LEN], const char **defines);

/* The identity of the module cfg compiles to (kernel file, function, NVRTC options
 * and the defines above, each hashed with its terminating zero), for the caches in
 * memory: the session's loaded modules and the compile pool's jobs. The disk cache
 * has its own key, over the source text, all options and the NVRTC version. */
uint64_t mmb_compile_key(const struct mmb_kernel_spec *kernel, const char *const *defines);


#endif
