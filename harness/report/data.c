/* data.c - reads the CSVs for the report and selects what it draws: one
 * best configuration (lowest median time) per GPU, kernel and shape, so that a
 * kernel is one line however many configurations were swept. */
#include "report/data.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "core/cache.h"
#include "core/dtype.h"
#include "core/util.h"
#include "results/csv.h"

/* ---- loading ------------------------------------------------------------------- */

struct load_ctx {
    struct mmb_report_data *d;
    size_t file;
};

static int load_row(void *ctx, const struct mmb_row *row, const char *path, long line, char *err,
                    size_t errlen)
{
    struct load_ctx *lc = ctx;
    struct mmb_report_data *d = lc->d;
    if (d->nrows == d->caprows) {
        size_t cap = d->caprows ? 2 * d->caprows : 1024;
        struct mmb_report_row *rows = realloc(d->rows, cap * sizeof *rows);
        if (!rows) {
            mmb_errorf(err, errlen, "%s:%ld: out of memory", path, line);
            return -1;
        }
        d->rows = rows;
        d->caprows = cap;
    }
    struct mmb_report_row *r = &d->rows[d->nrows++];
    memset(r, 0, sizeof *r);
    r->r = *row;
    r->file = lc->file;
    r->line = line;
    r->shape = -1;
    r->published = strncasecmp(row->reason, "published", 9) == 0;
    struct mmb_report_file *f = &d->files[lc->file];
    f->rows++;
    f->published += r->published;
    if ((unsigned)row->status < MMB_STATUS_COUNT)
        f->by_status[row->status]++;
    return 0;
}

/* A CSV may carry a note for the report next to it: x.csv and x.md. */
static int note_read(const char *csv, char **note, char *err, size_t errlen)
{
    *note = NULL;
    size_t n = strlen(csv);
    if (n < 4 || strcmp(csv + n - 4, ".csv") != 0)
        return 0;
    char path[4096];
    if (n >= sizeof path) {
        mmb_errorf(err, errlen, "%s: path too long", csv);
        return -1;
    }
    snprintf(path, sizeof path, "%.*s.md", (int)(n - 4), csv);
    struct stat st;
    if (stat(path, &st) != 0) {
        if (errno == ENOENT)
            return 0;
        mmb_errorf(err, errlen, "%s: stat: %s", path, strerror(errno));
        return -1;
    }
    *note = mmb_file_read(path, NULL, err, errlen);
    return *note ? 0 : -1;
}

int mmb_report_data_add_csv(struct mmb_report_data *d, const char *path, const char *shown, char *err,
                            size_t errlen)
{
    struct mmb_report_file *files = realloc(d->files, (d->nfiles + 1) * sizeof *files);
    if (!files) {
        mmb_errorf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    d->files = files;
    struct mmb_report_file *f = &d->files[d->nfiles];
    memset(f, 0, sizeof *f);
    f->path = strdup(path);
    f->shown = strdup(shown);
    if (!f->path || !f->shown) {
        free(f->path);
        free(f->shown);
        mmb_errorf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    d->nfiles++;
    if (note_read(path, &f->note, err, errlen) != 0)
        return -1;
    struct load_ctx lc = {d, d->nfiles - 1};
    return mmb_csv_read(path, load_row, &lc, err, errlen);
}

void mmb_report_data_free(struct mmb_report_data *d)
{
    for (size_t i = 0; i < d->nfiles; i++) {
        free(d->files[i].path);
        free(d->files[i].shown);
        free(d->files[i].note);
    }
    free(d->files);
    free(d->rows);
    free(d->gpus);
    free(d->kernels);
    free(d->shapes);
    free(d->best);
    memset(d, 0, sizeof *d);
}

/* ---- derived values ------------------------------------------------------------ */

static bool positive(double v)
{
    return isfinite(v) && v > 0.0;
}

double mmb_report_gflops(const struct mmb_report_row *r)
{
    return mmb_row_gflops(&r->r);
}

double mmb_report_intensity(const struct mmb_report_row *r)
{
    return mmb_row_intensity(&r->r);
}

double mmb_report_dram_gbps(const struct mmb_report_row *r)
{
    return mmb_row_dram_gbps(&r->r);
}

double mmb_report_dram_pct(const struct mmb_report_row *r)
{
    return mmb_row_dram_pct(&r->r);
}

bool mmb_report_has_util(const struct mmb_report_row *r)
{
    return isfinite(r->r.sm_util_pct) && isfinite(r->r.dram_util_pct);
}

bool mmb_report_has_bandwidth(const struct mmb_report_row *r)
{
    return isfinite(mmb_report_dram_gbps(r));
}

bool mmb_report_has_roofline(const struct mmb_report_row *r)
{
    return positive(mmb_report_intensity(r)) && positive(mmb_report_gflops(r)) && positive(r->r.peak_gbps) &&
           positive(r->r.peak_gflops);
}

/* ---- shapes ---------------------------------------------------------------------- */

void mmb_report_shape_label(const struct mmb_report_shape *s, char *out, size_t len)
{
    if (s->m == s->n && s->n == s->k)
        snprintf(out, len, "%lld", s->m);
    else
        snprintf(out, len, "%lldx%lldx%lld", s->m, s->n, s->k);
}

bool mmb_report_shape_parse(const char *text, struct mmb_report_shape *out)
{
    char low[96];
    size_t n = strlen(text);
    if (n == 0 || n >= sizeof low || strspn(text, "0123456789xX") != n)
        return false;
    for (size_t i = 0; i <= n; i++)
        low[i] = text[i] == 'X' ? 'x' : text[i];
    long long m, nn, k;
    char tail;
    if (sscanf(low, "%lldx%lldx%lld%c", &m, &nn, &k, &tail) == 3 && m > 0 && nn > 0 && k > 0)
        *out = (struct mmb_report_shape){m, nn, k};
    else if (!strchr(low, 'x') && sscanf(low, "%lld%c", &m, &tail) == 1 && m > 0)
        *out = (struct mmb_report_shape){m, m, m};
    else
        return false;
    return true;
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

/* ---- selection ------------------------------------------------------------------- */

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

static const char *row_gpu_name(const struct mmb_row *r)
{
    return r->gpu[0] ? r->gpu : "unknown GPU";
}

static int gpus_collect(struct mmb_report_data *d, char *err, size_t errlen)
{
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_row *r = &d->rows[i].r;
        const char *name = row_gpu_name(r);
        size_t g = 0;
        while (g < d->ngpus && strcmp(d->gpus[g].name, name) != 0)
            g++;
        if (g == d->ngpus) {
            struct mmb_report_gpu *gpus = realloc(d->gpus, (d->ngpus + 1) * sizeof *gpus);
            if (!gpus) {
                mmb_errorf(err, errlen, "out of memory");
                return -1;
            }
            d->gpus = gpus;
            memset(&gpus[g], 0, sizeof gpus[g]);
            snprintf(gpus[g].name, sizeof gpus[g].name, "%s", name);
            gpus[g].peak_gbps = gpus[g].peak_gflops = NAN;
            gpus[g].all_published = true;
            d->ngpus++;
        }
        struct mmb_report_gpu *gp = &d->gpus[g];
        if (positive(r->peak_gbps) && !(r->peak_gbps <= gp->peak_gbps))
            gp->peak_gbps = r->peak_gbps;
        if (positive(r->peak_gflops) && !(r->peak_gflops <= gp->peak_gflops))
            gp->peak_gflops = r->peak_gflops;
    }
    qsort(d->gpus, d->ngpus, sizeof *d->gpus, gpu_cmp);
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
        const char *name = row_gpu_name(&rr->r);
        size_t g = 0;
        while (strcmp(d->gpus[g].name, name) != 0)
            g++;
        rr->gpu = g;
        struct mmb_report_gpu *gp = &d->gpus[g];
        gp->rows++;
        gp->published += rr->published;
        gp->all_published = gp->all_published && rr->published;
        if ((unsigned)rr->r.status < MMB_STATUS_COUNT)
            gp->by_status[rr->r.status]++;
    }
    return 0;
}

static int kernels_collect(struct mmb_report_data *d, char *err, size_t errlen)
{
    d->kernels = calloc(d->nrows ? d->nrows : 1, sizeof *d->kernels);
    if (!d->kernels) {
        mmb_errorf(err, errlen, "out of memory");
        return -1;
    }
    bool cublas = false;
    for (size_t i = 0; i < d->nrows; i++) {
        const char *name = d->rows[i].r.kernel;
        if (strcmp(name, mmb_row_reference_kernel()) == 0) {
            cublas = true;
            continue;
        }
        size_t k = 0;
        while (k < d->nkernels && strcmp(d->kernels[k], name) != 0)
            k++;
        if (k == d->nkernels)
            snprintf(d->kernels[d->nkernels++], MMB_REPORT_NAME_MAX, "%s", name);
    }
    d->cublas = -1;
    if (cublas) {
        d->cublas = (int)d->nkernels;
        snprintf(d->kernels[d->nkernels++], MMB_REPORT_NAME_MAX, "%s", mmb_row_reference_kernel());
    }
    for (size_t i = 0; i < d->nrows; i++) {
        size_t k = 0;
        while (strcmp(d->kernels[k], d->rows[i].r.kernel) != 0)
            k++;
        d->rows[i].kernel = k;
    }
    return 0;
}

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
        if (!row_ok(r))
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
        if (!row_ok(r) || strcmp(r->dtype, d->dtype) != 0)
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

static int shapes_collect(struct mmb_report_data *d, char *err, size_t errlen)
{
    d->shapes = calloc(d->nrows ? d->nrows : 1, sizeof *d->shapes);
    if (!d->shapes) {
        mmb_errorf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < d->nrows; i++) {
        struct mmb_report_row *rr = &d->rows[i];
        const struct mmb_row *r = &rr->r;
        rr->selected = row_ok(r) && strcmp(r->dtype, d->dtype) == 0 && cache_matches(d->cache, r->cache);
        if (row_ok(r) && !rr->selected) {
            if (strcmp(r->dtype, d->dtype) != 0)
                d->other_dtype++;
            else
                d->other_cache++;
        }
        if (!rr->selected)
            continue;
        size_t s = 0;
        while (s < d->nshapes && !shape_eq(&d->shapes[s], r->m, r->n, r->k))
            s++;
        if (s == d->nshapes)
            d->shapes[d->nshapes++] = (struct mmb_report_shape){r->m, r->n, r->k};
    }
    qsort(d->shapes, d->nshapes, sizeof *d->shapes, shape_cmp);
    for (size_t i = 0; i < d->nrows; i++) {
        struct mmb_report_row *rr = &d->rows[i];
        if (!rr->selected)
            continue;
        size_t s = 0;
        while (!shape_eq(&d->shapes[s], rr->r.m, rr->r.n, rr->r.k))
            s++;
        rr->shape = (int)s;
    }
    return 0;
}

static size_t best_index(const struct mmb_report_data *d, size_t gpu, size_t kernel, size_t shape)
{
    return (gpu * d->nkernels + kernel) * d->nshapes + shape;
}

static int best_collect(struct mmb_report_data *d, char *err, size_t errlen)
{
    size_t cells = d->ngpus * d->nkernels * d->nshapes;
    d->best = calloc(cells ? cells : 1, sizeof *d->best);
    if (!d->best) {
        mmb_errorf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < d->nrows; i++) {
        struct mmb_report_row *rr = &d->rows[i];
        if (!rr->selected)
            continue;
        struct mmb_report_gpu *gp = &d->gpus[rr->gpu];
        gp->selected++;
        gp->with_counters += mmb_report_has_bandwidth(rr) || mmb_report_has_util(rr);
        const struct mmb_dtype_info *dt = NULL;
        enum mmb_dtype t;
        if (mmb_dtype_parse(rr->r.dtype, &t))
            dt = mmb_dtype_info(t);
        /* DRAM writes reach DRAM when lines are evicted: an output that fits in L2
         * is still there when the kernel ends, so its writes go uncounted. */
        double out_bytes = (double)rr->r.m * (double)rr->r.n * (double)(dt ? dt->size : 4);
        rr->l2_low = isfinite(rr->r.dram_write_bytes) && rr->r.dram_write_bytes < 0.5 * out_bytes;
        gp->l2_low += rr->l2_low;
        size_t *b = &d->best[best_index(d, rr->gpu, rr->kernel, (size_t)rr->shape)];
        if (*b == 0 || rr->r.time_ms_median < d->rows[*b - 1].r.time_ms_median)
            *b = i + 1;
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
    size_t best_count = 0;
    for (size_t s = 0; s < d->nshapes; s++) {
        if (shape_eq(&d->shapes[s], 4096, 4096, 4096)) {
            d->ref = (int)s; /* the size of the course documents' tables */
            return 0;
        }
        size_t count = 0;
        for (size_t g = 0; g < d->ngpus; g++)
            for (size_t k = 0; k < d->nkernels; k++)
                count += d->best[best_index(d, g, k, s)] != 0;
        if (count >= best_count) {
            best_count = count;
            d->ref = (int)s;
        }
    }
    return 0;
}

int mmb_report_data_select(struct mmb_report_data *d, const char *dtype, const char *cache,
                           const struct mmb_report_shape *ref, char *err, size_t errlen)
{
    if (selection_defaults(d, dtype, cache, err, errlen) != 0 || gpus_collect(d, err, errlen) != 0 ||
        kernels_collect(d, err, errlen) != 0 || shapes_collect(d, err, errlen) != 0 ||
        best_collect(d, err, errlen) != 0)
        return -1;
    return reference_pick(d, ref, err, errlen);
}

const struct mmb_report_row *mmb_report_best(const struct mmb_report_data *d, size_t gpu, size_t kernel,
                                             size_t shape)
{
    if (gpu >= d->ngpus || kernel >= d->nkernels || shape >= d->nshapes)
        return NULL;
    size_t b = d->best[best_index(d, gpu, kernel, shape)];
    return b ? &d->rows[b - 1] : NULL;
}

bool mmb_report_gpu_has(const struct mmb_report_data *d, size_t gpu, bool (*have)(const struct mmb_report_row *))
{
    for (size_t k = 0; k < d->nkernels; k++)
        for (size_t s = 0; s < d->nshapes; s++) {
            const struct mmb_report_row *r = mmb_report_best(d, gpu, k, s);
            if (r && (!have || have(r)))
                return true;
        }
    return false;
}
