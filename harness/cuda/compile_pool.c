/* compile_pool.c - worker threads around mmb_compile. A job is one configuration
 * (kernel x defines); it is queued, run by a worker or by a caller that cannot wait,
 * and then done for good: jobs are never compiled twice, so two threads never write
 * the same cache file. Only the cache is the product: the cubin itself is freed. */
#include "cuda/compile_pool.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/error.h"
#include "core/imap.h"
#include "cuda/compile.h"

enum job_state { JOB_QUEUED, JOB_RUNNING, JOB_DONE };

struct job {
    uint64_t key;
    enum job_state state;
    unsigned long batch;  /* last batch that named it */
    const struct mmb_kernel_spec *kernel;
    const char *source;
    struct mmb_defines defines;
    enum mmb_status status;
    char *message;        /* the compiler's, when it failed; NULL: none or out of memory */
    double seconds;
    bool from_cache;
};

struct mmb_compile_pool {
    pthread_mutex_t lock;
    pthread_cond_t work, done;
    pthread_t *threads;
    int nthreads;
    int arch;
    char cache_dir[MMB_PATH_MAX]; /* "": none */
    struct mmb_imap jobs;     /* key -> struct job * */
    struct job **queue;       /* front first */
    size_t qlen;
    unsigned long batch;
    bool stop;
    struct mmb_compile_pool_stats stats;
};

/* Runs without the lock. */
static void run_job(const struct mmb_compile_pool *p, struct job *j)
{
    bool specific = false;
    char ignored[8];
    (void)mmb_kernel_target(j->kernel, p->arch, &specific, ignored, sizeof ignored); /* submit took only runnable */
    struct mmb_compile_request req = {
        .source_path = j->kernel->source, .source = j->source, .function = j->defines.function,
        .defines = j->defines.list, .arch = p->arch, .arch_specific = specific,
        .extra_options = j->kernel->nvrtc_options,
        .cache_dir = p->cache_dir[0] ? p->cache_dir : NULL, .prelude = j->kernel->prelude,
        .cuda_headers = j->defines.cuda_headers, .headers = j->defines.headers,
    };
    struct mmb_cubin cubin;
    char err[1024] = ""; /* a compile error is remembered in the cache with this much of its log */
    double t0 = mmb_seconds_now();
    j->status = mmb_compile(&req, &cubin, err, sizeof err);
    j->seconds = mmb_seconds_now() - t0;
    j->from_cache = cubin.from_cache;
    if (j->status == MMB_STATUS_OK)
        mmb_cubin_free(&cubin);
    else
        j->message = strdup(err);
}

/* With the lock held. */
static void finish_job(struct mmb_compile_pool *p, struct job *j)
{
    j->state = JOB_DONE;
    p->stats.failed += j->status != MMB_STATUS_OK;
    if (j->from_cache) {
        p->stats.cache_hits++;
    } else {
        p->stats.compiled++;
        p->stats.nvrtc_seconds += j->seconds;
    }
    pthread_cond_broadcast(&p->done);
}

static void *worker(void *arg)
{
    struct mmb_compile_pool *p = arg;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->stop && p->qlen == 0)
            pthread_cond_wait(&p->work, &p->lock);
        if (p->stop)
            break;
        struct job *j = p->queue[0];
        memmove(p->queue, p->queue + 1, (p->qlen - 1) * sizeof *p->queue);
        p->qlen--;
        if (j->state != JOB_QUEUED)
            continue; /* a caller took it */
        j->state = JOB_RUNNING;
        pthread_mutex_unlock(&p->lock);
        run_job(p, j);
        pthread_mutex_lock(&p->lock);
        finish_job(p, j);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

int mmb_compile_pool_open(struct mmb_compile_pool **out, int threads, int arch, const char *cache_dir,
                          char *err, size_t errlen)
{
    struct mmb_compile_pool *p = calloc(1, sizeof *p);
    int e;
    *out = NULL;
    if (!p || !(p->threads = calloc((size_t)threads, sizeof *p->threads))) {
        free(p);
        mmb_errorf(err, errlen, "out of host memory");
        return -1;
    }
    p->arch = arch;
    snprintf(p->cache_dir, sizeof p->cache_dir, "%s", cache_dir ? cache_dir : "");
    if ((e = pthread_mutex_init(&p->lock, NULL)) || (e = pthread_cond_init(&p->work, NULL)) ||
        (e = pthread_cond_init(&p->done, NULL))) {
        mmb_errorf(err, errlen, "%s:%d: pthread init: %s", __FILE__, __LINE__, strerror(e));
        free(p->threads);
        free(p);
        return -1;
    }
    for (; p->nthreads < threads; p->nthreads++) {
        if ((e = pthread_create(&p->threads[p->nthreads], NULL, worker, p))) {
            mmb_errorf(err, errlen, "%s:%d: pthread_create (thread %d of %d): %s", __FILE__, __LINE__,
                       p->nthreads + 1, threads, strerror(e));
            mmb_compile_pool_close(p);
            return -1;
        }
    }
    *out = p;
    return 0;
}

static struct job *find_job(const struct mmb_compile_pool *p, uint64_t key)
{
    uintptr_t v;
    return mmb_imap_get(&p->jobs, (size_t)key, &v) ? (struct job *)v : NULL;
}

int mmb_compile_pool_submit(struct mmb_compile_pool *p, const struct mmb_kernel_spec *kernel, const char *source,
                            const struct mmb_config *cfgs, size_t n, const struct mmb_size *size,
                            enum mmb_dtype dtype)
{
    int rc = 0;
    bool specific;
    char refused[8];
    if (!mmb_kernel_target(kernel, p->arch, &specific, refused, sizeof refused))
        return 0; /* the device cannot run it: the session records why */
    pthread_mutex_lock(&p->lock);
    unsigned long batch = ++p->batch;
    struct job **front = malloc((n + p->qlen) * sizeof *front);
    size_t nfront = 0;
    if (!front) {
        pthread_mutex_unlock(&p->lock);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        struct mmb_defines probe;
        char ignored[256];
        if (mmb_compile_defines(kernel, &cfgs[i], size, dtype, &probe, ignored, sizeof ignored) != 0)
            continue; /* the session records why */
        uint64_t key = mmb_compile_key(kernel, probe.list);
        struct job *j = find_job(p, key);
        if (!j) {
            if (!(j = malloc(sizeof *j)) || mmb_imap_put(&p->jobs, (size_t)key, (uintptr_t)j) != 0) {
                free(j);
                rc = -1;
                break;
            }
            memset(j, 0, sizeof *j);
            j->key = key;
            j->kernel = kernel;
            j->source = source;
            j->defines = probe;
            for (int d = 0; probe.list[d]; d++) /* into the job's own storage */
                j->defines.list[d] = j->defines.storage[d];
            p->stats.submitted++;
        } else if (j->state != JOB_QUEUED || j->batch == batch) {
            continue;
        }
        j->batch = batch;
        front[nfront++] = j;
    }
    /* This batch first, in its order; the rest as they were. */
    for (size_t i = 0; i < p->qlen; i++)
        if (p->queue[i]->state == JOB_QUEUED && p->queue[i]->batch != batch)
            front[nfront++] = p->queue[i];
    free(p->queue);
    p->queue = front;
    p->qlen = nfront;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->lock);
    return rc;
}

/* Waits for cfg's job as mmb_compile_pool_wait says; with the lock held on return.
 * NULL when it was never submitted. */
static struct job *job_wait(struct mmb_compile_pool *p, const struct mmb_kernel_spec *kernel,
                            const struct mmb_config *cfg, const struct mmb_size *size, enum mmb_dtype dtype)
{
    struct mmb_defines d;
    char ignored[256];
    double t0 = mmb_seconds_now();
    pthread_mutex_lock(&p->lock);
    if (mmb_compile_defines(kernel, cfg, size, dtype, &d, ignored, sizeof ignored) != 0)
        return NULL;
    struct job *j = find_job(p, mmb_compile_key(kernel, d.list));
    if (j && j->state == JOB_QUEUED) {
        /* No worker has started it: the caller would only wait for one to free up. */
        j->state = JOB_RUNNING;
        p->stats.inline_compiles++;
        pthread_mutex_unlock(&p->lock);
        run_job(p, j);
        pthread_mutex_lock(&p->lock);
        finish_job(p, j);
    }
    while (j && j->state != JOB_DONE)
        pthread_cond_wait(&p->done, &p->lock);
    p->stats.wait_seconds += mmb_seconds_now() - t0;
    return j;
}

void mmb_compile_pool_wait(struct mmb_compile_pool *p, const struct mmb_kernel_spec *kernel,
                           const struct mmb_config *cfg, const struct mmb_size *size, enum mmb_dtype dtype,
                           double *ms, bool *from_cache)
{
    struct job *j = job_wait(p, kernel, cfg, size, dtype);
    *ms = j ? j->seconds * 1e3 : NAN;
    *from_cache = j && j->from_cache;
    pthread_mutex_unlock(&p->lock);
}

enum mmb_status mmb_compile_pool_result(struct mmb_compile_pool *p, const struct mmb_kernel_spec *kernel,
                                        const struct mmb_config *cfg, const struct mmb_size *size,
                                        enum mmb_dtype dtype, char *err, size_t errlen)
{
    struct job *j = job_wait(p, kernel, cfg, size, dtype);
    enum mmb_status st = j ? j->status : MMB_STATUS_SKIPPED;
    if (!j)
        mmb_errorf(err, errlen, "not submitted to the compile pool");
    else if (st != MMB_STATUS_OK)
        mmb_errorf(err, errlen, "%s", j->message ? j->message : "(the compiler's message was lost: out of memory)");
    pthread_mutex_unlock(&p->lock);
    return st;
}

void mmb_compile_pool_stats(struct mmb_compile_pool *p, struct mmb_compile_pool_stats *out)
{
    pthread_mutex_lock(&p->lock);
    *out = p->stats;
    pthread_mutex_unlock(&p->lock);
}

static void free_job(void *ctx, size_t key, uintptr_t value)
{
    struct job *j = (struct job *)value;
    free(j->message);
    free(j);
}

void mmb_compile_pool_close(struct mmb_compile_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    p->stop = true;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->lock);
    for (int i = 0; i < p->nthreads; i++)
        pthread_join(p->threads[i], NULL);
    mmb_imap_each(&p->jobs, free_job, NULL);
    mmb_imap_free(&p->jobs);
    free(p->queue);
    free(p->threads);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->done);
    free(p);
}
