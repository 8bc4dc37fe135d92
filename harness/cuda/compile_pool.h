/* compile_pool.h - NVRTC compiles run ahead of the GPU on worker threads (pthreads):
 * `tune` hands over the configurations it will measure next, the workers compile
 * them into the on-disk cubin cache, and the session then loads them from there.
 * Each configuration compiles once; the most recent batch goes first. */
#ifndef MMB_COMPILE_POOL_H
#define MMB_COMPILE_POOL_H

#include <stdbool.h>
#include <stddef.h>

#include "core/dtype.h"
#include "core/status.h"
#include "model/profile.h"
#include "model/space.h"

struct mmb_compile_pool;

struct mmb_compile_pool_stats {
    size_t submitted;        /* distinct configurations handed over */
    size_t compiled;         /* run through NVRTC */
    size_t cache_hits;       /* answered by the cache: a cubin, or a remembered compile error */
    size_t failed;           /* compile errors, of either */
    size_t inline_compiles;  /* taken from the queue by mmb_compile_pool_wait */
    double nvrtc_seconds;    /* summed over threads; cache reads excluded */
    double wait_seconds;     /* the caller blocked in mmb_compile_pool_wait */
};

/* threads >= 1; cache_dir is how cubins reach the session (NULL: nothing is kept,
 * for a compile check). Returns 0, or -1 with err. */
int mmb_compile_pool_open(struct mmb_compile_pool **out, int threads, int arch, const char *cache_dir,
                          char *err, size_t errlen);

/* Queues cfgs[0..n) of kernel for dtype at size (which its defines may read) ahead of everything queued before. source
 * is the kernel's text and must outlive the pool. Returns 0, or -1 when out of memory
 * (nothing is lost but time: the session compiles what the pool did not). */
int mmb_compile_pool_submit(struct mmb_compile_pool *p, const struct mmb_kernel_spec *kernel, const char *source,
                            const struct mmb_config *cfgs, size_t n, const struct mmb_size *size,
                            enum mmb_dtype dtype);

/* Returns once cfg's compile is over: at once when it is done or was never
 * submitted, after it when a worker is on it; one still queued is compiled by the
 * caller. *ms gets the compile's duration (NaN when not the pool's) and *from_cache
 * whether the cache already held it. */
void mmb_compile_pool_wait(struct mmb_compile_pool *p, const struct mmb_kernel_spec *kernel,
                           const struct mmb_config *cfg, const struct mmb_size *size, enum mmb_dtype dtype,
                           double *ms, bool *from_cache);

/* As mmb_compile_pool_wait, and how the compile ended: MMB_STATUS_OK, or its status
 * with the compiler's message (the one the cache remembered, for a rejection it
 * remembered) in err; MMB_STATUS_SKIPPED when cfg was not submitted (the device does
 * not run the kernel, or its defines cannot be evaluated). */
enum mmb_status mmb_compile_pool_result(struct mmb_compile_pool *p, const struct mmb_kernel_spec *kernel,
                                        const struct mmb_config *cfg, const struct mmb_size *size,
                                        enum mmb_dtype dtype, char *err, size_t errlen);

void mmb_compile_pool_stats(struct mmb_compile_pool *p, struct mmb_compile_pool_stats *out);
/* Drops what is queued, waits for the running compiles, joins the threads. */
void mmb_compile_pool_close(struct mmb_compile_pool *p);

#endif
