/* select.c - what the report draws from the rows it read: the story's profile
 * (profiles.c), the GPUs (oldest first), the kernels (the story's in its profile's
 * order, cuBLAS last of them; then the other profiles'), the shapes
 * of the selected dtype and cache mode, and one best configuration (lowest median
 * time) per GPU, kernel and shape, so that a kernel is one line however many
 * configurations were swept. Every step sorts or groups rows, so time grows as
 * n log n and memory as n with the number of rows. */
#include "report/input/select.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cache.h"
#include "core/dtype.h"
#include "core/error.h"
#include "core/file.h"
#include "report/input/profiles.h"
#include "report/input/row.h"
#include "report/input/story.h"

static bool positive(double v)
{
    return isfinite(v) && v > 0.0;
}

/* Every row grouped by key, with its arrays; the caller frees both. */
static long rows_group_new(const struct mmb_report_data *d,
                           int (*key)(const struct mmb_report_row *a, const struct mmb_report_row *b), size_t **group,
                           size_t **first)
{
    *group = malloc((d->nrows ? d->nrows : 1) * sizeof **group);
    *first = malloc((d->nrows ? d->nrows : 1) * sizeof **first);
    return *group && *first ? mmb_report_row_group(d, NULL, d->nrows, key, *group, *first) : -1;
}

/* The row where a list outgrew its limit, as the message names it. */
static int limit_fail(const struct mmb_report_data *d, size_t row, const char *what, const char *name, int max,
                      char *err, size_t errlen)
{
    const struct mmb_report_row *r = &d->rows[row];
    return mmb_failf(err, errlen, "%s:%ld: %s '%s' is one more than the %d that a report tells apart (name fewer CSV files)",
                     d->files[r->file].path, r->line, what, name, max);
}

/* ---- GPUs -------------------------------------------------------------------------- */

static const char *row_gpu_name(const struct mmb_row *r)
{
    return r->gpu[0] ? r->gpu : "unknown GPU";
}

static int gpu_key(const struct mmb_report_row *a, const struct mmb_report_row *b)
{
    return strcmp(row_gpu_name(&a->r), row_gpu_name(&b->r));
}

/* Older generations first, so that side-by-side figures read left to right in time;
 * the FP32 peak is the one number every row carries that orders them. */
static int gpu_cmp(const void *a, const void *b)
{
    const struct mmb_report_gpu *x = a, *y = b;
    bool kx = isfinite(x->peak_gflops), ky = isfinite(y->peak_gflops);
    if (kx != ky)
        return kx ? -1 : 1;
    if (kx && x->peak_gflops != y->peak_gflops)
        return x->peak_gflops < y->peak_gflops ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* Orders the GPUs oldest first and moves every row's index with its GPU. */
static void gpus_order(struct mmb_report_data *d)
{
    size_t n = d->ngpus, to[MMB_REPORT_GPUS_MAX];
    struct mmb_report_gpu old[MMB_REPORT_GPUS_MAX];
    memcpy(old, d->gpus, n * sizeof *old);
    if (n > 1)
        qsort(d->gpus, n, sizeof *d->gpus, gpu_cmp);
    for (size_t g = 0; g < n; g++)
        for (size_t h = 0; h < n; h++)
            if (strcmp(d->gpus[h].name, old[g].name) == 0)
                to[g] = h;
    for (size_t i = 0; i < d->nrows; i++)
        d->rows[i].gpu = to[d->rows[i].gpu];
}

static void gpus_count(struct mmb_report_data *d)
{
    for (size_t g = 0; g < d->ngpus; g++) {
        char slug[MMB_REPORT_NAME_MAX];
        mmb_gpu_slug(d->gpus[g].name, slug, sizeof slug);
        /* two names may reduce to one slug: keep file names apart */
        snprintf(d->gpus[g].slug, sizeof d->gpus[g].slug, "%s", slug);
        for (size_t h = 0; h < g; h++)
            if (strcmp(d->gpus[h].slug, slug) == 0)
                snprintf(d->gpus[g].slug, sizeof d->gpus[g].slug, "%.40s-%zu", slug, g + 1);
    }
    for (size_t i = 0; i < d->nrows; i++) {
        struct mmb_report_row *rr = &d->rows[i];
        struct mmb_report_gpu *gp = &d->gpus[rr->gpu];
        gp->rows++;
        gp->published += rr->published;
        gp->all_published = gp->all_published && rr->published;
        if ((unsigned)rr->r.status < MMB_STATUS_COUNT)
            gp->by_status[rr->r.status]++;
    }
}

static int gpus_collect(struct mmb_report_data *d, char *err, size_t errlen)
{
    size_t *group, *first;
    long n = rows_group_new(d, gpu_key, &group, &first);
    int rc = 0;
    if (n < 0)
        rc = mmb_failf(err, errlen, "out of memory");
    else if (n > MMB_REPORT_GPUS_MAX)
        rc = limit_fail(d, first[MMB_REPORT_GPUS_MAX], "GPU", row_gpu_name(&d->rows[first[MMB_REPORT_GPUS_MAX]].r),
                        MMB_REPORT_GPUS_MAX, err, errlen);
    else if (!(d->gpus = calloc(n ? (size_t)n : 1, sizeof *d->gpus)))
        rc = mmb_failf(err, errlen, "out of memory");
    if (rc == 0) {
        d->ngpus = (size_t)n;
        for (size_t g = 0; g < d->ngpus; g++) {
            snprintf(d->gpus[g].name, sizeof d->gpus[g].name, "%s", row_gpu_name(&d->rows[first[g]].r));
            d->gpus[g].peak_gbps = d->gpus[g].peak_gflops = NAN;
            d->gpus[g].all_published = true;
        }
        for (size_t i = 0; i < d->nrows; i++) {
            const struct mmb_row *r = &d->rows[i].r;
            struct mmb_report_gpu *gp = &d->gpus[group[i]];
            d->rows[i].gpu = group[i];
            /* the FP32 peak: rows carry their own pipe's (FP64, INT32, the tensor cores) */
            double fp32_peak = mmb_row_fp32_peak(r);
            if (positive(r->peak_gbps) && !(r->peak_gbps <= gp->peak_gbps))
                gp->peak_gbps = r->peak_gbps;
            if (positive(fp32_peak) && !(fp32_peak <= gp->peak_gflops))
                gp->peak_gflops = fp32_peak;
        }
        gpus_order(d);
        gpus_count(d);
    }
    free(group);
    free(first);
    return rc;
}

/* ---- kernels ------------------------------------------------------------------------ */

static int kernel_key(const struct mmb_report_row *a, const struct mmb_report_row *b)
{
    return strcmp(a->r.kernel, b->r.kernel);
}

/* Where kernel group g goes: the story's kernels in the main profile's order (a
 * kernel only published rows name after them), then the others by first
 * appearance; cuBLAS last of the story when the story has it, else last of all. */
static void kernels_order(struct mmb_report_data *d, const size_t *group, const size_t *first, size_t n, size_t *to)
{
    size_t key[MMB_REPORT_KERNELS_MAX], order[MMB_REPORT_KERNELS_MAX];
    bool story[MMB_REPORT_KERNELS_MAX] = {false};
    int cublas = -1;
    for (size_t g = 0; g < n; g++) {
        key[g] = SIZE_MAX;
        if (strcmp(d->rows[first[g]].r.kernel, mmb_row_reference_kernel()) == 0)
            cublas = (int)g;
    }
    /* the first row of the main profile that names it, else the first published one after them */
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_report_row *rr = &d->rows[i];
        size_t g = group[i], at = (int)rr->profile == d->main && !rr->published ? i : d->nrows + i;
        if (rr->story && at < key[g])
            key[g] = at;
        story[g] = story[g] || rr->story;
    }
    size_t m = 0;
    for (int pass = 0; pass < 2; pass++) {
        size_t from = m;
        for (size_t g = 0; g < n; g++)
            if (story[g] == (pass == 0) && (int)g != cublas)
                order[m++] = g;
        for (size_t i = from + 1; i < m; i++) /* by key, stable: few kernels */
            for (size_t j = i; pass == 0 && j > from && key[order[j]] < key[order[j - 1]]; j--) {
                size_t t = order[j];
                order[j] = order[j - 1];
                order[j - 1] = t;
            }
        if (pass == 0) {
            if (cublas >= 0 && story[cublas])
                order[m++] = (size_t)cublas;
            d->nstory = m;
        }
    }
    if (cublas >= 0 && !story[cublas])
        order[m++] = (size_t)cublas;
    d->cublas = -1;
    for (size_t j = 0; j < m; j++) {
        to[order[j]] = j;
        snprintf(d->kernels[j], MMB_REPORT_NAME_MAX, "%s", d->rows[first[order[j]]].r.kernel);
        if ((int)order[j] == cublas)
            d->cublas = (int)j;
    }
    d->nkernels = m;
}

static int kernels_collect(struct mmb_report_data *d, char *err, size_t errlen)
{
    size_t *group, *first;
    long n = rows_group_new(d, kernel_key, &group, &first);
    int rc = 0;
    if (n < 0)
        rc = mmb_failf(err, errlen, "out of memory");
    else if (n > MMB_REPORT_KERNELS_MAX)
        rc = limit_fail(d, first[MMB_REPORT_KERNELS_MAX], "kernel", d->rows[first[MMB_REPORT_KERNELS_MAX]].r.kernel,
                        MMB_REPORT_KERNELS_MAX, err, errlen);
    else if (!(d->kernels = calloc(n ? (size_t)n : 1, sizeof *d->kernels)))
        rc = mmb_failf(err, errlen, "out of memory");
    if (rc == 0) {
        size_t to[MMB_REPORT_KERNELS_MAX];
        kernels_order(d, group, first, (size_t)n, to);
        for (size_t i = 0; i < d->nrows; i++)
            d->rows[i].kernel = to[group[i]];
    }
    free(group);
    free(first);
    return rc;
}

/* ---- the selection: dtype, cache mode, shapes ------------------------------------------- */

static bool row_ok(const struct mmb_row *r)
{
    return r->status == MMB_STATUS_OK && positive(r->time_ms_median) && r->m > 0 && r->n > 0 && r->k > 0;
}

static bool cache_matches(const char *want, const char *have)
{
    return !want[0] || !have[0] || strcmp(want, have) == 0;
}

static int selection_defaults(struct mmb_report_data *d, const char *dtype, const char *cache, char *err,
                              size_t errlen)
{
    bool any_dtype = false, f32 = false;
    const char *first = NULL;
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_row *r = &d->rows[i].r;
        if (!row_ok(r) || !d->rows[i].story)
            continue;
        if (!first)
            first = r->dtype;
        f32 = f32 || strcmp(r->dtype, "f32") == 0;
        any_dtype = any_dtype || (dtype && strcmp(r->dtype, dtype) == 0);
    }
    if (dtype && !any_dtype) {
        mmb_errorf(err, errlen, "--dtype %s: no ok row of that element type in the data", dtype);
        return -1;
    }
    snprintf(d->dtype, sizeof d->dtype, "%s", dtype ? dtype : f32 ? "f32" : first ? first : "f32");

    const char *cold_text = mmb_cache_text(MMB_CACHE_COLD), *hot_text = mmb_cache_text(MMB_CACHE_HOT);
    bool cold = false, hot = false, named = false;
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_row *r = &d->rows[i].r;
        if (!row_ok(r) || !d->rows[i].story || strcmp(r->dtype, d->dtype) != 0)
            continue;
        cold = cold || strcmp(r->cache, cold_text) == 0;
        hot = hot || strcmp(r->cache, hot_text) == 0;
        named = named || (cache && strcmp(cache, r->cache) == 0);
    }
    if (cache && !named) {
        mmb_errorf(err, errlen, "--cache %s: no ok %s row measured in that cache mode", cache, d->dtype);
        return -1;
    }
    /* cold by default: each launch then pays its compulsory DRAM traffic, which is
     * what the bandwidth and roofline figures mean to show */
    snprintf(d->cache, sizeof d->cache, "%s", cache ? cache : cold ? cold_text : hot ? hot_text : "");
    return 0;
}

static double shape_work(const struct mmb_report_shape *s)
{
    return (double)s->m * (double)s->n * (double)s->k;
}

static int shape_cmp(const void *a, const void *b)
{
    const struct mmb_report_shape *x = a, *y = b;
    double wx = shape_work(x), wy = shape_work(y);
    if (wx != wy)
        return wx < wy ? -1 : 1;
    if (x->m != y->m)
        return x->m < y->m ? -1 : 1;
    if (x->n != y->n)
        return x->n < y->n ? -1 : 1;
    return (x->k > y->k) - (x->k < y->k);
}

static bool shape_eq(const struct mmb_report_shape *a, long long m, long long n, long long k)
{
    return a->m == m && a->n == n && a->k == k;
}

/* The selected rows' shapes, by FLOP count, each shape once; every selected row
 * learns its shape's index. */
static int shapes_collect(struct mmb_report_data *d, char *err, size_t errlen)
{
    d->shapes = calloc(d->nrows ? d->nrows : 1, sizeof *d->shapes);
    if (!d->shapes)
        return mmb_failf(err, errlen, "out of memory");
    size_t n = 0;
    for (size_t i = 0; i < d->nrows; i++) {
        struct mmb_report_row *rr = &d->rows[i];
        const struct mmb_row *r = &rr->r;
        rr->selected = rr->story && row_ok(r) && strcmp(r->dtype, d->dtype) == 0 && cache_matches(d->cache, r->cache);
        if (row_ok(r) && !rr->story)
            d->other_profile++;
        else if (row_ok(r) && !rr->selected) {
            if (strcmp(r->dtype, d->dtype) != 0)
                d->other_dtype++;
            else
                d->other_cache++;
        }
        if (rr->selected)
            d->shapes[n++] = (struct mmb_report_shape){r->m, r->n, r->k};
    }
    if (n > 1)
        qsort(d->shapes, n, sizeof *d->shapes, shape_cmp);
    for (size_t s = 0; s < n; s++)
        if (d->nshapes == 0 || shape_cmp(&d->shapes[d->nshapes - 1], &d->shapes[s]) != 0)
            d->shapes[d->nshapes++] = d->shapes[s];
    if (d->nshapes > MMB_REPORT_SHAPES_MAX) {
        const struct mmb_report_shape *over = &d->shapes[MMB_REPORT_SHAPES_MAX];
        for (size_t i = 0; i < d->nrows; i++) {
            const struct mmb_report_row *rr = &d->rows[i];
            if (rr->selected && shape_eq(over, rr->r.m, rr->r.n, rr->r.k)) {
                char label[96];
                mmb_report_shape_label(over, label, sizeof label);
                return limit_fail(d, i, "matrix size", label, MMB_REPORT_SHAPES_MAX, err, errlen);
            }
        }
    }
    for (size_t i = 0; i < d->nrows; i++) {
        struct mmb_report_row *rr = &d->rows[i];
        if (!rr->selected)
            continue;
        struct mmb_report_shape key = {rr->r.m, rr->r.n, rr->r.k};
        const struct mmb_report_shape *at = bsearch(&key, d->shapes, d->nshapes, sizeof *d->shapes, shape_cmp);
        rr->shape = (int)(at - d->shapes);
    }
    return 0;
}

/* ---- the best row per (GPU, kernel, shape) -------------------------------------------------- */

static int best_cmp(const void *a, const void *b)
{
    const struct mmb_report_best *x = a, *y = b;
    if (x->gpu != y->gpu)
        return x->gpu < y->gpu ? -1 : 1;
    if (x->kernel != y->kernel)
        return x->kernel < y->kernel ? -1 : 1;
    return (x->shape > y->shape) - (x->shape < y->shape);
}

/* By (GPU, kernel, shape), then the lowest median time, then the first row. */
static int candidate_cmp(const void *a, const void *b, void *data)
{
    int c = best_cmp(a, b);
    if (c)
        return c;
    const struct mmb_report_best *x = a, *y = b;
    const struct mmb_report_data *d = data;
    double tx = d->rows[x->row].r.time_ms_median, ty = d->rows[y->row].r.time_ms_median;
    if (tx != ty)
        return tx < ty ? -1 : 1;
    return (x->row > y->row) - (x->row < y->row);
}

/* DRAM writes reach DRAM when lines are evicted: an output that fits in L2 is still
 * there when the kernel ends, so its writes go uncounted. */
static void row_note(struct mmb_report_data *d, struct mmb_report_row *rr)
{
    struct mmb_report_gpu *gp = &d->gpus[rr->gpu];
    gp->selected++;
    enum mmb_dtype t;
    size_t size = mmb_dtype_parse(rr->r.dtype, &t) ? mmb_dtype_info(t)->size : 4;
    double out_bytes = (double)rr->r.m * (double)rr->r.n * (double)size;
    rr->l2_low = isfinite(rr->r.dram_write_bytes) && rr->r.dram_write_bytes < 0.5 * out_bytes;
    gp->l2_low += rr->l2_low;
}

static int best_collect(struct mmb_report_data *d, char *err, size_t errlen)
{
    size_t n = 0;
    for (size_t i = 0; i < d->nrows; i++)
        n += d->rows[i].selected;
    d->best = malloc((n ? n : 1) * sizeof *d->best);
    if (!d->best)
        return mmb_failf(err, errlen, "out of memory");
    for (size_t i = 0; i < d->nrows; i++) {
        struct mmb_report_row *rr = &d->rows[i];
        if (!rr->selected)
            continue;
        row_note(d, rr);
        d->best[d->nbest++] = (struct mmb_report_best){rr->gpu, rr->kernel, (size_t)rr->shape, i};
    }
    if (d->nbest > 1)
        qsort_r(d->best, d->nbest, sizeof *d->best, candidate_cmp, d);
    /* the first of each (GPU, kernel, shape) is its best */
    size_t kept = 0;
    for (size_t i = 0; i < d->nbest; i++)
        if (kept == 0 || best_cmp(&d->best[kept - 1], &d->best[i]) != 0)
            d->best[kept++] = d->best[i];
    d->nbest = kept;
    /* counters matter where they are drawn: at the best rows (counters = best counts only those) */
    for (size_t i = 0; i < d->nbest; i++) {
        struct mmb_report_gpu *gp = &d->gpus[d->best[i].gpu];
        const struct mmb_report_row *rr = &d->rows[d->best[i].row];
        gp->plotted++;
        gp->with_counters += mmb_report_row_has_bandwidth(rr) || mmb_report_row_has_util(rr);
    }
    return 0;
}

static int reference_pick(struct mmb_report_data *d, const struct mmb_report_shape *ref, char *err,
                          size_t errlen)
{
    d->ref = -1;
    if (ref) {
        for (size_t s = 0; s < d->nshapes; s++)
            if (shape_eq(&d->shapes[s], ref->m, ref->n, ref->k))
                d->ref = (int)s;
        if (d->ref < 0) {
            char want[96], list[1024] = "";
            mmb_report_shape_label(ref, want, sizeof want);
            for (size_t s = 0, o = 0; s < d->nshapes && o < sizeof list - 1; s++) {
                char l[96];
                mmb_report_shape_label(&d->shapes[s], l, sizeof l);
                int w = snprintf(list + o, sizeof list - o, "%s%s", s ? ", " : "", l);
                o += w > 0 ? (size_t)w : 0;
            }
            mmb_errorf(err, errlen, "--size %s: no ok %s row at that size; sizes in the data: %s", want, d->dtype,
                       d->nshapes ? list : "none");
            return -1;
        }
        return 0;
    }
    for (size_t s = 0; s < d->nshapes; s++)
        if (shape_eq(&d->shapes[s], mmb_report_story.ref_size, mmb_report_story.ref_size, mmb_report_story.ref_size)) {
            d->ref = (int)s;
            return 0;
        }
    /* else the shape most (GPU, kernel) pairs reach, the largest of equals */
    size_t *count = calloc(d->nshapes ? d->nshapes : 1, sizeof *count), best_count = 0;
    if (!count)
        return mmb_failf(err, errlen, "out of memory");
    for (size_t i = 0; i < d->nbest; i++)
        count[d->best[i].shape]++;
    for (size_t s = 0; s < d->nshapes; s++)
        if (count[s] >= best_count) {
            best_count = count[s];
            d->ref = (int)s;
        }
    free(count);
    return 0;
}

int mmb_report_select(struct mmb_report_data *d, const char *profile, const char *dtype, const char *cache,
                      const struct mmb_report_shape *ref, char *err, size_t errlen)
{
    if (mmb_report_profiles_pick(d, profile, err, errlen) != 0 || selection_defaults(d, dtype, cache, err, errlen) != 0 ||
        gpus_collect(d, err, errlen) != 0 ||
        kernels_collect(d, err, errlen) != 0 || shapes_collect(d, err, errlen) != 0 ||
        best_collect(d, err, errlen) != 0)
        return -1;
    return reference_pick(d, ref, err, errlen);
}

const struct mmb_report_row *mmb_report_select_best(const struct mmb_report_data *d, size_t gpu, size_t kernel,
                                                    size_t shape)
{
    struct mmb_report_best key = {gpu, kernel, shape, 0};
    const struct mmb_report_best *b = d->nbest ? bsearch(&key, d->best, d->nbest, sizeof *d->best, best_cmp) : NULL;
    return b ? &d->rows[b->row] : NULL;
}

bool mmb_report_select_gpu_has(const struct mmb_report_data *d, size_t gpu, bool (*have)(const struct mmb_report_row *))
{
    for (size_t i = 0; i < d->nbest; i++)
        if (d->best[i].gpu == gpu && (!have || have(&d->rows[d->best[i].row])))
            return true;
    return false;
}
