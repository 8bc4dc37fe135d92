/* strategy.h - search strategies over a parameter space: one struct of operations
 * per strategy, and one table (mmb_strategies) that lists them all and is the only
 * place a name is looked up, so a new strategy is one ops struct and one row. A
 * strategy proposes configuration indices and learns each one's score; the tuner
 * (tuner.c) decides what a proposal costs, evaluates, counts and records. */
#ifndef MMB_STRATEGY_H
#define MMB_STRATEGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/profile.h"

struct mmb_search;

/* True when index passes the kernel's restrictions (the tuner memoises and counts). */
typedef bool (*mmb_search_allowed_fn)(void *ctx, size_t index);

struct mmb_strategy_ops {
    const char *name;
    const char *description;
    /* Proposes configurations that already have a result (score-driven searches):
     * the tuner stops it once every allowed configuration has one. */
    bool revisits;
    /* Searches a part of the space as well as the whole (--shard, the GPUs of one model
     * with --devices all): each part is searched on its own, the configurations of the
     * other parts are neither proposed as allowed nor counted. A strategy that walks
     * from configuration to neighbouring configuration would find its neighbours in
     * other parts, so it does not split. */
    bool splits;
    /* Sets up priv; the space, seed and budget are already in the search. */
    int (*init)(struct mmb_search *s, char *err, size_t errlen);
    /* True when the strategy has nothing more to propose. */
    bool (*done)(const struct mmb_search *s);
    /* The next index to try; called only while done() is false. */
    size_t (*next)(struct mmb_search *s);
    /* The score of a proposed index, lower is better; INFINITY when it failed or
     * is restricted. Called once after every next(). */
    void (*observe)(struct mmb_search *s, size_t index, double score);
    /* Up to max indices next() will probably return soon, so that their compiles
     * can run ahead. Must not change what next() returns. */
    size_t (*peek)(const struct mmb_search *s, size_t *out, size_t max);
    void (*cleanup)(struct mmb_search *s);
};

struct mmb_search {
    /* Set by the caller before mmb_search_init. */
    const struct mmb_kernel_spec *kernel;
    uint64_t seed;
    size_t max_fevals;              /* 0: no limit */
    mmb_search_allowed_fn allowed;
    void *allowed_ctx;
    /* Kept by the tuner: distinct configurations scored (restricted ones excluded),
     * the measure of progress annealing cools by. */
    size_t fevals;
    /* Set by mmb_search_init. */
    const struct mmb_strategy_ops *ops;
    size_t space;                   /* mmb_space_size(kernel) */
    uint64_t rng;                   /* splitmix64 state */
    void *priv;
};

/* The strategies, ending with a sentinel whose name is NULL. */
extern const struct mmb_strategy_ops *const mmb_strategies[];

/* NULL when name is not in the table. */
const struct mmb_strategy_ops *mmb_strategy_find(const char *name);
/* "brute_force, random, annealing, genetic" into buf. */
void mmb_strategy_list(char *buf, size_t len);

int mmb_search_init(struct mmb_search *s, const struct mmb_strategy_ops *ops, char *err, size_t errlen);
void mmb_search_free(struct mmb_search *s);

/* Index <-> value positions (pos[i] indexes parameter i's values): mixed radix with
 * the last parameter fastest, as mmb_space_config_at numbers configurations. */
size_t mmb_search_index_of(const struct mmb_kernel_spec *kernel, const int *pos);
void mmb_search_positions(const struct mmb_kernel_spec *kernel, size_t index, int *pos);

#endif
