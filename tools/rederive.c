/* rederive.c - mmb-rederive CSV...: repairs the derived cells of rows that mmbench 0.1.0
 * derived twice. Under counters = best a row was derived after its timing and again after
 * its counters, and each time its peak was scaled from the FP32 peak to its pipe's, so a
 * counted row of a pipe other than FP32 holds the pipe's peak scaled twice (an f16 row
 * 16 x 16 the FP32 peak, an f64 row a quarter of it) and a pipe_pct, fp32_pct and limiter
 * computed from it. Measured cells (times, counters) are right. For each counted ok row
 * whose protocol says counter_mode=best, this recovers the FP32 peak, derives the row
 * once with the harness's own mmb_row_derive, and rewrites the file in place (its rows
 * in their order; the side file of launch times keeps its keys). The FP32 peak comes from
 * the file's rows derived once (an FP32 row, or one not counted); a counted row whose peak
 * is not that peak scaled twice is left alone, so a second run changes nothing. Exit 0,
 * or 2 naming the file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/csv.h"
#include "results/peaks.h"
#include "results/row.h"

struct rows {
    struct mmb_row *v;
    size_t n, cap, fixed;
};

static int keep(void *ctx, const struct mmb_row *row, const char *path, long line, char *err, size_t errlen)
{
    struct rows *r = ctx;
    (void)path, (void)line;
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 256;
        struct mmb_row *v = realloc(r->v, cap * sizeof *v);
        if (!v)
            return snprintf(err, errlen, "out of memory"), -1;
        r->v = v, r->cap = cap;
    }
    r->v[r->n++] = *row;
    return 0;
}

static bool counted_best(const struct mmb_row *row)
{
    return row->counter_status == MMB_STATUS_OK && strstr(row->protocol, "counter_mode=best");
}

static double pipe_ratio(const struct mmb_row *row)
{
    enum mmb_pipe pipe;
    double ratio = mmb_row_pipe(row, &pipe) ? mmb_pipe_peak(1.0, row->cc, pipe, row->gpu) : NAN;
    return isfinite(ratio) && ratio > 0.0 ? ratio : NAN;
}

/* The FP32 peak the device gave rows of GPU gpu, from the rows derived once: an FP32
 * row's peak, or a row's that was not counted, over its pipe's ratio. NAN when none. */
static double fp32_base(const struct rows *r, const char *gpu)
{
    for (size_t i = 0; i < r->n; i++) {
        const struct mmb_row *row = &r->v[i];
        double ratio = pipe_ratio(row);
        if (row->status == MMB_STATUS_OK && !strcmp(row->gpu, gpu) && isfinite(ratio) &&
            (ratio == 1.0 || !counted_best(row)) && isfinite(row->peak_gflops))
            return mmb_row_fp32_peak(row);
    }
    return NAN;
}

static int rederive(struct rows *r, const char *path, char *err, size_t errlen)
{
    const char *base_gpu = NULL; /* the GPU whose base is known: rows come a GPU at a time */
    double base = NAN;
    for (size_t i = 0; i < r->n; i++) {
        struct mmb_row *row = &r->v[i];
        double ratio = pipe_ratio(row);
        if (row->status != MMB_STATUS_OK || !counted_best(row) || !isfinite(ratio) || ratio == 1.0)
            continue;
        if (!base_gpu || strcmp(base_gpu, row->gpu)) {
            base_gpu = row->gpu;
            base = fp32_base(r, row->gpu);
        }
        if (!isfinite(base))
            return snprintf(err, errlen, "%.900s: no row of %s derived once to take the FP32 peak from", path,
                            row->gpu), -1;
        /* derived twice: its peak is the base scaled twice; once, it is left alone */
        if (fabs(row->peak_gflops - base * ratio * ratio) > 1e-6 * base * ratio * ratio) /* the CSV keeps 9 digits */
            continue;
        row->peak_gflops = base;
        row->pipe_pct = row->fp32_pct = NAN;
        mmb_row_derive(row);
        r->fixed++;
    }
    return 0;
}

static int rewrite(const char *path, const struct rows *r, char *err, size_t errlen)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.rederive", path) >= (int)sizeof tmp)
        return snprintf(err, errlen, "%s: path too long", path), -1;
    remove(tmp);
    struct mmb_csv_writer *w = mmb_csv_writer_open(tmp, err, errlen);
    if (!w)
        return -1;
    for (size_t i = 0; i < r->n; i++)
        if (mmb_csv_append_row(w, &r->v[i], err, errlen) != 0) {
            mmb_csv_writer_close(w);
            remove(tmp);
            return -1;
        }
    mmb_csv_writer_close(w);
    if (rename(tmp, path) != 0)
        return snprintf(err, errlen, "%.900s: cannot replace it with its rewritten copy", path), -1;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: mmb-rederive CSV...\n");
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        char err[1024];
        struct rows r = {0};
        if (mmb_csv_read(argv[i], keep, &r, err, sizeof err) != 0 || rederive(&r, argv[i], err, sizeof err) != 0 ||
            (r.fixed && rewrite(argv[i], &r, err, sizeof err) != 0)) {
            fprintf(stderr, "mmb-rederive: %s\n", err);
            free(r.v);
            return 2;
        }
        printf("%s: %zu rows, %zu derived again\n", argv[i], r.n, r.fixed);
        free(r.v);
    }
    return 0;
}
