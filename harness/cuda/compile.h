/* compile.h - NVRTC compilation of a kernel source for one configuration, with an
 * on-disk cubin cache keyed by a hash of (source and every file it includes, options,
 * arch, NVRTC version).
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
    bool arch_specific;        /* sm_90a: the arch-specific variant (a kernel's `target`, mmb_kernel_target) */
    const char *extra_options; /* space-separated, may be NULL */
    enum mmb_prelude prelude;  /* pre-included ahead of the source */
    const char *cache_dir;     /* NULL: no cache */
    /* The CUDA toolkit's headers: when set, NVRTC searches the toolkit's include
     * folder (mmb_cuda_include_dir) and pre-includes the headers of `headers`
     * (NULL-terminated; NULL: none), as a dtype's element types need them. */
    bool cuda_headers;
    const char *const *headers;
};

struct mmb_cubin {
    void *data;
    size_t size;
    char function[256];        /* the request's function as the module names it (C++ names mangled) */
    bool from_cache;
    double compile_seconds;
};

/* The NVRTC library's version (12 and 4 for 12.4). Returns 0, or -1 with err. */
int mmb_compile_nvrtc_version(int *major, int *minor, char *err, size_t errlen);

/* Returns MMB_STATUS_OK, or MMB_STATUS_COMPILE_ERROR with the compiler's log (first
 * lines) in err. The function is compiled as an NVRTC name expression, so that a
 * template instance (`f<float>`) or a C++ function is found under its lowered name
 * (out->function), and a function the source does not define is a compile error. */
enum mmb_status mmb_compile(const struct mmb_compile_request *req, struct mmb_cubin *out,
                            char *err, size_t errlen);
void mmb_cubin_free(struct mmb_cubin *cubin);

struct mmb_module;
struct mmb_kernel_attrs;
/* mmb_compile, then mmb_module_load of the request's function (gpu.h): the module of
 * one kernel, with its attributes. */
enum mmb_status mmb_module_build(const struct mmb_compile_request *req, struct mmb_module **out,
                                 struct mmb_kernel_attrs *attrs, char *err, size_t errlen);

/* What NVRTC gets for req, as one line, without the first skip_defines of its -D
 * macros (a configuration's parameters, which the row's params hold): the
 * architecture, the standard, the prelude, the other defines, the extra options, then
 * NVRTC's version, as "--gpu-architecture=sm_90 --std=c++17 -Delem_t=float -lineinfo
 * (NVRTC 13.0)"; a text longer than len keeps its start and a hash of the whole.
 * Returns 0, or -1 with err. */
int mmb_compile_options_text(const struct mmb_compile_request *req, int skip_defines, char *out, size_t len,
                             char *err, size_t errlen);

/* Whether source mentions the identifier of a function name expression ("f" of
 * "f<float>") as a whole word: tells a missing function from other compile errors. */
bool mmb_names_identifier(const char *source, const char *name);

/* What one configuration compiles with: the -D macros ("name=value" for each
 * parameter, each define.NAME at this size, then the dtype's types "elem_t=<input>",
 * "acc_t=<accumulator>", "out_t=<output>", and "b_col_major=1" where B is K-major),
 * NULL-terminated; the function as NVRTC names it (elem_t in a template instance
 * replaced by the dtype's C type); and the CUDA headers the types need (a request's
 * cuda_headers and headers). */
#define MMB_DEFINE_LEN 96
#define MMB_DTYPE_DEFINES 4
struct mmb_defines {
    char storage[MMB_MAX_PARAMS + MMB_MAX_DEFINES + MMB_DTYPE_DEFINES][MMB_DEFINE_LEN];
    const char *list[MMB_MAX_PARAMS + MMB_MAX_DEFINES + MMB_DTYPE_DEFINES + 1];
    char function[160];
    bool cuda_headers;
    const char *headers[3];
};

/* The CUDA toolkit's include folder NVRTC is given for dtypes that need its headers:
 * MMB_CUDA_INCLUDE, else $CUDA_HOME/include, $CUDA_PATH/include, the toolkit mmbench
 * was built with, /usr/local/cuda/include: the first that holds cuda_fp16.h. NULL
 * when none does. */
const char *mmb_cuda_include_dir(void);

/* size may be NULL only for a kernel whose defines do not name M, N or K. Returns 0,
 * or -1 with err when a define cannot be evaluated (a compile_error row). */
int mmb_compile_defines(const struct mmb_kernel_spec *kernel, const struct mmb_config *cfg,
                        const struct mmb_size *size, enum mmb_dtype dtype, struct mmb_defines *out, char *err,
                        size_t errlen);

/* The identity of the module cfg compiles to (kernel file, function, NVRTC options,
 * its targets and the defines above, each hashed with its terminating zero), for the
 * caches in memory: the session's loaded modules and the compile pool's jobs. The
 * disk cache has its own key, over the source text and every file it includes, all
 * options (the arch and its variant too) and the NVRTC version. */
uint64_t mmb_compile_key(const struct mmb_kernel_spec *kernel, const char *const *defines);


#endif
