/* inputs.c - random inputs and result comparison on the host. */
#include "model/inputs.h"

#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "core/hash.h"

/* Elements [start, end) of the sequence: element i is the (i+1)-th draw of
 * splitmix64 from seed, whose state after i draws is seed + i * its increment, so
 * any range is filled without the ones before it. */
static void fill_range(void *data, size_t start, size_t end, enum mmb_format fmt, uint64_t seed)
{
    const struct mmb_format_info *f = mmb_format_info(fmt);
    uint64_t state = seed + (uint64_t)start * 0x9e3779b97f4a7c15ULL;
    uint64_t span = (uint64_t)(f->draw_max - f->draw_min) + 1;
    for (size_t i = start; i < end; i++) {
        uint64_t r = mmb_splitmix64(&state);
        if (f->precision == 0) {
            f->encode(data, i, (double)((int64_t)(r % span) + f->draw_min));
        } else {
            double u = (double)(r >> 11) * 0x1.0p-53; /* [0, 1) */
            f->encode(data, i, u * (f->draw_max - f->draw_min) + f->draw_min);
        }
    }
}

struct fill_job {
    void *data;
    size_t start, end;
    enum mmb_format fmt;
    uint64_t seed;
};

static void *fill_thread(void *opaque)
{
    struct fill_job *j = opaque;
    fill_range(j->data, j->start, j->end, j->fmt, j->seed);
    return NULL;
}

void mmb_inputs_run_threads(void *(*fn)(void *), void *jobs, size_t job_size, size_t n)
{
    pthread_t threads[MMB_INPUTS_THREADS_MAX];
    bool started[MMB_INPUTS_THREADS_MAX];
    char *base = jobs;
    if (n > MMB_INPUTS_THREADS_MAX)
        n = MMB_INPUTS_THREADS_MAX;
    for (size_t t = 0; t < n; t++)
        started[t] = t > 0 && pthread_create(&threads[t], NULL, fn, base + t * job_size) == 0;
    for (size_t t = 0; t < n; t++)
        if (!started[t])
            fn(base + t * job_size);
    for (size_t t = 1; t < n; t++)
        if (started[t])
            pthread_join(threads[t], NULL);
}

size_t mmb_inputs_threads(size_t items, size_t per_thread)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    size_t n = per_thread ? items / per_thread : 1;
    if (n > MMB_INPUTS_THREADS_MAX)
        n = MMB_INPUTS_THREADS_MAX;
    if (cores > 0 && n > (size_t)cores)
        n = (size_t)cores;
    return n < 1 ? 1 : n;
}

/* Elements a thread of a pass takes at least. */
#define PASS_PER_THREAD (1u << 20)

/* In threads for large matrices (an 8192 x 8192 one took 0.3 s alone). */
void mmb_inputs_fill_format(void *data, size_t count, enum mmb_format fmt, uint64_t seed)
{
    if (!mmb_format_info(fmt))
        return;
    size_t nthreads = mmb_inputs_threads(count, PASS_PER_THREAD);
    struct fill_job jobs[MMB_INPUTS_THREADS_MAX];
    for (size_t t = 0; t < nthreads; t++)
        jobs[t] = (struct fill_job){data, count * t / nthreads, count * (t + 1) / nthreads, fmt, seed};
    mmb_inputs_run_threads(fill_thread, jobs, sizeof jobs[0], nthreads);
}

void mmb_inputs_fill(void *data, size_t count, enum mmb_dtype dtype, uint64_t seed)
{
    const struct mmb_dtype_info *d = mmb_dtype_info(dtype);
    if (d)
        mmb_inputs_fill_format(data, count, d->in, seed);
}

int mmb_inputs_poison_byte(enum mmb_dtype dtype)
{
    const struct mmb_dtype_info *d = mmb_dtype_info(dtype);
    return d ? mmb_format_info(d->out)->poison_byte : 0xFF;
}

double mmb_inputs_element(const void *p, size_t i, enum mmb_format fmt)
{
    const struct mmb_format_info *f = mmb_format_info(fmt);
    return f ? f->decode(p, i) : NAN;
}

struct max_job {
    const void *ref;
    size_t start, end;
    enum mmb_format fmt;
    double max;
};

static void *max_thread(void *opaque)
{
    struct max_job *j = opaque;
    const struct mmb_format_info *f = mmb_format_info(j->fmt);
    double m = 0.0;
    for (size_t i = j->start; f && i < j->end; i++) {
        double r = fabs(f->decode(j->ref, i));
        if (r > m)
            m = r;
    }
    j->max = m;
    return NULL;
}

/* In threads as the fill is (an 8192 x 8192 reference took 0.2-0.5 s alone). */
double mmb_inputs_ref_max(const void *ref, size_t count, enum mmb_format fmt)
{
    size_t nthreads = mmb_inputs_threads(count, PASS_PER_THREAD);
    struct max_job jobs[MMB_INPUTS_THREADS_MAX];
    for (size_t t = 0; t < nthreads; t++)
        jobs[t] = (struct max_job){ref, count * t / nthreads, count * (t + 1) / nthreads, fmt, 0.0};
    mmb_inputs_run_threads(max_thread, jobs, sizeof jobs[0], nthreads);
    double ref_max = 0.0;
    for (size_t t = 0; t < nthreads; t++)
        if (jobs[t].max > ref_max)
            ref_max = jobs[t].max;
    return ref_max == 0.0 ? 1.0 : ref_max; /* an all-zero reference: compare absolute errors */
}

void mmb_inputs_compare(const void *out, const void *ref, size_t count, enum mmb_dtype dtype,
                        double tolerance, struct mmb_compare *result)
{
    const struct mmb_dtype_info *d = mmb_dtype_info(dtype);
    result->mismatches = 0;
    result->first_bad = count;
    result->max_rel_err = INFINITY;
    result->ok = false;
    if (!d)
        return;
    double ref_max = mmb_inputs_ref_max(ref, count, d->ref), err_max = 0.0;
    double u_out = mmb_dtype_out_roundoff(dtype);
    for (size_t i = 0; i < count; i++) {
        double o = mmb_inputs_element(out, i, d->out), r = mmb_inputs_element(ref, i, d->ref);
        double e = isnan(o) || isinf(o) ? INFINITY : fabs(o - r) / ref_max;
        double bound = tolerance;
        if (u_out > 0.0) {
            double rel = fabs(r) / ref_max;
            double allowance = u_out * rel;
            bound = tolerance + allowance;
        }
        bool bad = d->tolerance.exact ? o != r : !(e <= bound);
        if (bad) {
            if (result->mismatches++ == 0)
                result->first_bad = i;
        }
        if (e > err_max || isnan(e))
            err_max = isnan(e) ? INFINITY : e;
    }
    result->max_rel_err = err_max;
    result->ok = result->mismatches == 0;
}
