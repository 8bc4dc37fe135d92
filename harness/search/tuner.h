/* tuner.h - the search loop of `mmbench tune` for one kernel on one problem, with
 * the GPU behind callbacks: a strategy proposes, the tuner memoises restrictions,
 * skips what an earlier (interrupted) tune already measured, hands upcoming
 * candidates to a compile-ahead hook, evaluates the rest and records every row.
 * Needs no CUDA, so tests drive it with a fake evaluator. */
#ifndef MMB_TUNER_H
#define MMB_TUNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/profile.h"
#include "results/columns.h"
#include "results/row.h"
#include "results/shard.h"
#include "model/space.h"
#include "search/objective.h"
#include "search/pareto.h"
#include "search/strategy.h"
#include "search/tune_history.h"

struct mmb_tuner_callbacks {
    /* Measures cfg into row (identity and params already set, the rest empty).
     * Returns 0, or -1 with err to stop the tune (the row is then not recorded). */
    int (*evaluate)(void *ctx, size_t index, const struct mmb_config *cfg, struct mmb_row *row,
                    char *err, size_t errlen);
    /* Appends row to the results. Returns 0, or -1 with err. */
    int (*record)(void *ctx, const struct mmb_row *row, char *err, size_t errlen);
    /* Optional: configurations to compile ahead, the one about to be measured first. */
    void (*prefetch)(void *ctx, const size_t *indices, size_t n);
    /* Optional: true to stop before the next evaluation (Ctrl-C). */
    bool (*interrupted)(void *ctx);
    void *ctx;
};

struct mmb_tuner_options {
    const struct mmb_kernel_spec *kernel;
    const struct mmb_row *identity;    /* gpu ... cache of every row; params is set per row */
    struct mmb_size size;
    size_t elem_size;
    const struct mmb_strategy_ops *strategy;
    uint64_t seed;
    size_t max_fevals;                 /* 0: no limit */
    double time_limit;                 /* seconds of this invocation; 0: none */
    struct mmb_objective objective;
    bool record_restricted;            /* write restricted configurations as rows */
    size_t lookahead;                  /* candidates passed to prefetch; 0: none */
    struct mmb_shard shard;            /* the part of the space searched (the strategy
                                        * must split); n == 0: all */
};

enum mmb_tuner_stop {
    MMB_TUNER_FINISHED,     /* the strategy had nothing more to propose */
    MMB_TUNER_EXHAUSTED,    /* every allowed configuration has a result */
    MMB_TUNER_MAX_FEVALS,
    MMB_TUNER_TIME_LIMIT,
    MMB_TUNER_INTERRUPTED,
};

const char *mmb_tuner_stop_text(enum mmb_tuner_stop stop);

struct mmb_tuner_result {
    size_t space;            /* configurations in the space */
    size_t allowed;          /* of those, allowed at this size; 0 when not counted */
    size_t proposals;        /* next() calls */
    size_t fevals;           /* distinct configurations with a result the search used */
    size_t evaluated;        /* of those, measured by this invocation */
    size_t resumed;          /* of those, taken from the history */
    size_t restricted;       /* distinct restricted configurations met */
    size_t elsewhere;        /* configurations of the other shards; 0 when not counted */
    size_t recorded;         /* rows written */
    size_t by_status[MMB_STATUS_COUNT]; /* of the rows written */
    enum mmb_tuner_stop stop;
    double seconds;          /* wall time of the loop */
    double evaluate_seconds; /* inside evaluate() */
    bool have_best;
    size_t best_index;
    struct mmb_row best;     /* the best ok row the search used (of the first objective) */
    struct mmb_pareto front; /* a two-objective search's front over the rows it used, by the
                              * first objective; free with mmb_pareto_free */
};

/* The configurations a tune with these options measures first, in its order: the
 * strategy's first allowed proposal and what its peek puts after it, leaving out what
 * history (which may be empty) already holds; at most max into out. Nothing is
 * measured or recorded: for compiling ahead while the problem is still being made.
 * Returns their number (0 when out of memory). */
size_t mmb_tuner_first(const struct mmb_tuner_options *o, struct mmb_tune_history *history, size_t *out,
                       size_t max);

/* Runs the search. history holds earlier results (mmb_tune_history_load) and
 * receives the new ones. Returns 0 when the search stopped for one of the reasons
 * above, -1 with err when a callback failed (what was recorded stays recorded: run
 * again to resume). */
int mmb_tuner_run(const struct mmb_tuner_options *o, const struct mmb_tuner_callbacks *cb,
                  struct mmb_tune_history *history, struct mmb_tuner_result *res, char *err, size_t errlen);

#endif
