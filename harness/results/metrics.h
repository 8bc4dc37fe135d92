/* metrics.h - the hardware counters a row can carry: one table of what CUPTI needs
 * (name, the unit it reports, scale to the CSV's unit, how ranges merge, sets, and
 * the column it fills) and named metric sets. Needs no CUDA: profiles are checked
 * on any machine. Units and descriptions are the column table's (columns.h). */
#ifndef MMB_METRICS_H
#define MMB_METRICS_H

#include <stdbool.h>
#include <stddef.h>

#include "results/row.h"

/* How the values of several ranges combine when one launch runs several kernels
 * (one auto range each): counts add; rates and percentages are averaged with each
 * kernel's duration as weight, which is exact for per-second and pct-of-elapsed
 * metrics and an approximation for hit rates. */
enum mmb_metric_merge { MMB_MERGE_SUM, MMB_MERGE_TIME_AVG };

/* The named sets a metric belongs to (besides `default`, which has every column). */
enum {
    MMB_METRIC_MEMORY = 1u << 0,
    MMB_METRIC_COMPUTE = 1u << 1,
    MMB_METRIC_TENSOR = 1u << 2,
    MMB_METRIC_STALLS = 1u << 3,
    /* the FP32 thread instruction counts (SASS): CUPTI instruments the kernel for them,
     * a pass of their own in which it runs several times slower */
    MMB_METRIC_INSTRUCTIONS = 1u << 4,
};

struct mmb_metric {
    const char *cupti;       /* CUPTI / ncu --metrics name, with its roll-up suffix */
    const char *column;      /* the CSV column it fills, whose unit and description the
                              * column table gives; NULL for the check-only duration row */
    const char *cupti_unit;  /* dimension CUPTI reports (checked offline by the tests) */
    double scale;            /* CSV value = CUPTI value * scale */
    enum mmb_metric_merge merge;
    unsigned groups;         /* MMB_METRIC_MEMORY | ... | MMB_METRIC_INSTRUCTIONS */
    size_t offset;           /* offsetof(struct mmb_row, column's field): a double */
};

/* Ends with a NULL cupti sentinel. Row MMB_METRIC_DURATION is gpu__time_duration.sum:
 * no CSV column, always collected (it weighs merged ranges and is compared with the
 * event timing and with ncu). */
extern const struct mmb_metric mmb_metrics[];
#define MMB_METRIC_DURATION 0
#define MMB_METRIC_MAX 48

size_t mmb_metrics_count(void);
/* By CUPTI name or CSV column; NULL when neither. */
const struct mmb_metric *mmb_metric_find(const char *name);
/* The row field a metric writes (NULL for the duration row). */
double *mmb_metric_field(struct mmb_row *row, const struct mmb_metric *metric);

/* A subset of mmb_metrics: rows index[0..count), without repeats, in the order named
 * (table order for the named sets). */
struct mmb_metric_set {
    size_t count;
    unsigned char index[MMB_METRIC_MAX];
};

/* `default` (every column), `memory` (DRAM bytes, bandwidth and utilisation, L1 and
 * L2 hit rates), `compute` (SM %, FP32 instruction counts, occupancy, bank conflicts,
 * the tensor pipes, issue throughput, shared-memory wavefronts), `tensor` (the tensor
 * pipes' utilisation and instructions), `stalls` (warp cycles per issued instruction,
 * in total and per stall reason), `none`, or a comma list of set names, CUPTI names and column names, spaces allowed.
 * NULL text is `default`. An unknown name is -1 with err naming it and its closest
 * matches. */
int mmb_metric_set_parse(const char *text, struct mmb_metric_set *set, char *err, size_t errlen);
bool mmb_metric_set_has(const struct mmb_metric_set *set, size_t index);
size_t mmb_metric_set_size(const struct mmb_metric_set *set);

#endif
