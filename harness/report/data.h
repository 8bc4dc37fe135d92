/* data.h - what the report reads and selects: every row of every CSV, the
 * GPUs, kernels and shapes found, the best configuration per (GPU, kernel, shape)
 * of the selected dtype and cache mode. */
#ifndef MMB_REPORT_DATA_H
#define MMB_REPORT_DATA_H

#include <stdbool.h>
#include <stddef.h>

#include "results/row.h"

#define MMB_REPORT_NAME_MAX 64

/* What one report reads at most: rows (about 1.2 kB of memory each), and the GPUs
 * kernels and matrix shapes that its figures can tell apart. More is an error naming the row
 * where the limit was passed, not a silently truncated figure. */
#define MMB_REPORT_ROWS_MAX 1000000
#define MMB_REPORT_GPUS_MAX 32
#define MMB_REPORT_KERNELS_MAX 64
#define MMB_REPORT_SHAPES_MAX 1024

struct mmb_report_shape {
    long long m, n, k;
};

struct mmb_report_file {
    char *path;   /* as opened */
    char *shown;  /* relative to the source root when under it */
    char *note;   /* the text of a sidecar <name>.md next to the CSV, or NULL */
    size_t rows, published;
    size_t by_status[MMB_STATUS_COUNT];
};

struct mmb_report_gpu {
    char name[MMB_REPORT_NAME_MAX];
    char slug[MMB_REPORT_NAME_MAX];
    double peak_gbps, peak_gflops; /* NaN when no row names them */
    size_t rows, selected, published, with_counters, l2_low;
    size_t by_status[MMB_STATUS_COUNT];
    bool all_published;
};

struct mmb_report_row {
    struct mmb_row r;
    size_t file, gpu, kernel;
    long line;
    int shape;        /* index into shapes, -1 when not selected */
    bool published;   /* reason starts with "published" */
    bool selected;    /* ok, timed, of the selected dtype and cache mode */
    bool l2_low;      /* DRAM writes under half the output: the output stayed in L2 */
};

/* The best row of one (GPU, kernel, shape): data.c keeps them sorted by the three. */
struct mmb_report_best {
    size_t gpu, kernel, shape, row;
};

struct mmb_report_data {
    struct mmb_report_row *rows;
    size_t nrows, caprows;
    struct mmb_report_file *files;
    size_t nfiles;
    /* filled by mmb_report_data_select */
    struct mmb_report_gpu *gpus;          /* oldest first: by FP32 peak, unknown last */
    size_t ngpus;
    char (*kernels)[MMB_REPORT_NAME_MAX]; /* first appearance, cublas last */
    size_t nkernels;
    int cublas;                           /* kernel index of "cublas", -1 when absent */
    struct mmb_report_shape *shapes;      /* selected shapes by FLOP count */
    size_t nshapes;
    int ref;                              /* shape of tables, bars and heatmaps; -1 if none */
    char dtype[8], cache[8];
    size_t other_dtype, other_cache;      /* ok rows left out by the selection */
    struct mmb_report_best *best;         /* one per (gpu, kernel, shape) with a selected row */
    size_t nbest;
};

/* Reads one CSV and appends its rows. shown is the path the report prints. Every
 * ok row must carry its median time (min <= median <= max when all are there). */
int mmb_report_data_add_csv(struct mmb_report_data *d, const char *path, const char *shown, char *err,
                            size_t errlen);

/* Groups the rows and picks the best row per (GPU, kernel, shape). dtype and cache
 * may be NULL (f32 when present; cold when present, else hot); ref may be NULL
 * (4096^3 when present, else the shape most (GPU, kernel) pairs reach). Returns -1
 * with err when a named dtype, cache mode or size has no ok row. */
int mmb_report_data_select(struct mmb_report_data *d, const char *dtype, const char *cache,
                           const struct mmb_report_shape *ref, char *err, size_t errlen);

void mmb_report_data_free(struct mmb_report_data *d);

/* Groups the rows rows[0..n) (every row when rows is NULL) by key in O(n log n):
 * group[p] is the group of the row at position p, groups numbered in the order of
 * their first member, and first[g] that member's position (ascending). Both
 * arrays hold n. Returns the number of groups, -1 without memory. */
long mmb_report_rows_group(const struct mmb_report_data *d, const size_t *rows, size_t n,
                           int (*key)(const struct mmb_report_row *a, const struct mmb_report_row *b), size_t *group,
                           size_t *first);

const struct mmb_report_row *mmb_report_best(const struct mmb_report_data *d, size_t gpu, size_t kernel,
                                             size_t shape);
/* True when the GPU has any selected row for which have(row) holds. */
bool mmb_report_gpu_has(const struct mmb_report_data *d, size_t gpu, bool (*have)(const struct mmb_report_row *));

/* Values a figure needs, from the row's column or derived from others; NaN when
 * neither can be had. */
double mmb_report_gflops(const struct mmb_report_row *r);
double mmb_report_intensity(const struct mmb_report_row *r);
double mmb_report_dram_gbps(const struct mmb_report_row *r);
double mmb_report_dram_pct(const struct mmb_report_row *r); /* of peak_gbps, else dram_util_pct */
bool mmb_report_has_util(const struct mmb_report_row *r);
bool mmb_report_has_bandwidth(const struct mmb_report_row *r);
bool mmb_report_has_roofline(const struct mmb_report_row *r);

/* "4096" for a cube, else "4096x2048x1024". */
void mmb_report_shape_label(const struct mmb_report_shape *s, char *out, size_t len);
bool mmb_report_shape_parse(const char *text, struct mmb_report_shape *out);

#endif
