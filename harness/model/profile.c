/* profile.c - what a profile says: the [profile], [kernel NAME] and [tune] key
 * tables (the [tune] keys are profile_tune.c's, the timing keys profile_timing.c's),
 * what each key's value means, and the checks that need a whole section ([kernel
 * NAME]'s end) or the whole file (finish). Every key is one row of its section's
 * table: its name, its parse function and what a good value looks like, which the
 * reader (profile_parse.c) uses for every message about the key. A new section is
 * one more row in `sections` and one more key table. Grammar: docs/profiles.md. */
#include "model/profile.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/array.h"
#include "core/file.h"
#include "model/macro_names.h"
#include "model/profile_parse.h"

/* ---- [profile] ---- */

static int key_name(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    if (!mmb_profile_is_plain_name(value))
        return mmb_profile_msgf(msg, msglen, "expected a name of letters, digits, '_', '.' and '-', got '%s'",
                                value);
    return mmb_profile_copy_text(ld->p->name, sizeof ld->p->name, value, msg, msglen);
}

static int key_description(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    return mmb_profile_copy_text(ld->p->description, sizeof ld->p->description, value, msg, msglen);
}

static const char *const role_texts[MMB_PROFILE_ROLE_COUNT] = {
    [MMB_PROFILE_ROLE_STORY] = "story",           [MMB_PROFILE_ROLE_LADDER] = "ladder",
    [MMB_PROFILE_ROLE_TUNING] = "tuning",         [MMB_PROFILE_ROLE_AS_WRITTEN] = "as-written",
    [MMB_PROFILE_ROLE_PRECISIONS] = "precisions", [MMB_PROFILE_ROLE_OTHER] = "other",
};

const char *mmb_profile_role_text(enum mmb_profile_role role)
{
    return (unsigned)role < MMB_PROFILE_ROLE_COUNT ? role_texts[role] : NULL;
}

void mmb_profile_role_names(char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = '\0';
    for (int r = MMB_PROFILE_ROLE_NONE + 1; r < MMB_PROFILE_ROLE_COUNT && o < len; r++) {
        int w = snprintf(buf + o, len - o, "%s'%s'", o ? ", " : "", role_texts[r]);
        o += w > 0 ? (size_t)w : 0;
    }
}

static int key_role(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    for (int r = MMB_PROFILE_ROLE_NONE + 1; r < MMB_PROFILE_ROLE_COUNT; r++)
        if (!strcmp(value, role_texts[r])) {
            ld->p->role = (enum mmb_profile_role)r;
            return 0;
        }
    return -1;
}

static int key_sizes(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    return mmb_sizes_parse(value, ld->p->sizes, MMB_MAX_SIZES, &ld->p->nsizes, msg, msglen);
}

static int key_profile_dtypes(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    return mmb_profile_parse_dtypes(value, &ld->p->dtypes, msg, msglen);
}

static int key_repeats(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    return mmb_profile_parse_int(value, 1, &ld->p->repeats);
}

static int key_warmup(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    return mmb_profile_parse_int(value, 0, &ld->p->warmup);
}

static int key_timeout(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    double v;
    if (mmb_profile_parse_number(value, &v) || !(v > 0) || v > 1e9)
        return -1;
    ld->p->timeout = v;
    return 0;
}

static int key_max_configs(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    return mmb_profile_parse_ll(value, 1, LLONG_MAX, &ld->p->max_configs);
}

static int key_cache(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    return mmb_cache_parse(value, &ld->p->cache) ? 0 : -1;
}

static int key_metrics(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    ld->p->metrics_line = ld->line;
    return mmb_profile_copy_text(ld->p->metrics, sizeof ld->p->metrics, value, msg, msglen);
}

static int key_seed(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    return mmb_profile_parse_u64(value, &ld->p->seed);
}

static int key_tolerance(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    const char *name = key + strlen("tolerance.");
    enum mmb_dtype d;
    if (!mmb_dtype_parse(name, &d)) {
        char names[96];
        mmb_profile_dtype_names(names, sizeof names);
        return mmb_profile_msgf(msg, msglen,
                                "unknown dtype '%s' in '%s'; expected tolerance.DTYPE with DTYPE one of %s",
                                name, key, names);
    }
    if (ld->tolerance_lines[d])
        return mmb_profile_msgf(msg, msglen, "'%s' is already set at line %d", key, ld->tolerance_lines[d]);
    double v;
    if (mmb_profile_parse_number(value, &v) || v < 0)
        return -1;
    ld->p->tolerance[d] = v;
    ld->tolerance_lines[d] = ld->line;
    return 0;
}

static const struct key_def profile_keys[] = {
    {"name", key_name, "a name such as 'course'", 0, NULL, NULL},
    {"description", key_description, "free text", 0, NULL, NULL},
    {"sizes", key_sizes, "sizes such as '256:8192:x2, 1024x4096x512, 1000'", 0, NULL, NULL},
    {"dtypes", key_profile_dtypes, "dtypes such as 'f32, f64'", 0, NULL, NULL},
    {"repeats", key_repeats, "an integer >= 1", 0, NULL, NULL},
    {"noise", mmb_profile_key_noise, "a fraction or a percentage above 0 and below 100%, such as 0.5% or 0.005 "
     "(the median's relative precision to time to)", 0, NULL, NULL},
    {"min_samples", mmb_profile_key_min_samples, "an integer from 6 to 100000 (timed launches at least, with noise)",
     0, NULL, NULL},
    {"max_seconds", mmb_profile_key_max_seconds, "seconds, a number > 0 such as 1 (of timed launches at most, once "
     "min_samples are taken, with noise)", 0, NULL, NULL},
    {"warmup", key_warmup, "an integer >= 0", 0, NULL, NULL},
    {"cache", key_cache, "'cold' or 'hot'", 0, NULL, NULL},
    {"metrics", key_metrics, "a metric set such as 'default'", 0, NULL, NULL},
    {"counters", mmb_profile_key_counters, "'best' (count each kernel's fastest configuration per size and dtype), 'all' or "
     "'none'", 0, NULL, NULL},
    {"seed", key_seed, "an unsigned 64-bit integer", 0, NULL, NULL},
    {"max_configurations", key_max_configs, "an integer >= 1 (the most configurations one kernel may have)", 0,
     NULL, NULL},
    {"timeout", key_timeout, "seconds one configuration may take, a number > 0 such as 120", 0, NULL, NULL},
    {"tolerance.", key_tolerance, "a number >= 0 such as 1e-4", KEY_PREFIX, "tolerance.DTYPE", NULL},
    {"energy", mmb_profile_key_energy, "'best' (the energy window for each kernel's fastest configuration per size "
     "and dtype), 'all' or 'off' (docs/energy.md)", 0, NULL, NULL},
    {"energy_seconds", mmb_profile_key_energy_seconds, "seconds, a number from 0.05 to 60 such as 0.2 (the energy "
     "window at least)", 0, NULL, NULL},
    {"throttle_retries", mmb_profile_key_throttle_retries, "an integer from 0 to 10 (measurements again of a row "
     "taken while the clocks were throttled)", 0, NULL, NULL},
    {"throttle_threshold", mmb_profile_key_throttle_threshold, "a percentage from 1% to 100% such as 90% (a "
     "throttled row is measured again when its lowest SM clock fell below this share of the GPU's maximum; 100%: "
     "every throttled row)", 0, NULL, NULL},
    {"role", key_role, NULL, 0, NULL, mmb_profile_role_names},
    {NULL, NULL, NULL, 0, NULL, NULL},
};

static int end_profile(struct loader *ld)
{
    return mmb_profile_end_timing(ld, profile_keys);
}

static int begin_profile(struct loader *ld, const char *name)
{
    if (ld->profile_line)
        return mmb_profile_fail(ld, ld->line, "[profile] appears twice (first at line %d); expected one",
                                ld->profile_line);
    ld->profile_line = ld->line;
    return 0;
}

/* ---- [kernel NAME] ---- */

/* Names a parameter cannot take: the size variables, the element type macro and
 * the words of expressions. */
static const char *const reserved[] = {"M", "N", "K", "elem_size", "elem_t", "sm_count", "max_active_clusters",
                                       "and", "or", "not", "min", "max", "ceil_div"};

static int key_source(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    char *dst = ld->kernel->source;
    const char *slash = strrchr(ld->path, '/');
    int dirlen = value[0] == '/' || !slash ? 0 : (int)(slash - ld->path + 1);
    int w = snprintf(dst, MMB_PATH_MAX, "%.*s%s", dirlen, ld->path, value);
    if (w < 0 || w >= MMB_PATH_MAX)
        return mmb_profile_msgf(msg, msglen, "source path is too long (at most %d characters)", MMB_PATH_MAX - 1);
    struct stat st;
    if (stat(dst, &st) != 0)
        return mmb_profile_msgf(msg, msglen, "source '%s' cannot be read (looked for %s): %s", value, dst,
                                strerror(errno));
    if (!S_ISREG(st.st_mode))
        return mmb_profile_msgf(msg, msglen, "source '%s' is not a file (looked for %s)", value, dst);
    if ((unsigned long long)st.st_size > MMB_FILE_MAX)
        return mmb_profile_msgf(msg, msglen, "source '%s' is %lld bytes; expected at most %zu", value,
                                (long long)st.st_size, MMB_FILE_MAX);
    return 0;
}

static int key_library(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    const struct mmb_library *lib = mmb_library_find(value);
    if (!lib)
        return -1;
    ld->kernel->kind = lib->kind;
    return 0;
}

/* What `library =` takes: the names of the library table, quoted. */
static void library_values(char *buf, size_t len)
{
    mmb_library_names(buf, len, " or ", true);
}

static int key_kernel_dtypes(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    return mmb_profile_parse_dtypes(value, &ld->kernel->dtypes, msg, msglen);
}

static int key_param(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    struct mmb_kernel_spec *k = ld->kernel;
    const char *name = key + strlen("param.");
    if (!mmb_profile_is_identifier(name))
        return mmb_profile_msgf(msg, msglen, "parameter name '%s' is not a C identifier; expected param.NAME", name);
    for (size_t i = 0; i < MMB_COUNT(reserved); i++)
        if (!strcmp(name, reserved[i]))
            return mmb_profile_msgf(msg, msglen, "parameter name '%s' is reserved (M, N, K, elem_size, elem_t, sm_count, "
                                    "max_active_clusters and the words of expressions are)", name);
    const char *clash = mmb_macro_name_clash(name);
    if (clash)
        return mmb_profile_msgf(msg, msglen, "parameter name '%s' is %s: the compiler gets each parameter as the "
                                "macro -D%s=VALUE, which would break every configuration; expected another name", name,
                                clash, name);
    for (int i = 0; i < k->nparams; i++)
        if (!strcmp(k->params[i].name, name))
            return mmb_profile_msgf(msg, msglen, "parameter '%s' is already defined at line %d", name,
                                    k->params[i].line);
    if (k->nparams == MMB_MAX_PARAMS)
        return mmb_profile_msgf(msg, msglen, "more than %d parameters", MMB_MAX_PARAMS);
    struct mmb_param *p = &k->params[k->nparams];
    if (mmb_profile_copy_text(p->name, sizeof p->name, name, msg, msglen))
        return -1;
    char vmsg[192];
    if (mmb_values_parse(value, p->values, MMB_MAX_VALUES, &p->nvalues, vmsg, sizeof vmsg))
        return mmb_profile_msgf(msg, msglen, "parameter '%s': %s", name, vmsg);
    p->line = ld->line;
    k->nparams++;
    return 0;
}

static int parse_expr(struct loader *ld, const char *key, const char *value, struct mmb_expr **out,
                      char *msg, size_t msglen)
{
    char eerr[512];
    struct mmb_expr *e = mmb_expr_parse(value, eerr, sizeof eerr);
    if (!e)
        return mmb_profile_msgf(msg, msglen, "bad expression for '%s': %s", key, eerr);
    *out = e;
    return 0;
}

static int key_restrict(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    struct mmb_kernel_spec *k = ld->kernel;
    if (k->nrestrictions == MMB_MAX_RESTRICTIONS)
        return mmb_profile_msgf(msg, msglen, "more than %d restrictions", MMB_MAX_RESTRICTIONS);
    struct mmb_restriction *r = &k->restrictions[k->nrestrictions];
    if (parse_expr(ld, key, value, &r->expr, msg, msglen))
        return -1;
    r->line = ld->line;
    k->nrestrictions++;
    return 0;
}

/* The geometry keys, in the same order as geometry_slot(). */
static const char *const geometry_keys[] = {"block_x", "block_y", "block_z", "grid_div_x", "grid_div_y", "smem",
                                            "grid_x",  "grid_y",  "grid_z",  "cluster_x",  "cluster_y",  "cluster_z"};

static struct mmb_expr **geometry_slot(struct mmb_kernel_spec *k, int i)
{
    struct mmb_expr **slots[] = {&k->block_x, &k->block_y, &k->block_z, &k->grid_div_x, &k->grid_div_y, &k->smem,
                                 &k->grid_x,  &k->grid_y,  &k->grid_z,  &k->cluster_x,  &k->cluster_y,  &k->cluster_z};
    return slots[i];
}

static int key_geometry(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    for (int i = 0; i < (int)MMB_COUNT(geometry_keys); i++)
        if (!strcmp(key, geometry_keys[i]))
            return parse_expr(ld, key, value, geometry_slot(ld->kernel, i), msg, msglen);
    return mmb_profile_msgf(msg, msglen, "internal error: '%s' is not a geometry key", key);
}

static int key_summary(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    return mmb_profile_copy_text(ld->kernel->summary, sizeof ld->kernel->summary, value, msg, msglen);
}

/* A column name as the CSV spells it; whether it is a counter is results/'s to say. */
static int key_motivation(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    if (!mmb_profile_is_identifier(value))
        return mmb_profile_msgf(msg, msglen, "expected a counter column such as 'smem_bank_conflicts', got '%s'",
                                value);
    ld->kernel->motivation_line = ld->line;
    return mmb_profile_copy_text(ld->kernel->motivation, sizeof ld->kernel->motivation, value, msg, msglen);
}

static int key_nvrtc_options(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    return mmb_profile_copy_text(ld->kernel->nvrtc_options, sizeof ld->kernel->nvrtc_options, value, msg, msglen);
}

#define EXPR_VALUE "an expression over the parameters, M, N, K and elem_size"

static const struct key_def kernel_keys[] = {
    {"source", key_source, "a .cu file, relative to the profile's folder", KEY_SOURCE_ONLY, NULL, NULL},
    {"function", mmb_profile_key_function, "the kernel's function: a name, or a template instance such as "
     "'f<elem_t>'", KEY_SOURCE_ONLY, NULL, NULL},
    {"library", key_library, NULL, 0, NULL, library_values},
    {"dtypes", key_kernel_dtypes, "dtypes such as 'f32, f64'", 0, NULL, NULL},
    {"param.", key_param, "values such as '16, 32, 64' or '1:32:x2'", KEY_PREFIX | KEY_SOURCE_ONLY, "param.NAME", NULL},
    {"restrict", key_restrict, "a condition such as 'block_size_x * block_size_y <= 1024'",
     KEY_REPEAT | KEY_SOURCE_ONLY, NULL, NULL},
    {"block_x", key_geometry, EXPR_VALUE, KEY_SOURCE_ONLY, NULL, NULL},
    {"block_y", key_geometry, EXPR_VALUE, KEY_SOURCE_ONLY, NULL, NULL},
    {"block_z", key_geometry, EXPR_VALUE, KEY_SOURCE_ONLY, NULL, NULL},
    {"grid_div_x", key_geometry, EXPR_VALUE, KEY_SOURCE_ONLY, NULL, NULL},
    {"grid_div_y", key_geometry, EXPR_VALUE, KEY_SOURCE_ONLY, NULL, NULL},
    {"smem", key_geometry, EXPR_VALUE, KEY_SOURCE_ONLY, NULL, NULL},
    {"grid_x", key_geometry, EXPR_VALUE " (blocks; default ceil(N / grid_div_x))", KEY_SOURCE_ONLY, NULL, NULL},
    {"grid_y", key_geometry, EXPR_VALUE " (blocks; default ceil(M / grid_div_y))", KEY_SOURCE_ONLY, NULL, NULL},
    {"grid_z", key_geometry, EXPR_VALUE " (blocks; default 1)", KEY_SOURCE_ONLY, NULL, NULL},
    {"cluster_x", key_geometry, EXPR_VALUE " (blocks per cluster; default 1)", KEY_SOURCE_ONLY, NULL, NULL},
    {"cluster_y", key_geometry, EXPR_VALUE " (blocks per cluster; default 1)", KEY_SOURCE_ONLY, NULL, NULL},
    {"cluster_z", key_geometry, EXPR_VALUE " (blocks per cluster; default 1)", KEY_SOURCE_ONLY, NULL, NULL},
    {"target", mmb_profile_key_target, "arch-specific targets such as 'sm_90a' or 'sm_90a, sm_100a'",
     KEY_SOURCE_ONLY, NULL, NULL},
    {"args", mmb_profile_key_args, "the call's arguments in order: A, B, C for the matrices, "
     "tma(A, box_inner, box_outer, swizzle) for a tensor map of one, int expressions over the parameters, M, N, K "
     "and elem_size; default 'C, A, B, M, N, K'", KEY_SOURCE_ONLY, NULL, NULL},
    {"define.", mmb_profile_key_define, "an expression such as 'N' or 'block_size_x'",
     KEY_PREFIX | KEY_SOURCE_ONLY, "define.NAME", NULL},
    {"prelude", mmb_profile_key_prelude, "'none' or 'stdint' (uint8_t and the other <cstdint> types, as nvcc "
     "makes them visible)", KEY_SOURCE_ONLY, NULL, NULL},
    {"nvrtc_options", key_nvrtc_options, "NVRTC options such as '-lineinfo'", KEY_SOURCE_ONLY, NULL, NULL},
    {"summary", key_summary, "free text: what this kernel changes from the one before", 0, NULL, NULL},
    {"motivation", key_motivation, "a counter column such as 'smem_bank_conflicts'", 0, NULL, NULL},
    {NULL, NULL, NULL, 0, NULL, NULL},
};

static int begin_kernel(struct loader *ld, const char *name)
{
    struct mmb_profile *p = ld->p;
    if (!mmb_profile_is_plain_name(name))
        return mmb_profile_fail(ld, ld->line, "kernel name '%s' must be letters, digits, '_', '.' and '-'", name);
    if (strlen(name) >= sizeof p->kernels[0].name)
        return mmb_profile_fail(ld, ld->line, "kernel name '%s' is too long; expected at most %zu characters", name,
                                sizeof p->kernels[0].name - 1);
    for (int i = 0; i < p->nkernels; i++)
        if (!strcmp(p->kernels[i].name, name))
            return mmb_profile_fail(ld, ld->line, "kernel '%s' is already defined at line %d", name,
                                    p->kernels[i].line);
    if (p->nkernels == MMB_MAX_KERNELS)
        return mmb_profile_fail(ld, ld->line, "more than %d kernels", MMB_MAX_KERNELS);
    struct mmb_kernel_spec *k = &p->kernels[p->nkernels++];
    strcpy(k->name, name);
    k->line = ld->line;
    k->kind = MMB_KERNEL_SOURCE;
    ld->kernel = k;
    return 0;
}

/* What the device says at launch: the names of grid expressions only (check_expr_names). */
static bool is_launch_name(const char *name, size_t len)
{
    static const char *const names[] = {"sm_count", "max_active_clusters"};
    for (size_t i = 0; i < MMB_COUNT(names); i++)
        if (strlen(names[i]) == len && !memcmp(name, names[i], len))
            return true;
    return false;
}

struct name_check {
    const struct mmb_kernel_spec *kernel;
    bool launch; /* a grid expression: sm_count and max_active_clusters are known there */
    const char *bad;
    size_t len, column;
};

static bool kernel_knows(const struct mmb_kernel_spec *k, const char *name, size_t len)
{
    static const char *const sizes[] = {"M", "N", "K", "elem_size"};
    for (size_t i = 0; i < MMB_COUNT(sizes); i++)
        if (strlen(sizes[i]) == len && !memcmp(sizes[i], name, len))
            return true;
    for (int i = 0; i < k->nparams; i++)
        if (strlen(k->params[i].name) == len && !memcmp(k->params[i].name, name, len))
            return true;
    return false;
}

static int check_name(void *ctx, const char *name, size_t len, size_t column)
{
    struct name_check *c = ctx;
    if (kernel_knows(c->kernel, name, len) || (c->launch && is_launch_name(name, len)))
        return 0;
    c->bad = name;
    c->len = len;
    c->column = column;
    return 1;
}

/* sm_count, the device's multiprocessors, and max_active_clusters, the clusters (or
 * blocks) of the configuration that fit on the device at once, are known only when a
 * configuration is launched: grid_x, grid_y and grid_z may use them (a persistent
 * kernel's grid); the expressions that plan a sweep without a device may not. */
static int check_expr_names(struct loader *ld, const struct mmb_expr *e, const char *key, int line)
{
    const struct mmb_kernel_spec *k = ld->kernel;
    const bool launch = !strcmp(key, "grid_x") || !strcmp(key, "grid_y") || !strcmp(key, "grid_z");
    struct name_check c = {.kernel = k, .launch = launch};
    if (!mmb_expr_each_name(e, check_name, &c))
        return 0;
    char params[512] = "";
    size_t n = 0;
    for (int i = 0; i < k->nparams && n < sizeof params; i++) {
        int w = snprintf(params + n, sizeof params - n, "%s, ", k->params[i].name);
        n += w < 0 ? 0 : (size_t)w;
    }
    char caret[600];
    mmb_expr_format_caret(mmb_expr_text(e), c.column, caret, sizeof caret);
    if (is_launch_name(c.bad, c.len))
        return mmb_profile_fail(ld, line,
                                "'%.*s' at column %zu of '%s' is known only at launch; expected it in grid_x, "
                                "grid_y or grid_z%s", (int)c.len, c.bad, c.column, key, caret);
    return mmb_profile_fail(ld, line,
                            "unknown name '%.*s' at column %zu of '%s'; expected one of %sM, N, K, elem_size%s%s",
                            (int)c.len, c.bad, c.column, key, params, launch ? ", sm_count, max_active_clusters" : "",
                            caret);
}

static int default_expr(struct loader *ld, struct mmb_expr **slot, const char *text)
{
    char eerr[256];
    *slot = mmb_expr_parse(text, eerr, sizeof eerr);
    if (!*slot)
        return mmb_profile_fail(ld, ld->kernel->line, "default expression '%s': %s", text, eerr);
    return 0;
}

int mmb_profile_kernel_key_index(const char *key)
{
    return mmb_profile_key_index(kernel_keys, key);
}

static int end_kernel(struct loader *ld)
{
    struct mmb_kernel_spec *k = ld->kernel;
    int lib_line = ld->key_lines[mmb_profile_key_index(kernel_keys, "library")];
    if (k->kind != MMB_KERNEL_SOURCE) {
        for (int i = 0; kernel_keys[i].key; i++) {
            const struct key_def *d = &kernel_keys[i];
            if ((d->flags & KEY_SOURCE_ONLY) && ld->key_lines[i])
                return mmb_profile_fail(ld, ld->key_lines[i], "kernel '%s' is a library kernel (library at line %d); "
                                        "expected no '%s'", k->name, lib_line, d->shown ? d->shown : d->key);
        }
    } else {
        char libraries[128];
        mmb_library_names(libraries, sizeof libraries, " or ", false);
        if (!k->source[0])
            return mmb_profile_fail(ld, k->line, "kernel '%s' has no 'source'; expected source = FILE.cu "
                                    "(or library = %s)", k->name, libraries);
        if (!k->function[0])
            return mmb_profile_fail(ld, k->line, "kernel '%s' has no 'function'; expected function = NAME", k->name);
    }
    for (int i = 0; i < k->nrestrictions; i++)
        if (check_expr_names(ld, k->restrictions[i].expr, "restrict", k->restrictions[i].line))
            return -1;
    for (int i = 0; i < (int)MMB_COUNT(geometry_keys); i++) {
        struct mmb_expr *e = *geometry_slot(k, i);
        int line = ld->key_lines[mmb_profile_key_index(kernel_keys, geometry_keys[i])];
        if (e && check_expr_names(ld, e, geometry_keys[i], line))
            return -1;
    }
    static const char *const block_params[] = {"block_size_x", "block_size_y", "block_size_z"};
    for (int i = 0; i < 3; i++) {
        struct mmb_expr **slot = geometry_slot(k, i);
        const char *name = block_params[i];
        if (!*slot && default_expr(ld, slot, kernel_knows(k, name, strlen(name)) ? name : "1"))
            return -1;
    }
    for (int i = 0; i < 2; i++) {
        struct mmb_expr **slot = geometry_slot(k, 3 + i);
        if (!*slot && default_expr(ld, slot, mmb_expr_text(*geometry_slot(k, i))))
            return -1;
    }
    if (!k->smem && default_expr(ld, &k->smem, "0"))
        return -1;
    if (k->kind == MMB_KERNEL_SOURCE && mmb_profile_end_binding(ld, check_expr_names) != 0)
        return -1;
    size_t configs = 1;
    for (int i = 0; i < k->nparams; i++)
        if (__builtin_mul_overflow(configs, (size_t)k->params[i].nvalues, &configs))
            return mmb_profile_fail(ld, k->params[i].line, "kernel '%s' has too many configurations to count", k->name);
    ld->kernel = NULL;
    return 0;
}

/* ---- the whole file ---- */

static int set_default_name(struct loader *ld)
{
    struct mmb_profile *p = ld->p;
    if (p->name[0])
        return 0;
    const char *base = strrchr(ld->path, '/');
    base = base ? base + 1 : ld->path;
    size_t len = strlen(base);
    if (len > 4 && !strcmp(base + len - 4, ".ini"))
        len -= 4;
    if (len >= sizeof p->name)
        return mmb_profile_fail(ld, ld->profile_line ? ld->profile_line : 1,
                                "file name too long for a profile name; expected 'name = ...' in [profile]");
    memcpy(p->name, base, len);
    p->name[len] = '\0';
    if (!mmb_profile_is_plain_name(p->name))
        return mmb_profile_fail(ld, ld->profile_line ? ld->profile_line : 1,
                                "file name '%s' is not a profile name (letters, digits, '_', '.', '-'); expected "
                                "'name = ...'", p->name);
    return 0;
}

static const struct section_def sections[] = {
    {"profile", "[profile]", false, begin_profile, end_profile, profile_keys},
    {"kernel", "[kernel NAME]", true, begin_kernel, end_kernel, kernel_keys},
    {"tune", "[tune]", false, mmb_profile_begin_tune, NULL, mmb_profile_tune_keys},
    {NULL, NULL, false, NULL, NULL, NULL},
};

/* Every kernel's space within [profile] max_configurations (so that counting and
 * walking it stay bounded), and its longest params text within a row's cell (so
 * that the text identifies its configuration). */
static int check_spaces(struct loader *ld)
{
    const struct mmb_profile *p = ld->p;
    for (int ki = 0; ki < p->nkernels; ki++) {
        const struct mmb_kernel_spec *k = &p->kernels[ki];
        size_t configs = 1, text = 0;
        for (int i = 0; i < k->nparams; i++) {
            const struct mmb_param *pa = &k->params[i];
            configs *= (size_t)pa->nvalues; /* end_kernel checked that this cannot overflow */
            size_t widest = 0;
            for (int v = 0; v < pa->nvalues; v++) {
                char digits[32];
                size_t w = (size_t)snprintf(digits, sizeof digits, "%lld", pa->values[v]);
                widest = w > widest ? w : widest;
            }
            text += (i ? 1 : 0) + strlen(pa->name) + 1 + widest;
        }
        if (configs > (unsigned long long)p->max_configs)
            return mmb_profile_fail(ld, k->line, "kernel '%s' has %zu configurations; expected at most %lld "
                                    "(raise max_configurations in [profile] to allow more)", k->name, configs,
                                    p->max_configs);
        if (text >= MMB_PARAMS_LEN)
            return mmb_profile_fail(ld, k->line, "kernel '%s': its longest configuration written as name=value;... "
                                    "takes %zu characters; expected at most %d (shorter parameter names, or "
                                    "fewer parameters)", k->name, text, MMB_PARAMS_LEN - 1);
    }
    return 0;
}

/* Runs after the last section: what needs the whole file. */
static int finish(struct loader *ld)
{
    struct mmb_profile *p = ld->p;
    if (!ld->profile_line)
        return mmb_profile_fail(ld, 1, "no [profile] section; expected one with at least 'sizes = ...'");
    if (!p->nsizes)
        return mmb_profile_fail(ld, ld->profile_line,
                                "[profile] has no 'sizes'; expected e.g. 'sizes = 256:8192:x2, 1000'");
    if (!p->nkernels)
        return mmb_profile_fail(ld, ld->line ? ld->line : 1,
                                "no kernel; expected at least one [kernel NAME] section");
    if (mmb_profile_check_tune_kernels(ld) || check_spaces(ld) || mmb_profile_check_tma(ld))
        return -1;
    return set_default_name(ld);
}

static void set_defaults(struct mmb_profile *p)
{
    p->dtypes = 1u << MMB_F32;
    p->repeats = 20;
    p->warmup = 2;
    p->timeout = 120;
    p->max_configs = MMB_DEFAULT_MAX_CONFIGS;
    p->energy = MMB_ENERGY_OFF;
    p->energy_seconds = MMB_ENERGY_SECONDS_DEFAULT;
    p->throttle_retries = MMB_THROTTLE_RETRIES_DEFAULT;
    p->throttle_threshold = MMB_THROTTLE_THRESHOLD_DEFAULT;
    p->cache = MMB_CACHE_COLD;
    strcpy(p->metrics, "default");
    p->seed = 1;
    strcpy(p->tune.strategy, "brute_force");
    strcpy(p->tune.objective, "time");
    p->tune.seed = 1;
    for (const struct mmb_dtype_info *d = mmb_dtype_table; d->text; d++)
        p->tolerance[d->value] = NAN; /* the dtype's rule, at each problem's K */
}

int mmb_profile_load(const char *path, struct mmb_profile *profile, char *err, size_t errlen)
{
    memset(profile, 0, sizeof *profile);
    set_defaults(profile);
    struct loader ld = {.path = path, .sections = sections, .err = err, .errlen = errlen, .p = profile};
    if (err && errlen)
        err[0] = '\0';
    if (strlen(path) >= sizeof profile->path) {
        if (err && errlen)
            snprintf(err, errlen, "%s: path too long (at most %zu characters)", path, sizeof profile->path - 1);
        return -1;
    }
    strcpy(profile->path, path);
    if (mmb_profile_parse_file(&ld, finish) != 0) {
        mmb_profile_free(profile);
        return -1;
    }
    return 0;
}

void mmb_profile_free(struct mmb_profile *profile)
{
    for (int i = 0; i < profile->nkernels; i++) {
        struct mmb_kernel_spec *k = &profile->kernels[i];
        for (int j = 0; j < k->nrestrictions; j++) {
            mmb_expr_free(k->restrictions[j].expr);
            k->restrictions[j].expr = NULL;
        }
        k->nrestrictions = 0;
        for (int j = 0; j < (int)MMB_COUNT(geometry_keys); j++) {
            struct mmb_expr **slot = geometry_slot(k, j);
            mmb_expr_free(*slot);
            *slot = NULL;
        }
        for (int j = 0; j < k->nargs; j++) {
            struct mmb_kernel_arg *a = &k->args[j];
            mmb_expr_free(a->expr);
            mmb_expr_free(a->box_inner);
            mmb_expr_free(a->box_outer);
            mmb_expr_free(a->swizzle);
            a->expr = a->box_inner = a->box_outer = a->swizzle = NULL;
        }
        k->nargs = 0;
        for (int j = 0; j < k->ndefines; j++) {
            mmb_expr_free(k->defines[j].expr);
            k->defines[j].expr = NULL;
        }
        k->ndefines = 0;
    }
    profile->nkernels = 0;
}

unsigned mmb_kernel_dtypes(const struct mmb_profile *profile, const struct mmb_kernel_spec *kernel)
{
    return kernel->dtypes ? kernel->dtypes : profile->dtypes;
}

bool mmb_kernel_runs_dtype(const struct mmb_profile *profile, const struct mmb_kernel_spec *kernel,
                           enum mmb_dtype dtype)
{
    unsigned bit = 1u << dtype;
    return (mmb_kernel_dtypes(profile, kernel) & bit) && (profile->dtypes & bit);
}
