/* tune_plan.h - what a tune asks (cmd/options.c parses it from the command line),
 * and the plan it makes with the profile's [tune] section (kernels, sizes, strategy,
 * objective, budget). */
#ifndef MMB_TUNE_PLAN_H
#define MMB_TUNE_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/profile.h"
#include "results/shard.h"
#include "search/strategy.h"
#include "search/tuner.h"

/* What the command line asks of the search; NULL, -1 or false where it asks nothing. */
struct mmb_tune_options {
    const char *kernels, *sizes, *strategy, *objective;
    long long max_fevals;      /* -1: from the profile */
    double time_limit;         /* < 0: from the profile */
    unsigned long long seed;
    bool seed_set, record_restricted;
    enum mmb_counters counters; /* --counters (--no-counters: none); read when counters_set */
    bool counters_set;
    enum mmb_energy_mode energy; /* --energy (--no-energy: off); read when energy_set */
    bool energy_set;
    struct mmb_shard shard;    /* --shard K/N; n == 0: all */
};

struct mmb_tune_plan {
    const struct mmb_kernel_spec *kernels[MMB_MAX_KERNELS];
    int nkernels;
    struct mmb_size sizes[MMB_MAX_SIZES];
    int nsizes;
    const struct mmb_strategy_ops *strategy;
    struct mmb_objective objective;
    size_t max_fevals;
    double time_limit;
    uint64_t seed;
    bool record_restricted;
    enum mmb_counters counters; /* the command line's, else the profile's, else all */
    enum mmb_energy_mode energy; /* the command line's, else the profile's, else all for an energy
                                  * objective and best for the others */
    /* The reference library kernel (model/library.h), measured at every tuned size:
     * the profile's [kernel] with its library, or bare_reference when it has none. */
    const struct mmb_kernel_spec *cublas;
    struct mmb_kernel_spec bare_reference;
};

/* Options over [tune] over defaults. Returns 0, or -1 with err saying what is wrong
 * (bad input). */
int mmb_tune_plan_make(const struct mmb_profile *p, const struct mmb_tune_options *opt, struct mmb_tune_plan *plan,
                       char *err, size_t errlen);
/* Kernel x size x dtype combinations the plan tunes. */
int mmb_tune_plan_problems(const struct mmb_profile *p, const struct mmb_tune_plan *plan);

#endif
