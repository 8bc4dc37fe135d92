/* tune_plan.c - a tune's plan: the options over the profile's [tune] section over
 * the defaults, checked before any GPU is touched so that bad input is found on any
 * machine. What is wrong comes back in the error text; the command says it. */
#include "search/tune_plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "model/profile_energy.h"

static const struct mmb_kernel_spec *kernel_named(const struct mmb_profile *p, const char *name, size_t len)
{
    for (int i = 0; i < p->nkernels; i++)
        if (strlen(p->kernels[i].name) == len && !memcmp(p->kernels[i].name, name, len))
            return &p->kernels[i];
    return NULL;
}

static int add_kernel(struct mmb_tune_plan *plan, const struct mmb_profile *p, const char *name, size_t len, char *err,
                      size_t errlen)
{
    const struct mmb_kernel_spec *k = kernel_named(p, name, len);
    if (!k) {
        char names[1024] = "";
        for (int i = 0, o = 0; i < p->nkernels && (size_t)o < sizeof names; i++)
            if (p->kernels[i].kind == MMB_KERNEL_SOURCE)
                o += snprintf(names + o, sizeof names - (size_t)o, " %s", p->kernels[i].name);
        return mmb_failf(err, errlen, "--kernel '%.*s': %s has no [kernel %.*s]; expected one of%s", (int)len, name,
                         p->path, (int)len, name, names);
    }
    if (k->kind != MMB_KERNEL_SOURCE)
        return mmb_failf(err, errlen, "--kernel '%s' is a library kernel (%s:%d); expected a source kernel", k->name,
                         p->path, k->line);
    for (int i = 0; i < plan->nkernels; i++)
        if (plan->kernels[i] == k)
            return 0;
    plan->kernels[plan->nkernels++] = k;
    return 0;
}

int mmb_tune_plan_make(const struct mmb_profile *p, const struct mmb_tune_options *opt, struct mmb_tune_plan *plan,
                       char *err, size_t errlen)
{
    const struct mmb_tune_spec *t = &p->tune;
    char why[2048];
    memset(plan, 0, sizeof *plan);
    if (opt->kernels) {
        for (const char *s = opt->kernels;;) {
            const char *comma = strchr(s, ',');
            size_t len = comma ? (size_t)(comma - s) : strlen(s);
            if (add_kernel(plan, p, s, len, err, errlen) != 0)
                return -1;
            if (!comma)
                break;
            s = comma + 1;
        }
    } else if (t->nkernels) {
        for (int i = 0; i < t->nkernels; i++)
            if (add_kernel(plan, p, t->kernels[i], strlen(t->kernels[i]), err, errlen) != 0)
                return -1;
    } else {
        for (int i = 0; i < p->nkernels; i++)
            if (p->kernels[i].kind == MMB_KERNEL_SOURCE)
                plan->kernels[plan->nkernels++] = &p->kernels[i];
    }
    if (!plan->nkernels)
        return mmb_failf(err, errlen, "%s has no source kernel to tune; expected a [kernel NAME] with source = ...",
                         p->path);
    if (opt->sizes) {
        if (mmb_sizes_parse(opt->sizes, plan->sizes, MMB_MAX_SIZES, &plan->nsizes, why, sizeof why) != 0)
            return mmb_failf(err, errlen, "--size '%s': %s", opt->sizes, why);
    } else {
        const struct mmb_size *from = t->nsizes ? t->sizes : p->sizes;
        plan->nsizes = t->nsizes ? t->nsizes : p->nsizes;
        memcpy(plan->sizes, from, sizeof plan->sizes[0] * (size_t)plan->nsizes);
    }
    const char *strategy = opt->strategy ? opt->strategy : t->strategy;
    if (!(plan->strategy = mmb_strategy_find(strategy))) {
        char names[128];
        mmb_strategy_list(names, sizeof names);
        return mmb_failf(err, errlen, "--strategy '%s': expected one of %s", strategy, names);
    }
    if (!mmb_shard_is_all(&opt->shard) && !plan->strategy->splits)
        return mmb_failf(err, errlen, "--shard: strategy %s walks from a configuration to its neighbours, which a "
                         "shard splits apart; expected --strategy brute_force or random with --shard, or no --shard",
                         plan->strategy->name);
    const char *objective = opt->objective ? opt->objective : t->objective;
    if (mmb_objective_parse(objective, &plan->objective, why, sizeof why) != 0)
        return mmb_failf(err, errlen, "%s%s", opt->objective ? "--objective: " : "", why);
    /* tune counts every configuration unless asked otherwise: its CSV is also the search's record */
    plan->counters = mmb_profile_counters(p, opt->counters_set, opt->counters, MMB_COUNTERS_ALL, false);
    if (plan->counters != MMB_COUNTERS_ALL && mmb_objective_needs_counters(&plan->objective))
        return mmb_failf(err, errlen, "objective '%s' is a hardware counter, which the search needs of every "
                         "configuration; expected counters = all (--counters all, not --counters %s%s) or an "
                         "objective such as time or gflops", objective, mmb_counters_text(plan->counters),
                         opt->counters_set ? "" : " as the profile says");
    /* an energy objective ranks every configuration by its energy: each needs its window */
    bool energy_objective = mmb_objective_needs_energy(&plan->objective);
    plan->energy = mmb_profile_energy(p, opt->energy_set, opt->energy, energy_objective ? MMB_ENERGY_ALL
                                                                                        : MMB_ENERGY_OFF);
    if (energy_objective && plan->energy != MMB_ENERGY_ALL) {
        if (opt->energy_set)
            return mmb_failf(err, errlen, "objective '%s' needs the energy of every configuration, which --energy "
                             "%s does not measure; expected --energy all (or no --energy), or an objective such as "
                             "time or gflops", objective, mmb_energy_mode_text(plan->energy));
        return mmb_failf(err, errlen, "objective '%s' needs the energy of every configuration, which the profile's "
                         "energy = %s (%s:%d) does not measure; expected --energy all, energy = all, or an objective "
                         "such as time or gflops", objective, mmb_energy_mode_text(plan->energy), p->path,
                         p->energy_line);
    }
    plan->max_fevals = (size_t)(opt->max_fevals >= 0 ? opt->max_fevals : t->max_fevals);
    plan->time_limit = opt->time_limit >= 0 ? opt->time_limit : t->time_limit;
    plan->seed = opt->seed_set ? opt->seed : t->seed;
    plan->record_restricted = opt->record_restricted || t->record_restricted;
    /* The reference library: the profile's [kernel] of it, else a bare one. */
    const struct mmb_library *ref = mmb_library_reference();
    snprintf(plan->bare_reference.name, sizeof plan->bare_reference.name, "%s", ref->name);
    plan->bare_reference.kind = ref->kind;
    plan->cublas = &plan->bare_reference;
    for (int i = 0; i < p->nkernels; i++)
        if (p->kernels[i].kind == ref->kind)
            plan->cublas = &p->kernels[i];
    return 0;
}

int mmb_tune_plan_problems(const struct mmb_profile *p, const struct mmb_tune_plan *plan)
{
    int n = 0;
    for (int d = 0; d < MMB_DTYPE_COUNT; d++)
        for (int i = 0; i < plan->nkernels; i++)
            n += mmb_kernel_runs_dtype(p, plan->kernels[i], (enum mmb_dtype)d) * plan->nsizes;
    return n;
}
