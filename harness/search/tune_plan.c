/* tune_plan.c - `mmbench tune`'s options and its plan: the command line over the
 * profile's [tune] section over the defaults, checked before any GPU is touched so
 * that bad input is exit 2 on any machine. */
#include "search/tune_plan.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>



static const struct mmb_kernel_spec *kernel_named(const struct mmb_profile *p, const char *name, size_t len)
{
    for (int i = 0; i < p->nkernels; i++)
        if (strlen(p->kernels[i].name) == len && !memcmp(p->kernels[i].name, name, len))
            return &p->kernels[i];
    return NULL;
}

static int add_kernel(struct mmb_tune_plan *plan, const struct mmb_profile *p, const char *name, size_t len)
{
    const struct mmb_kernel_spec *k = kernel_named(p, name, len);
    if (!k) {
        fprintf(stderr, "mmbench tune: --kernel '%.*s': %s has no [kernel %.*s]; expected one of", (int)len, name,
                p->path, (int)len, name);
        for (int i = 0; i < p->nkernels; i++)
            if (p->kernels[i].kind == MMB_KERNEL_SOURCE)
                fprintf(stderr, " %s", p->kernels[i].name);
        fprintf(stderr, "\n");
        return -1;
    }
    if (k->kind != MMB_KERNEL_SOURCE) {
        fprintf(stderr, "mmbench tune: --kernel '%s' is a library kernel (%s:%d); expected a source kernel\n",
                k->name, p->path, k->line);
        return -1;
    }
    for (int i = 0; i < plan->nkernels; i++)
        if (plan->kernels[i] == k)
            return 0;
    plan->kernels[plan->nkernels++] = k;
    return 0;
}

int mmb_tune_plan_make(const struct mmb_profile *p, const struct mmb_tune_options *opt, struct mmb_tune_plan *plan)
{
    const struct mmb_tune_spec *t = &p->tune;
    char err[2048];
    memset(plan, 0, sizeof *plan);
    if (opt->kernels) {
        for (const char *s = opt->kernels;;) {
            const char *comma = strchr(s, ',');
            size_t len = comma ? (size_t)(comma - s) : strlen(s);
            if (add_kernel(plan, p, s, len) != 0)
                return -1;
            if (!comma)
                break;
            s = comma + 1;
        }
    } else if (t->nkernels) {
        for (int i = 0; i < t->nkernels; i++)
            if (add_kernel(plan, p, t->kernels[i], strlen(t->kernels[i])) != 0)
                return -1;
    } else {
        for (int i = 0; i < p->nkernels; i++)
            if (p->kernels[i].kind == MMB_KERNEL_SOURCE)
                plan->kernels[plan->nkernels++] = &p->kernels[i];
    }
    if (!plan->nkernels) {
        fprintf(stderr, "mmbench tune: %s has no source kernel to tune; expected a [kernel NAME] with source = ...\n",
                p->path);
        return -1;
    }
    if (opt->sizes) {
        if (mmb_sizes_parse(opt->sizes, plan->sizes, MMB_MAX_SIZES, &plan->nsizes, err, sizeof err) != 0) {
            fprintf(stderr, "mmbench tune: --size '%s': %s\n", opt->sizes, err);
            return -1;
        }
    } else {
        const struct mmb_size *from = t->nsizes ? t->sizes : p->sizes;
        plan->nsizes = t->nsizes ? t->nsizes : p->nsizes;
        memcpy(plan->sizes, from, sizeof plan->sizes[0] * (size_t)plan->nsizes);
    }
    const char *strategy = opt->strategy ? opt->strategy : t->strategy;
    if (!(plan->strategy = mmb_strategy_find(strategy))) {
        char names[128];
        mmb_strategy_list(names, sizeof names);
        fprintf(stderr, "mmbench tune: --strategy '%s': expected one of %s\n", strategy, names);
        return -1;
    }
    const char *objective = opt->objective ? opt->objective : t->objective;
    if (mmb_objective_parse(objective, &plan->objective, err, sizeof err) != 0) {
        fprintf(stderr, "mmbench tune: %s%s\n", opt->objective ? "--objective: " : "", err);
        return -1;
    }
    if (!opt->counters && mmb_objective_needs_counters(&plan->objective)) {
        fprintf(stderr, "mmbench tune: objective '%s' is a hardware counter; expected counters on (drop "
                "--no-counters) or an objective such as time or gflops\n", objective);
        return -1;
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

static void usage(FILE *f)
{
    char names[128];
    mmb_strategy_list(names, sizeof names);
    fprintf(f,
            "usage: mmbench tune [--kernel NAME[,NAME...]] [--size SIZES] [--strategy S] [--max-fevals N]\n"
            "                    [--time-limit SECONDS] [--seed S] [--objective O] [--record-restricted]\n"
            "                    [--no-counters] [--jobs N] [-o CSV] [--t4 FILE | --no-t4] [--device N]\n"
            "                    [--data-dir DIR] [--cache-dir DIR | --no-cache] [--repeats N] [-v] PROFILE.ini\n"
            "strategies: %s. Options override the profile's [tune] section (docs/profiles.md).\n"
            "Results: data/<gpu>/<profile>.csv (tune- prepended unless the name starts with 'tune'); an\n"
            "interrupted tune continues from it. T4: beside it, one file per kernel, size and dtype.\n",
            names);
}

static int parse_number(const char *opt, const char *text, double lo, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || *end || !isfinite(v) || v < lo) {
        fprintf(stderr, "mmbench tune: %s expects a number >= %g, not '%s'\n", opt, lo, text);
        return -1;
    }
    *out = v;
    return 0;
}

static int parse_count(const char *opt, const char *text, long long lo, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno || end == text || *end || v < lo) {
        fprintf(stderr, "mmbench tune: %s expects an integer >= %lld, not '%s'\n", opt, lo, text);
        return -1;
    }
    *out = v;
    return 0;
}

int mmb_tune_options_parse(int argc, char **argv, struct mmb_tune_options *o, char *cache, size_t cache_len)
{
    enum { O_KERNEL = 256, O_SIZE, O_STRATEGY, O_MAX_FEVALS, O_TIME_LIMIT, O_SEED, O_OBJECTIVE, O_NO_COUNTERS,
           O_JOBS, O_T4, O_NO_T4, O_DEVICE, O_DATA_DIR, O_CACHE_DIR, O_NO_CACHE, O_REPEATS, O_RECORD };
    static const struct option longopts[] = {
        {"kernel", required_argument, NULL, O_KERNEL}, {"size", required_argument, NULL, O_SIZE},
        {"strategy", required_argument, NULL, O_STRATEGY}, {"max-fevals", required_argument, NULL, O_MAX_FEVALS},
        {"time-limit", required_argument, NULL, O_TIME_LIMIT}, {"seed", required_argument, NULL, O_SEED},
        {"objective", required_argument, NULL, O_OBJECTIVE}, {"no-counters", no_argument, NULL, O_NO_COUNTERS},
        {"jobs", required_argument, NULL, O_JOBS}, {"output", required_argument, NULL, 'o'},
        {"t4", required_argument, NULL, O_T4}, {"no-t4", no_argument, NULL, O_NO_T4},
        {"device", required_argument, NULL, O_DEVICE}, {"data-dir", required_argument, NULL, O_DATA_DIR},
        {"cache-dir", required_argument, NULL, O_CACHE_DIR}, {"no-cache", no_argument, NULL, O_NO_CACHE},
        {"repeats", required_argument, NULL, O_REPEATS}, {"record-restricted", no_argument, NULL, O_RECORD},
        {"verbose", no_argument, NULL, 'v'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    *o = (struct mmb_tune_options){.max_fevals = -1, .time_limit = -1, .counters = true, .jobs = cpus > 0 ? (int)cpus : 1,
                               .data_dir = "data", .cache_dir = cache};
    int opt;
    long long v = 0;
    while ((opt = getopt_long(argc, argv, "o:vh", longopts, NULL)) != -1) {
        switch (opt) {
        case O_KERNEL: o->kernels = optarg; break;
        case O_SIZE: o->sizes = optarg; break;
        case O_STRATEGY: o->strategy = optarg; break;
        case O_OBJECTIVE: o->objective = optarg; break;
        case O_MAX_FEVALS:
            if (parse_count("--max-fevals", optarg, 1, &o->max_fevals))
                return -1;
            break;
        case O_TIME_LIMIT:
            if (parse_number("--time-limit", optarg, 0, &o->time_limit))
                return -1;
            if (o->time_limit == 0) {
                fprintf(stderr, "mmbench tune: --time-limit expects seconds > 0, not '%s'\n", optarg);
                return -1;
            }
            break;
        case O_SEED:
            if (parse_count("--seed", optarg, 0, &v))
                return -1;
            o->seed = (unsigned long long)v;
            o->seed_set = true;
            break;
        case O_NO_COUNTERS: o->counters = false; break;
        case O_JOBS:
            if (parse_count("--jobs", optarg, 0, &v) || v > 1024) {
                if (v > 1024)
                    fprintf(stderr, "mmbench tune: --jobs expects at most 1024 threads, not '%s'\n", optarg);
                return -1;
            }
            o->jobs = (int)v;
            break;
        case 'o': o->output = optarg; break;
        case O_T4: o->t4 = optarg; break;
        case O_NO_T4: o->no_t4 = true; break;
        case O_DEVICE:
            if (parse_count("--device", optarg, 0, &v) || v > 1024)
                return -1;
            o->device = (int)v;
            break;
        case O_DATA_DIR: o->data_dir = optarg; break;
        case O_CACHE_DIR: o->cache_dir = optarg; break;
        case O_NO_CACHE: o->cache_dir = NULL; break;
        case O_REPEATS:
            if (parse_count("--repeats", optarg, 1, &v) || v > 1000000)
                return -1;
            o->repeats = (int)v;
            break;
        case O_RECORD: o->record_restricted = true; break;
        case 'v': o->verbose = true; break;
        case 'h': usage(stdout); return 1;
        default: return -1;
        }
    }
    if (optind + 1 != argc) {
        fprintf(stderr, "mmbench tune: expected exactly one profile (see mmbench tune --help)\n");
        return -1;
    }
    if (o->t4 && o->no_t4) {
        fprintf(stderr, "mmbench tune: --t4 and --no-t4 contradict each other; expected one of them\n");
        return -1;
    }
    if (!o->cache_dir && o->jobs > 0) {
        fprintf(stderr, "mmbench tune: --no-cache: compiles cannot run ahead without the cubin cache; "
                "compiling on the measuring thread\n");
        o->jobs = 0;
    }
    return 0;
}

