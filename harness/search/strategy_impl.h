/* strategy_impl.h - what the strategies share and nothing else includes: random
 * numbers drawn from the search's seed, random allowed configurations, neighbours. */
#ifndef MMB_STRATEGY_IMPL_H
#define MMB_STRATEGY_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* From search/strategy.h, which every strategy includes too. Not included here:
 * strategy.c includes this header for the table, and a header that included
 * strategy.h back would make the two one circle. */
struct mmb_kernel_spec;
struct mmb_search;
struct mmb_strategy_ops;

extern const struct mmb_strategy_ops mmb_strategy_brute_force;
extern const struct mmb_strategy_ops mmb_strategy_random;
extern const struct mmb_strategy_ops mmb_strategy_annealing;
extern const struct mmb_strategy_ops mmb_strategy_genetic;

/* Uniform in [0, n), n > 0, without modulo bias. */
uint64_t mmb_search_below(struct mmb_search *s, uint64_t n);
/* Uniform in [0, 1). */
double mmb_search_uniform(struct mmb_search *s);
/* A uniformly drawn allowed configuration; false when the space has none. */
bool mmb_search_random_allowed(struct mmb_search *s, size_t *index);

enum mmb_neighbours {
    MMB_NEIGHBOURS_ADJACENT, /* every parameter at most one value away */
    MMB_NEIGHBOURS_HAMMING,  /* exactly one parameter changed, to any value */
};

/* Upper bound on how many neighbours one configuration can have. */
size_t mmb_search_neighbours_max(const struct mmb_kernel_spec *kernel);
/* The allowed neighbours of index into out (room for mmb_search_neighbours_max),
 * in a fixed order; returns the count. */
size_t mmb_search_neighbours(const struct mmb_search *s, size_t index, enum mmb_neighbours kind, size_t *out);

#endif
