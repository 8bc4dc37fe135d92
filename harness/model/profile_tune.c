/* profile_tune.c - the profile's [tune] section: how `mmbench tune` searches. Its
 * strategy and objective are kept as text with their lines for search/tune_spec.c
 * to check; the kernels it names are checked once the whole file is read. */
#include "model/profile.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "model/library.h"
#include "model/profile_parse.h"

/* Strategy and objective are text here: search/tune_spec.c checks them. */
static int key_strategy(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    ld->p->tune.strategy_line = ld->line;
    return mmb_profile_copy_text(ld->p->tune.strategy, sizeof ld->p->tune.strategy, value, msg, msglen);
}

static int key_objective(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    ld->p->tune.objective_line = ld->line;
    return mmb_profile_copy_text(ld->p->tune.objective, sizeof ld->p->tune.objective, value, msg, msglen);
}

static int key_max_fevals(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    return mmb_profile_parse_ll(value, 1, LLONG_MAX, &ld->p->tune.max_fevals);
}

static int key_time_limit(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    double v;
    if (mmb_profile_parse_number(value, &v) || v <= 0)
        return -1;
    ld->p->tune.time_limit = v;
    return 0;
}

static int key_tune_seed(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    return mmb_profile_parse_u64(value, &ld->p->tune.seed);
}

struct tune_kernels {
    struct mmb_tune_spec *t;
    const char *value;
};

static int tune_kernel_item(void *ctx, const char *s, size_t len, char *msg, size_t msglen)
{
    struct tune_kernels *c = ctx;
    struct mmb_tune_spec *t = c->t;
    if (!len)
        return mmb_profile_msgf(msg, msglen, "empty item in the kernel list '%s'", c->value);
    if (len >= sizeof t->kernels[0])
        return mmb_profile_msgf(msg, msglen, "kernel name '%.*s' is too long", (int)len, s);
    for (int i = 0; i < t->nkernels; i++)
        if (strlen(t->kernels[i]) == len && !memcmp(t->kernels[i], s, len))
            return mmb_profile_msgf(msg, msglen, "kernel '%.*s' is listed twice", (int)len, s);
    if (t->nkernels == MMB_MAX_KERNELS)
        return mmb_profile_msgf(msg, msglen, "more than %d kernels", MMB_MAX_KERNELS);
    memcpy(t->kernels[t->nkernels], s, len);
    t->kernels[t->nkernels++][len] = '\0';
    return 0;
}

/* Names only here: whether they are source kernels is checked once all are read. */
static int key_tune_kernels(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    struct tune_kernels c = {&ld->p->tune, value};
    if (mmb_profile_each_item(value, tune_kernel_item, &c, msg, msglen))
        return -1;
    ld->p->tune.kernels_line = ld->line;
    return 0;
}

static int key_tune_sizes(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    return mmb_sizes_parse(value, ld->p->tune.sizes, MMB_MAX_SIZES, &ld->p->tune.nsizes, msg, msglen);
}

static int key_record_restricted(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    static const char *const yes[] = {"yes", "true", "1"}, *const no[] = {"no", "false", "0"};
    for (int i = 0; i < 3; i++) {
        if (!strcmp(value, yes[i]) || !strcmp(value, no[i])) {
            ld->p->tune.record_restricted = !strcmp(value, yes[i]);
            return 0;
        }
    }
    return -1;
}

const struct key_def mmb_profile_tune_keys[] = {
    {"strategy", key_strategy, "a strategy such as 'brute_force' or 'annealing'", 0, NULL, NULL},
    {"objective", key_objective, "'time', 'gflops' or a numeric column, optionally with ':min' or ':max'", 0, NULL,
     NULL},
    {"max_fevals", key_max_fevals, "an integer >= 1", 0, NULL, NULL},
    {"time_limit", key_time_limit, "seconds, a number > 0", 0, NULL, NULL},
    {"seed", key_tune_seed, "an unsigned 64-bit integer", 0, NULL, NULL},
    {"kernels", key_tune_kernels, "kernel names such as 'tunable, naive'", 0, NULL, NULL},
    {"sizes", key_tune_sizes, "sizes such as '4096, 1024x4096x512'", 0, NULL, NULL},
    {"record_restricted", key_record_restricted, "'yes' or 'no'", 0, NULL, NULL},
    {NULL, NULL, NULL, 0, NULL, NULL},
};

int mmb_profile_begin_tune(struct loader *ld, const char *name)
{
    if (ld->p->tune.line)
        return mmb_profile_fail(ld, ld->line, "[tune] appears twice (first at line %d); expected one",
                                ld->p->tune.line);
    ld->p->tune.line = ld->line;
    return 0;
}

/* Runs once every kernel is known: [tune] may come before the kernels it names. */
int mmb_profile_check_tune_kernels(struct loader *ld)
{
    const struct mmb_tune_spec *t = &ld->p->tune;
    for (int i = 0; i < t->nkernels; i++) {
        const struct mmb_kernel_spec *k = NULL;
        for (int j = 0; j < ld->p->nkernels && !k; j++)
            if (!strcmp(ld->p->kernels[j].name, t->kernels[i]))
                k = &ld->p->kernels[j];
        if (!k)
            return mmb_profile_fail(ld, t->kernels_line,
                                    "[tune] names kernel '%s', which no [kernel NAME] section defines", t->kernels[i]);
        if (k->kind != MMB_KERNEL_SOURCE)
            return mmb_profile_fail(ld, t->kernels_line, "[tune] names kernel '%s', a library kernel (line %d); "
                                    "expected source kernels (the library is measured at every tuned size anyway)",
                                    k->name, k->line);
    }
    return 0;
}
