/* options.c - the one table of `run` and `tune` options: each row parses its value
 * into mmb_cmd_settings, states its range and default, and prints its --help line,
 * so that a shared option is declared once and every option is documented. */
#include "cmd/options.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/common.h"
#include "core/converge.h"
#include "search/strategy.h"

enum opt_type {
    OPT_FLAG,    /* bool set to true */
    OPT_INT,     /* int in [lo, hi] */
    OPT_LLONG,   /* long long in [lo, hi] */
    OPT_U64,     /* unsigned 64-bit, all of it */
    OPT_SECONDS, /* double > 0, finite */
    OPT_NOISE,   /* a fraction or a percentage in (0, 1): core/converge.h */
    OPT_TEXT,    /* const char *, not empty */
    OPT_ALL,     /* the word 'all' sets a bool */
    OPT_SHARD,   /* K/N (results/shard.h) */
};

struct opt_def {
    const char *name;
    char short_name;       /* 0: none */
    enum opt_type type;
    size_t offset;         /* into struct mmb_cmd_settings */
    size_t set_offset;     /* a bool set when given; 0: none */
    long long lo, hi;
    unsigned commands;     /* MMB_CMD_RUN | MMB_CMD_TUNE */
    const char *arg;       /* shown in --help */
    const char *help;
};

#define S(field) offsetof(struct mmb_cmd_settings, field)
#define BOTH (MMB_CMD_RUN | MMB_CMD_TUNE)

static const struct opt_def opts[] = {
    {"device", 0, OPT_INT, S(device), 0, 0, 1023, BOTH, "N", "GPU number, as `mmbench devices` lists them (default 0)"},
    {"devices", 0, OPT_ALL, S(all_devices), 0, 0, 0, BOTH, "all",
     "every GPU at once, a worker process each (run: each sweeps all; tune: GPUs of a model split the space)"},
    {"shard", 0, OPT_SHARD, S(shard), 0, 0, 0, BOTH, "K/N",
     "only shard K of N of the runs (docs/profiles.md), into <CSV stem>.shard-K-of-N.csv (default: all)"},
    {"output", 'o', OPT_TEXT, S(output), 0, 0, 0, BOTH, "CSV",
     "results file (default DATA/<gpu>/<profile>.csv; tune: DATA/<gpu>/tune-<profile>.csv)"},
    {"data-dir", 0, OPT_TEXT, S(data_dir), 0, 0, 0, BOTH, "DATA", "folder of the per-GPU results (default data)"},
    {"cache-dir", 0, OPT_TEXT, S(cache_dir), 0, 0, 0, BOTH, "DIR",
     "cubin cache (default $MMB_CACHE_DIR, else ~/.cache/mmbench)"},
    {"no-cache", 0, OPT_FLAG, S(no_cache), 0, 0, 0, BOTH, NULL, "compile every configuration, keep no cubins"},
    {"no-counters", 0, OPT_FLAG, S(no_counters), 0, 0, 0, BOTH, NULL, "time only: no CUPTI counter passes"},
    {"repeats", 0, OPT_INT, S(timing.repeats), 0, 1, 1000000, BOTH, "N",
     "timed launches, a fixed count, over the profile's repeats or noise (default: the profile's)"},
    {"noise", 0, OPT_NOISE, S(timing.noise), 0, 0, 0, BOTH, "X",
     "time until the median is this precise, such as 0.5% or 0.005: the half-width of its 95% interval "
     "(default: the profile's noise, else a fixed count)"},
    {"min-samples", 0, OPT_INT, S(timing.min_samples), 0, MMB_CONVERGE_MIN_SAMPLES, MMB_CONVERGE_MAX_SAMPLES, BOTH,
     "N", "with a noise target, timed launches at least (default: the profile's, else 10)"},
    {"max-seconds", 0, OPT_SECONDS, S(timing.max_seconds), 0, 0, 0, BOTH, "SECONDS",
     "with a noise target, timed launching per configuration at most, once the least count is taken "
     "(default: the profile's, else 1)"},
    {"warmup", 0, OPT_INT, S(warmup), 0, 0, 1000000, BOTH, "N", "untimed launches first (default: the profile's)"},
    {"timeout", 0, OPT_SECONDS, S(timeout), 0, 0, 0, BOTH, "SECONDS",
     "limit per configuration, then a `timeout` row (default: the profile's, else 120)"},
    {"record-restricted", 0, OPT_FLAG, S(record_restricted), 0, 0, 0, BOTH, NULL,
     "write rows with status restricted too"},
    {"kernel", 0, OPT_TEXT, S(tune.kernels), 0, 0, 0, MMB_CMD_TUNE, "NAME[,NAME...]",
     "kernels to tune (default: [tune] kernels, else every source kernel)"},
    {"size", 0, OPT_TEXT, S(tune.sizes), 0, 0, 0, MMB_CMD_TUNE, "SIZES",
     "sizes to tune at, as the profile writes them (default: [tune] sizes, else the profile's)"},
    {"strategy", 0, OPT_TEXT, S(tune.strategy), 0, 0, 0, MMB_CMD_TUNE, "S", "search strategy (default brute_force)"},
    {"objective", 0, OPT_TEXT, S(tune.objective), 0, 0, 0, MMB_CMD_TUNE, "O",
     "time, gflops or a numeric column, with :min or :max (default time)"},
    {"max-fevals", 0, OPT_LLONG, S(tune.max_fevals), 0, 1, LLONG_MAX, MMB_CMD_TUNE, "N",
     "configurations measured at most per kernel and problem (default: no limit)"},
    {"time-limit", 0, OPT_SECONDS, S(tune.time_limit), 0, 0, 0, MMB_CMD_TUNE, "SECONDS",
     "wall time per kernel and problem (default: none)"},
    {"seed", 0, OPT_U64, S(tune.seed), S(tune.seed_set), 0, 0, MMB_CMD_TUNE, "S",
     "seed of random strategies, unsigned 64-bit (default: [tune] seed, else 0)"},
    {"jobs", 0, OPT_INT, S(tune.jobs), 0, 0, 1024, MMB_CMD_TUNE, "N",
     "NVRTC threads compiling ahead, 0 none (default: one per CPU)"},
    {"t4", 0, OPT_TEXT, S(tune.t4), 0, 0, 0, MMB_CMD_TUNE, "FILE",
     "Kernel Tuner T4 file, for a tune of one kernel x size x dtype (default: one beside the CSV each)"},
    {"no-t4", 0, OPT_FLAG, S(tune.no_t4), 0, 0, 0, MMB_CMD_TUNE, NULL, "write no T4 files"},
    {"verbose", 'v', OPT_FLAG, S(verbose), 0, 0, 0, BOTH, NULL, "one line per row, and the counter passes"},
    {"help", 'h', OPT_FLAG, 0, 0, 0, 0, BOTH, NULL, "this text"},
    {NULL, 0, 0, 0, 0, 0, 0, 0, NULL, NULL},
};

_Static_assert(MMB_COUNT(opts) <= MMB_CMD_OPTIONS_MAX, "mmb_cmd_settings.given has one flag per option");

/* Options that cannot both hold, and why: given together, neither is dropped silently.
 * A pair applies to the commands that take both. */
static const struct {
    const char *a, *b, *why;
} contradictions[] = {
    {"device", "devices", "one GPU, or every GPU"},
    {"output", "devices", "--devices all writes one CSV per GPU model, DATA/<gpu>/ (--data-dir)"},
    {"output", "data-dir", "-o names the CSV; --data-dir is only where the default CSV goes"},
    {"cache-dir", "no-cache", "--no-cache keeps no cubins"},
    {"t4", "no-t4", "one T4 file, or none"},
    {NULL, NULL, NULL},
};

int mmb_cmd_parse_int(const char *text, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (!*text || *end || errno || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int parse_u64(const char *text, unsigned long long *out)
{
    char *end;
    errno = 0;
    if (!*text || *text == '-' || *text == '+')
        return -1;
    unsigned long long v = strtoull(text, &end, 10);
    if (*end || errno)
        return -1;
    *out = v;
    return 0;
}

static void print_usage(enum mmb_cmd_kind kind, FILE *f)
{
    const char *name = kind == MMB_CMD_RUN ? "run" : "tune";
    fprintf(f, "usage: mmbench %s [OPTIONS] PROFILE.ini\n\n", name);
    fprintf(f, kind == MMB_CMD_RUN
                   ? "Runs every configuration of every kernel of the profile at every size and dtype on a GPU,\n"
                     "one CSV row each; run it again after an interruption and it goes on where it stopped.\n\n"
                   : "Searches the parameter spaces of the profile's kernels on a GPU, with cuBLAS measured at\n"
                     "every problem; the results CSV is also the resume cache. Options override [tune].\n\n");
    for (const struct opt_def *o = opts; o->name; o++) {
        if (!(o->commands & kind))
            continue;
        char left[64], flag[4] = "   ";
        if (o->short_name)
            snprintf(flag, sizeof flag, "-%c,", o->short_name);
        snprintf(left, sizeof left, "%s --%s%s%s", flag, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
        fprintf(f, "  %-32s %s\n", left, o->help);
    }
    if (kind == MMB_CMD_TUNE) {
        char names[128];
        mmb_strategy_list(names, sizeof names);
        fprintf(f, "\nstrategies: %s (docs/tune.md)\n", names);
    }
    fprintf(f, "exit status: 0 done, 1 results could not be written, 2 bad input, 69 no GPU, 130 interrupted\n");
}

static int bad_value(const struct mmb_cmd_settings *s, const struct opt_def *o, const char *text, const char *expect)
{
    fprintf(stderr, "mmbench %s: --%s expects %s, not '%s'\n", s->command, o->name, expect, text);
    return -1;
}

static int apply(struct mmb_cmd_settings *s, const struct opt_def *o, const char *arg)
{
    char *base = (char *)s;
    char expect[96];
    long long v;
    switch (o->type) {
    case OPT_FLAG:
        *(bool *)(base + o->offset) = true;
        return 0;
    case OPT_ALL:
        if (strcmp(arg, "all") != 0)
            return bad_value(s, o, arg, "'all'");
        *(bool *)(base + o->offset) = true;
        return 0;
    case OPT_INT:
    case OPT_LLONG:
        if (mmb_cmd_parse_int(arg, o->lo, o->hi, &v) != 0) {
            if (o->hi == LLONG_MAX)
                snprintf(expect, sizeof expect, "an integer >= %lld", o->lo);
            else
                snprintf(expect, sizeof expect, "an integer from %lld to %lld", o->lo, o->hi);
            return bad_value(s, o, arg, expect);
        }
        if (o->type == OPT_INT)
            *(int *)(base + o->offset) = (int)v;
        else
            *(long long *)(base + o->offset) = v;
        break;
    case OPT_U64:
        if (parse_u64(arg, (unsigned long long *)(base + o->offset)) != 0)
            return bad_value(s, o, arg, "an unsigned 64-bit integer (0 to 18446744073709551615)");
        break;
    case OPT_SECONDS: {
        char *end;
        errno = 0;
        double d = strtod(arg, &end);
        if (!*arg || *end || errno || !isfinite(d) || d <= 0 || d > 1e9)
            return bad_value(s, o, arg, "seconds, a number > 0");
        *(double *)(base + o->offset) = d;
        break;
    }
    case OPT_NOISE:
        if (mmb_noise_parse(arg, (double *)(base + o->offset)) != 0)
            return bad_value(s, o, arg, "a fraction or a percentage above 0 and below 100%, such as 0.5% or 0.005");
        break;
    case OPT_SHARD: {
        char why[1200];
        if (mmb_shard_parse(arg, (struct mmb_shard *)(base + o->offset), why, sizeof why) != 0) {
            fprintf(stderr, "mmbench %s: --%s %s\n", s->command, o->name, why);
            return -1;
        }
        break;
    }
    case OPT_TEXT:
        if (!*arg)
            return bad_value(s, o, arg, o->arg);
        *(const char **)(base + o->offset) = arg;
        break;
    }
    if (o->set_offset)
        *(bool *)(base + o->set_offset) = true;
    return 0;
}

static void defaults(enum mmb_cmd_kind kind, struct mmb_cmd_settings *s, const char *cache)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    memset(s, 0, sizeof *s);
    s->command = kind == MMB_CMD_RUN ? "run" : "tune";
    s->data_dir = "data";
    snprintf(s->default_cache, sizeof s->default_cache, "%s", cache);
    s->cache_dir = s->default_cache;
    s->warmup = -1;
    s->tune.max_fevals = -1;
    s->tune.time_limit = -1;
    s->tune.jobs = cpus > 0 ? (int)(cpus < 1024 ? cpus : 1024) : 1;
}

static bool given(const struct mmb_cmd_settings *s, const char *name)
{
    for (size_t i = 0; opts[i].name; i++)
        if (!strcmp(opts[i].name, name))
            return s->given[i];
    return false;
}

/* The shared settings copied into tune's options, where tune_plan reads them. */
static int finish(enum mmb_cmd_kind kind, struct mmb_cmd_settings *s)
{
    char prefix[32];
    snprintf(prefix, sizeof prefix, "mmbench %s", s->command);
    for (size_t i = 0; contradictions[i].a; i++)
        if (given(s, contradictions[i].a) && given(s, contradictions[i].b))
            return mmb_cmd_options_contradict(prefix, contradictions[i].a, contradictions[i].b,
                                              contradictions[i].why);
    if (kind == MMB_CMD_TUNE && s->no_cache && given(s, "jobs") && s->tune.jobs > 0)
        return mmb_cmd_options_contradict(prefix, "jobs", "no-cache", "compiles run ahead only through the cubin "
                                          "cache");
    if (s->no_cache)
        s->cache_dir = NULL;
    struct mmb_tune_options *t = &s->tune;
    t->counters = !s->no_counters;
    t->record_restricted = s->record_restricted;
    t->verbose = s->verbose;
    t->device = s->device;
    t->output = s->output;
    t->data_dir = s->data_dir;
    t->cache_dir = s->cache_dir;
    t->shard = s->shard;
    if (kind != MMB_CMD_TUNE)
        return 0;
    if (!s->cache_dir && t->jobs > 0) {
        fprintf(stderr, "mmbench tune: --no-cache: compiles cannot run ahead without the cubin cache; "
                "compiling on the measuring thread\n");
        t->jobs = 0;
    }
    return 0;
}

int mmb_cmd_options_parse(enum mmb_cmd_kind kind, int argc, char **argv, struct mmb_cmd_settings *s)
{
    char cache[MMB_PATH_MAX];
    mmb_default_cache_dir(cache, sizeof cache);
    defaults(kind, s, cache);
    struct option longopts[MMB_COUNT(opts)];
    char shorts[32] = "";
    size_t n = 0, ns = 0;
    for (size_t i = 0; opts[i].name; i++) {
        if (!(opts[i].commands & kind))
            continue;
        bool takes = opts[i].type != OPT_FLAG;
        longopts[n++] = (struct option){opts[i].name, takes ? required_argument : no_argument, NULL, (int)i + 256};
        if (opts[i].short_name && ns + 3 < sizeof shorts) {
            shorts[ns++] = opts[i].short_name;
            if (takes)
                shorts[ns++] = ':';
            shorts[ns] = '\0';
        }
    }
    longopts[n] = (struct option){NULL, 0, NULL, 0};
    const char *values[256 + MMB_COUNT(opts)] = {NULL};
    char prefix[32];
    snprintf(prefix, sizeof prefix, "mmbench %s", s->command);
    int opt;
    while ((opt = getopt_long(argc, argv, shorts, longopts, NULL)) != -1) {
        const struct opt_def *o = NULL;
        if (opt >= 256)
            o = &opts[opt - 256];
        for (size_t i = 0; !o && opts[i].name; i++)
            if (opts[i].short_name == opt && (opts[i].commands & kind))
                o = &opts[i];
        if (!o) {
            fprintf(stderr, "mmbench %s: see mmbench %s --help\n", s->command, s->command);
            return -1;
        }
        size_t index = (size_t)(o - opts);
        if (mmb_cmd_option_once(prefix, longopts, (int)index + 256, o->type == OPT_FLAG ? NULL : optarg, values,
                                MMB_COUNT(values)) != 0)
            return -1;
        s->given[index] = true;
        if (!strcmp(o->name, "help")) {
            print_usage(kind, stdout);
            return 1;
        }
        if (apply(s, o, optarg) != 0)
            return -1;
    }
    if (optind + 1 != argc) {
        fprintf(stderr, "mmbench %s: expected exactly one profile, got %d (see mmbench %s --help)\n", s->command,
                argc - optind, s->command);
        return -1;
    }
    s->profile = argv[optind];
    return finish(kind, s);
}
