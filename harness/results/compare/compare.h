/* compare.h - one configuration measured twice (two runs, two GPUs): the two medians,
 * their ratio, its 95% interval and the verdict (core/verdict.h), from each row's raw
 * launch times when its side file has them (results/csv_samples.h), else from what
 * the row holds (its min and max of repeats launches); and whether the two rows were
 * timed alike (results/protocol.h). `mmbench compare` and the report's comparisons of
 * GPUs both come here. */
#ifndef MMB_RESULTS_COMPARE_COMPARE_H
#define MMB_RESULTS_COMPARE_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/verdict.h"
#include "results/row.h"

/* What a side's interval rests on. */
enum mmb_compare_basis {
    MMB_BASIS_SAMPLES,  /* every launch's time */
    MMB_BASIS_EXTREMES, /* no samples: the row's min and max of its repeats launches */
    MMB_BASIS_MEDIAN,   /* no samples, and no min, max or count: the median alone */
};

/* "samples", "min-max", "median only". */
const char *mmb_compare_basis_text(enum mmb_compare_basis b);

struct mmb_comparison {
    struct mmb_ratio ratio;             /* new over old */
    double old_ms, new_ms;              /* the medians compared */
    enum mmb_compare_basis old_basis, new_basis;
    bool protocol_recorded;             /* both rows name their protocol */
    bool timed_alike;                   /* mmb_protocol_times_alike: the same timing items (or
                                         * neither recorded) */
    char protocol_why[160];             /* how the protocols differ, "" when alike */
};

/* Compares new_ against old (two ok rows of one configuration), each with its launch
 * times (samples may be NULL: the row's own summary is used), at threshold t. */
void mmb_compare_rows(const struct mmb_row *old, const double *old_samples, size_t old_n, const struct mmb_row *new_,
                      const double *new_samples, size_t new_n, double threshold, struct mmb_comparison *out);

/* One line of what a comparison rests on, for notes: "samples", "min-max of 6 and 10
 * launches", "samples against min-max of 10 launches", ... */
void mmb_compare_basis_note(const struct mmb_comparison *c, const struct mmb_row *old, const struct mmb_row *new_,
                            char *out, size_t len);

#endif
