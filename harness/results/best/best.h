/* best.h - counters = best and energy = best, apart from the GPU: a group is the rows
 * of one kernel at one problem (size, dtype, cache mode; and GPU where GPUs share a
 * file), timed without counters or energy window (whichever of them is best); its
 * fastest ok row then gets them (counted, its energy window run), and the group's
 * rows are appended together, each with its launch times (the samples side file's), so that
 * a group in a results file is whole or was cut short by a stopped worker. What a
 * file already holds of a group (a resumed sweep) decides whether its new fastest
 * row is counted: only when it is faster than every ok row there, as the report
 * picks a group's best (the lowest median, the first of equals).
 * The sweep (cmd/sweep.c) and the tuner (cmd/tune/tune_kernel.c) drive it. */
#ifndef MMB_BEST_H
#define MMB_BEST_H

#include <stdbool.h>
#include <stddef.h>

#include "model/space.h"
#include "results/row.h"

struct mmb_best;

/* What a group's fastest row gets after the timing: its counters (counters = best),
 * its energy window (energy = best), or both. */
enum { MMB_BEST_COUNTERS = 1u << 0, MMB_BEST_ENERGY = 1u << 1 };

/* with_gpu: the GPU is part of a group (GPUs of one model share the file at once);
 * what: MMB_BEST_COUNTERS and/or MMB_BEST_ENERGY (0: NULL). */
struct mmb_best *mmb_best_new(bool with_gpu, unsigned what);
void mmb_best_free(struct mmb_best *b);

/* A row already in the results file; the fastest ok row of its group is remembered.
 * Returns 0, or -1 when out of memory. */
int mmb_best_history_add(struct mmb_best *b, const struct mmb_row *row);
/* The rows of path (absent: none) through mmb_best_history_add, each when keep(ctx,
 * row) says it counts as done (NULL: all). Returns 0, or -1 with err. */
int mmb_best_history_load(struct mmb_best *b, const char *path, bool (*keep)(void *ctx, const struct mmb_row *row),
                          void *keep_ctx, char *err, size_t errlen);

/* Starts the group of identity (its kernel, problem and GPU). Returns 0, or -1 when
 * a group is already open. */
int mmb_best_open(struct mmb_best *b, const struct mmb_row *identity);
/* Holds a row of the open group (any status; an ok row measured without counters)
 * with its configuration (NULL: none, a library kernel) and a copy of its timed
 * launches' times in ms (samples[0..nsamples); NULL and 0: not timed). Returns 0, or
 * -1 when out of memory or no group is open. */
int mmb_best_hold(struct mmb_best *b, const struct mmb_row *row, const struct mmb_config *cfg,
                  const double *samples, size_t nsamples);

/* Closes the open group. Returns its row to complete (count, measure the energy of),
 * with *cfg its configuration: the fastest ok row when the file holds no ok row of the
 * group as fast; the group then waits for mmb_best_completed. NULL when there is none
 * (the group is ready). *missing gets the bits of what the file's fastest row of the
 * group lacks when it stays the fastest (an earlier run without counters, or without
 * its energy window): those cells stay empty. */
const struct mmb_row *mmb_best_close(struct mmb_best *b, struct mmb_config *cfg, unsigned *missing);
/* The completed row (counted, its energy measured) of the oldest group that waits
 * for one (it keeps the launch times held with the row it replaces: neither times).
 * Returns 0, or -1 when none waits. */
int mmb_best_completed(struct mmb_best *b, const struct mmb_row *row);

/* Sends the rows of every ready group at the front of the queue, group by group: its
 * counted row first (a group cut short while being written still holds it), then the
 * others in the order held, each with the launch times held with it; an ok row that
 * was not completed gets counter_status not_best (MMB_BEST_COUNTERS) and energy_status
 * not_best (MMB_BEST_ENERGY). Returns 0 or sink's nonzero. */
int mmb_best_drain(struct mmb_best *b,
                   int (*sink)(void *ctx, struct mmb_row *row, const double *samples, size_t nsamples), void *ctx);
/* Drops every group not yet sent (the device was lost: a resumed sweep measures them
 * again). Returns the rows dropped. */
size_t mmb_best_drop(struct mmb_best *b);
/* Groups held (open, waiting or ready, not yet sent). */
size_t mmb_best_held(const struct mmb_best *b);

#endif
