/* profile.c - reads a profile. Our line reader feeds libinih one physical line at a
 * time (so every key knows its line), handles section headers itself (so empty
 * sections are seen), and strips comments and indentation (so long comments fit
 * libinih's line buffer and indented keys never become continuation lines). Sections
 * and keys are tables, fio style: a new section such as [tune] is one more row in
 * `sections` and one more key table. Grammar: docs/profiles.md. */
#include "model/profile.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_KEYS 32

struct loader;

/* Returns 0, or -1 with msg set (or left empty for the generic "expected ..."). */
typedef int (*key_fn)(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen);

enum key_flag {
    KEY_PREFIX = 1,      /* key is a prefix: param.NAME, tolerance.DTYPE */
    KEY_REPEAT = 2,      /* may appear any number of times */
    KEY_SOURCE_ONLY = 4, /* a library kernel rejects it */
};

struct key_def {
    const char *key;
    key_fn parse;
    const char *expect; /* what a good value looks like */
    unsigned flags;
    const char *shown;  /* how messages spell a prefix key */
};

struct section_def {
    const char *prefix;  /* "profile", or "kernel" followed by a name */
    const char *shown;   /* "[kernel NAME]" */
    bool named;
    int (*begin)(struct loader *ld, const char *name);
    int (*end)(struct loader *ld);
    const struct key_def *keys;
};

struct loader {
    struct mmb_profile *p;
    const char *path;
    FILE *f;
    char *buf;
    size_t cap;
    int line;
    const struct section_def *section;
    char section_text[128];
    int section_line;
    struct mmb_kernel_spec *kernel;
    int key_lines[MAX_KEYS]; /* first line of each key of the current section; 0 = unset */
    int profile_line;        /* of [profile] */
    int tolerance_lines[MMB_DTYPE_COUNT];
    bool failed;
    char *err;
    size_t errlen;
};

static int fail(struct loader *ld, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(struct loader *ld, int line, const char *fmt, ...)
{
    if (ld->failed)
        return -1;
    ld->failed = true;
    if (!ld->err || !ld->errlen)
        return -1;
    int w = snprintf(ld->err, ld->errlen, "%s:%d: ", ld->path, line);
    size_t n = w < 0 ? 0 : (size_t)w;
    if (n < ld->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ld->err + n, ld->errlen - n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static int msgf(char *msg, size_t msglen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int msgf(char *msg, size_t msglen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, msglen, fmt, ap);
    va_end(ap);
    return -1;
}

/* Copies value into a fixed field; too long is an error, never a silent cut. */
static int copy_text(char *dst, size_t size, const char *value, char *msg, size_t msglen)
{
    size_t len = strlen(value);
    if (len >= size)
        return msgf(msg, msglen, "value is %zu characters long; expected at most %zu", len, size - 1);
    memcpy(dst, value, len + 1);
    return 0;
}

static bool is_identifier(const char *s)
{
    if (!isalpha((unsigned char)*s) && *s != '_')
        return false;
    for (s++; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return false;
    return true;
}

/* Names that end up in file names and CSV cells. */
static bool is_plain_name(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && !strchr("_.-", *s))
            return false;
    return true;
}

static int parse_int_range(const char *value, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(value, &end, 10);
    if (errno || end == value || *end || !(isdigit((unsigned char)*value) || *value == '-'))
        return -1;
    if (v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int parse_int(const char *value, int lo, int *out)
{
    long long v;
    if (parse_int_range(value, lo, INT_MAX, &v))
        return -1;
    *out = (int)v;
    return 0;
}

/* Digits only: strtoull alone would accept "-1" as 2^64 - 1. */
static int parse_u64(const char *value, unsigned long long *out)
{
    for (const char *s = value; *s; s++)
        if (!isdigit((unsigned char)*s))
            return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(value, &end, 10);
    if (errno || end == value || *end)
        return -1;
    *out = v;
    return 0;
}

/* A finite number; the caller checks its bounds. */
static int parse_number(const char *value, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(value, &end);
    if (errno || end == value || *end || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

static void dtype_names(char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (const struct mmb_dtype_info *d = mmb_dtype_table; d->text && n < len; d++) {
        int w = snprintf(buf + n, len - n, "%s%s", n ? ", " : "", d->text);
        n += w < 0 ? 0 : (size_t)w;
    }
}

static int parse_dtype_list(const char *value, unsigned *bits, char *msg, size_t msglen)
{
    char names[64];
    dtype_names(names, sizeof names);
    *bits = 0;
    for (const char *s = value;;) {
        const char *comma = strchr(s, ',');
        const char *e = comma ? comma : s + strlen(s);
        while (s < e && isspace((unsigned char)*s))
            s++;
        while (e > s && isspace((unsigned char)e[-1]))
            e--;
        char item[16];
        size_t len = (size_t)(e - s);
        enum mmb_dtype d;
        if (!len)
            return msgf(msg, msglen, "empty item in the dtype list; expected %s", names);
        if (len >= sizeof item)
            len = sizeof item - 1; /* long enough to be reported as unknown */
        memcpy(item, s, len);
        item[len] = '\0';
        if (!mmb_dtype_parse(item, &d))
            return msgf(msg, msglen, "unknown dtype '%.*s'; expected %s", (int)(e - s), s, names);
        if (*bits & (1u << d))
            return msgf(msg, msglen, "dtype %s is listed twice", item);
        *bits |= 1u << d;
        if (!comma)
            return 0;
        s = comma + 1;
    }
}

/* ---- [profile] ---- */

static int key_name(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    if (!is_plain_name(value))
        return msgf(msg, msglen, "expected a name of letters, digits, '_', '.' and '-', got '%s'", value);
    return copy_text(ld->p->name, sizeof ld->p->name, value, msg, msglen);
}

static int key_description(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    return copy_text(ld->p->description, sizeof ld->p->description, value, msg, msglen);
}

static int key_sizes(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    return mmb_sizes_parse(value, ld->p->sizes, MMB_MAX_SIZES, &ld->p->nsizes, msg, msglen);
}

static int key_profile_dtypes(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    return parse_dtype_list(value, &ld->p->dtypes, msg, msglen);
}

static int key_repeats(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    return parse_int(value, 1, &ld->p->repeats);
}

static int key_warmup(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    return parse_int(value, 0, &ld->p->warmup);
}

static int key_cache(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    return mmb_cache_parse(value, &ld->p->cache) ? 0 : -1;
}

static int key_metrics(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    return copy_text(ld->p->metrics, sizeof ld->p->metrics, value, msg, msglen);
}

static int key_seed(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    return parse_u64(value, &ld->p->seed);
}

static int key_tolerance(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    const char *name = key + strlen("tolerance.");
    enum mmb_dtype d;
    if (!mmb_dtype_parse(name, &d)) {
        char names[64];
        dtype_names(names, sizeof names);
        return msgf(msg, msglen, "unknown dtype '%s' in '%s'; expected tolerance.DTYPE with DTYPE one of %s",
                    name, key, names);
    }
    if (ld->tolerance_lines[d])
        return msgf(msg, msglen, "'%s' is already set at line %d", key, ld->tolerance_lines[d]);
    double v;
    if (parse_number(value, &v) || v < 0)
        return -1;
    ld->p->tolerance[d] = v;
    ld->tolerance_lines[d] = ld->line;
    return 0;
}

static const struct key_def profile_keys[] = {
    {"name", key_name, "a name such as 'course'", 0, NULL},
    {"description", key_description, "free text", 0, NULL},
    {"sizes", key_sizes, "sizes such as '256:8192:x2, 1024x4096x512, 1000'", 0, NULL},
    {"dtypes", key_profile_dtypes, "dtypes such as 'f32, f64'", 0, NULL},
    {"repeats", key_repeats, "an integer >= 1", 0, NULL},
    {"warmup", key_warmup, "an integer >= 0", 0, NULL},
    {"cache", key_cache, "'cold' or 'hot'", 0, NULL},
    {"metrics", key_metrics, "a metric set such as 'default'", 0, NULL},
    {"seed", key_seed, "an unsigned 64-bit integer", 0, NULL},
    {"tolerance.", key_tolerance, "a number >= 0 such as 1e-4", KEY_PREFIX, "tolerance.DTYPE"},
    {NULL, NULL, NULL, 0, NULL},
};

static int begin_profile(struct loader *ld, const char *name)
{
    if (ld->profile_line)
        return fail(ld, ld->line, "[profile] appears twice (first at line %d); expected one", ld->profile_line);
    ld->profile_line = ld->line;
    return 0;
}

/* ---- [kernel NAME] ---- */

static const struct {
    const char *name;
    enum mmb_kernel_kind kind;
} libraries[] = {
    {"cublas", MMB_KERNEL_CUBLAS},
};

/* Names a parameter cannot take: the size variables, the element type macro and
 * the words of expressions. */
static const char *const reserved[] = {"M", "N", "K", "elem_size", "elem_t",
                                       "and", "or", "not", "min", "max", "ceil_div"};

static int key_source(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    char *dst = ld->kernel->source;
    const char *slash = strrchr(ld->path, '/');
    int dirlen = value[0] == '/' || !slash ? 0 : (int)(slash - ld->path + 1);
    int w = snprintf(dst, MMB_PATH_MAX, "%.*s%s", dirlen, ld->path, value);
    if (w < 0 || w >= MMB_PATH_MAX)
        return msgf(msg, msglen, "source path is too long (at most %d characters)", MMB_PATH_MAX - 1);
    struct stat st;
    if (stat(dst, &st) != 0)
        return msgf(msg, msglen, "source '%s' cannot be read (looked for %s): %s", value, dst, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return msgf(msg, msglen, "source '%s' is not a file (looked for %s)", value, dst);
    return 0;
}

static int key_function(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    if (!is_identifier(value))
        return msgf(msg, msglen, "expected a C function name, got '%s'", value);
    return copy_text(ld->kernel->function, sizeof ld->kernel->function, value, msg, msglen);
}

static int key_library(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    for (size_t i = 0; i < sizeof libraries / sizeof libraries[0]; i++) {
        if (!strcmp(value, libraries[i].name)) {
            ld->kernel->kind = libraries[i].kind;
            return 0;
        }
    }
    return -1;
}

static int key_kernel_dtypes(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    return parse_dtype_list(value, &ld->kernel->dtypes, msg, msglen);
}

static int key_param(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    struct mmb_kernel_spec *k = ld->kernel;
    const char *name = key + strlen("param.");
    if (!is_identifier(name))
        return msgf(msg, msglen, "parameter name '%s' is not a C identifier; expected param.NAME", name);
    for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
        if (!strcmp(name, reserved[i]))
            return msgf(msg, msglen, "parameter name '%s' is reserved (M, N, K, elem_size, elem_t and the "
                        "words of expressions are)", name);
    for (int i = 0; i < k->nparams; i++)
        if (!strcmp(k->params[i].name, name))
            return msgf(msg, msglen, "parameter '%s' is already defined at line %d", name, k->params[i].line);
    if (k->nparams == MMB_MAX_PARAMS)
        return msgf(msg, msglen, "more than %d parameters", MMB_MAX_PARAMS);
    struct mmb_param *p = &k->params[k->nparams];
    if (copy_text(p->name, sizeof p->name, name, msg, msglen))
        return -1;
    char vmsg[192];
    if (mmb_values_parse(value, p->values, MMB_MAX_VALUES, &p->nvalues, vmsg, sizeof vmsg))
        return msgf(msg, msglen, "parameter '%s': %s", name, vmsg);
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
        return msgf(msg, msglen, "bad expression for '%s': %s", key, eerr);
    *out = e;
    return 0;
}

static int key_restrict(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    struct mmb_kernel_spec *k = ld->kernel;
    if (k->nrestrictions == MMB_MAX_RESTRICTIONS)
        return msgf(msg, msglen, "more than %d restrictions", MMB_MAX_RESTRICTIONS);
    struct mmb_restriction *r = &k->restrictions[k->nrestrictions];
    if (parse_expr(ld, key, value, &r->expr, msg, msglen))
        return -1;
    r->line = ld->line;
    k->nrestrictions++;
    return 0;
}

/* The geometry keys, in the same order as geometry_slot(). */
static const char *const geometry_keys[] = {"block_x", "block_y", "block_z", "grid_div_x", "grid_div_y", "smem"};

static struct mmb_expr **geometry_slot(struct mmb_kernel_spec *k, int i)
{
    struct mmb_expr **slots[] = {&k->block_x, &k->block_y, &k->block_z, &k->grid_div_x, &k->grid_div_y, &k->smem};
    return slots[i];
}

static int key_geometry(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    for (int i = 0; i < (int)(sizeof geometry_keys / sizeof geometry_keys[0]); i++)
        if (!strcmp(key, geometry_keys[i]))
            return parse_expr(ld, key, value, geometry_slot(ld->kernel, i), msg, msglen);
    return msgf(msg, msglen, "internal error: '%s' is not a geometry key", key);
}

static int key_nvrtc_options(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    return copy_text(ld->kernel->nvrtc_options, sizeof ld->kernel->nvrtc_options, value, msg, msglen);
}

#define EXPR_VALUE "an expression over the parameters, M, N, K and elem_size"

static const struct key_def kernel_keys[] = {
    {"source", key_source, "a .cu file, relative to the profile's folder", KEY_SOURCE_ONLY, NULL},
    {"function", key_function, "the kernel's extern \"C\" function name", KEY_SOURCE_ONLY, NULL},
    {"library", key_library, "'cublas'", 0, NULL},
    {"dtypes", key_kernel_dtypes, "dtypes such as 'f32, f64'", 0, NULL},
    {"param.", key_param, "values such as '16, 32, 64' or '1:32:x2'", KEY_PREFIX | KEY_SOURCE_ONLY, "param.NAME"},
    {"restrict", key_restrict, "a condition such as 'block_size_x * block_size_y <= 1024'",
     KEY_REPEAT | KEY_SOURCE_ONLY, NULL},
    {"block_x", key_geometry, EXPR_VALUE, KEY_SOURCE_ONLY, NULL},
    {"block_y", key_geometry, EXPR_VALUE, KEY_SOURCE_ONLY, NULL},
    {"block_z", key_geometry, EXPR_VALUE, KEY_SOURCE_ONLY, NULL},
    {"grid_div_x", key_geometry, EXPR_VALUE, KEY_SOURCE_ONLY, NULL},
    {"grid_div_y", key_geometry, EXPR_VALUE, KEY_SOURCE_ONLY, NULL},
    {"smem", key_geometry, EXPR_VALUE, KEY_SOURCE_ONLY, NULL},
    {"nvrtc_options", key_nvrtc_options, "NVRTC options such as '-lineinfo'", KEY_SOURCE_ONLY, NULL},
    {NULL, NULL, NULL, 0, NULL},
};

static int begin_kernel(struct loader *ld, const char *name)
{
    struct mmb_profile *p = ld->p;
    if (!is_plain_name(name))
        return fail(ld, ld->line, "kernel name '%s' must be letters, digits, '_', '.' and '-'", name);
    if (strlen(name) >= sizeof p->kernels[0].name)
        return fail(ld, ld->line, "kernel name '%s' is too long; expected at most %zu characters", name,
                    sizeof p->kernels[0].name - 1);
    for (int i = 0; i < p->nkernels; i++)
        if (!strcmp(p->kernels[i].name, name))
            return fail(ld, ld->line, "kernel '%s' is already defined at line %d", name, p->kernels[i].line);
    if (p->nkernels == MMB_MAX_KERNELS)
        return fail(ld, ld->line, "more than %d kernels", MMB_MAX_KERNELS);
    struct mmb_kernel_spec *k = &p->kernels[p->nkernels++];
    strcpy(k->name, name);
    k->line = ld->line;
    k->kind = MMB_KERNEL_SOURCE;
    ld->kernel = k;
    return 0;
}

static int key_index(const struct key_def *keys, const char *key)
{
    for (int i = 0; keys[i].key; i++)
        if (!strcmp(keys[i].key, key))
            return i;
    return -1;
}

struct name_check {
    const struct mmb_kernel_spec *kernel;
    const char *bad;
    size_t len, column;
};

static bool kernel_knows(const struct mmb_kernel_spec *k, const char *name, size_t len)
{
    static const char *const sizes[] = {"M", "N", "K", "elem_size"};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
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
    if (kernel_knows(c->kernel, name, len))
        return 0;
    c->bad = name;
    c->len = len;
    c->column = column;
    return 1;
}

static int check_expr_names(struct loader *ld, const struct mmb_expr *e, const char *key, int line)
{
    const struct mmb_kernel_spec *k = ld->kernel;
    struct name_check c = {.kernel = k};
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
    return fail(ld, line, "unknown name '%.*s' at column %zu of '%s'; expected one of %sM, N, K, elem_size%s",
                (int)c.len, c.bad, c.column, key, params, caret);
}

static int default_expr(struct loader *ld, struct mmb_expr **slot, const char *text)
{
    char eerr[256];
    *slot = mmb_expr_parse(text, eerr, sizeof eerr);
    if (!*slot)
        return fail(ld, ld->kernel->line, "default expression '%s': %s", text, eerr);
    return 0;
}

static int end_kernel(struct loader *ld)
{
    struct mmb_kernel_spec *k = ld->kernel;
    int lib_line = ld->key_lines[key_index(kernel_keys, "library")];
    if (k->kind != MMB_KERNEL_SOURCE) {
        for (int i = 0; kernel_keys[i].key; i++) {
            const struct key_def *d = &kernel_keys[i];
            if ((d->flags & KEY_SOURCE_ONLY) && ld->key_lines[i])
                return fail(ld, ld->key_lines[i], "kernel '%s' is a library kernel (library at line %d); "
                            "expected no '%s'", k->name, lib_line, d->shown ? d->shown : d->key);
        }
    } else {
        if (!k->source[0])
            return fail(ld, k->line, "kernel '%s' has no 'source'; expected source = FILE.cu "
                        "(or library = cublas)", k->name);
        if (!k->function[0])
            return fail(ld, k->line, "kernel '%s' has no 'function'; expected function = NAME", k->name);
    }
    for (int i = 0; i < k->nrestrictions; i++)
        if (check_expr_names(ld, k->restrictions[i].expr, "restrict", k->restrictions[i].line))
            return -1;
    for (int i = 0; i < (int)(sizeof geometry_keys / sizeof geometry_keys[0]); i++) {
        struct mmb_expr *e = *geometry_slot(k, i);
        if (e && check_expr_names(ld, e, geometry_keys[i], ld->key_lines[key_index(kernel_keys, geometry_keys[i])]))
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
    size_t configs = 1;
    for (int i = 0; i < k->nparams; i++)
        if (__builtin_mul_overflow(configs, (size_t)k->params[i].nvalues, &configs))
            return fail(ld, k->params[i].line, "kernel '%s' has too many configurations to count", k->name);
    ld->kernel = NULL;
    return 0;
}

/* ---- [tune] ---- */

/* Strategy and objective are text here: search/tune_spec.c checks them. */
static int key_strategy(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    ld->p->tune.strategy_line = ld->line;
    return copy_text(ld->p->tune.strategy, sizeof ld->p->tune.strategy, value, msg, msglen);
}

static int key_objective(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    ld->p->tune.objective_line = ld->line;
    return copy_text(ld->p->tune.objective, sizeof ld->p->tune.objective, value, msg, msglen);
}

static int key_max_fevals(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    return parse_int_range(value, 1, LLONG_MAX, &ld->p->tune.max_fevals);
}

static int key_time_limit(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    double v;
    if (parse_number(value, &v) || v <= 0)
        return -1;
    ld->p->tune.time_limit = v;
    return 0;
}

static int key_tune_seed(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    return parse_u64(value, &ld->p->tune.seed);
}

/* Names only here: whether they are source kernels is checked once all are read. */
static int key_tune_kernels(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    struct mmb_tune_spec *t = &ld->p->tune;
    for (const char *s = value;;) {
        const char *comma = strchr(s, ',');
        const char *e = comma ? comma : s + strlen(s);
        while (s < e && isspace((unsigned char)*s))
            s++;
        while (e > s && isspace((unsigned char)e[-1]))
            e--;
        size_t len = (size_t)(e - s);
        if (!len)
            return msgf(msg, msglen, "empty item in the kernel list '%s'", value);
        if (len >= sizeof t->kernels[0])
            return msgf(msg, msglen, "kernel name '%.*s' is too long", (int)len, s);
        for (int i = 0; i < t->nkernels; i++)
            if (strlen(t->kernels[i]) == len && !memcmp(t->kernels[i], s, len))
                return msgf(msg, msglen, "kernel '%.*s' is listed twice", (int)len, s);
        if (t->nkernels == MMB_MAX_KERNELS)
            return msgf(msg, msglen, "more than %d kernels", MMB_MAX_KERNELS);
        memcpy(t->kernels[t->nkernels], s, len);
        t->kernels[t->nkernels++][len] = '\0';
        if (!comma)
            break;
        s = comma + 1;
    }
    t->kernels_line = ld->line;
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

static const struct key_def tune_keys[] = {
    {"strategy", key_strategy, "a strategy such as 'brute_force' or 'annealing'", 0, NULL},
    {"objective", key_objective, "'time', 'gflops' or a numeric column, optionally with ':min' or ':max'", 0, NULL},
    {"max_fevals", key_max_fevals, "an integer >= 1", 0, NULL},
    {"time_limit", key_time_limit, "seconds, a number > 0", 0, NULL},
    {"seed", key_tune_seed, "an unsigned 64-bit integer", 0, NULL},
    {"kernels", key_tune_kernels, "kernel names such as 'tunable, naive'", 0, NULL},
    {"sizes", key_tune_sizes, "sizes such as '4096, 1024x4096x512'", 0, NULL},
    {"record_restricted", key_record_restricted, "'yes' or 'no'", 0, NULL},
    {NULL, NULL, NULL, 0, NULL},
};

static int begin_tune(struct loader *ld, const char *name)
{
    if (ld->p->tune.line)
        return fail(ld, ld->line, "[tune] appears twice (first at line %d); expected one", ld->p->tune.line);
    ld->p->tune.line = ld->line;
    return 0;
}

/* Runs once every kernel is known: [tune] may come before the kernels it names. */
static int check_tune_kernels(struct loader *ld)
{
    const struct mmb_tune_spec *t = &ld->p->tune;
    for (int i = 0; i < t->nkernels; i++) {
        const struct mmb_kernel_spec *k = NULL;
        for (int j = 0; j < ld->p->nkernels && !k; j++)
            if (!strcmp(ld->p->kernels[j].name, t->kernels[i]))
                k = &ld->p->kernels[j];
        if (!k)
            return fail(ld, t->kernels_line, "[tune] names kernel '%s', which no [kernel NAME] section defines",
                        t->kernels[i]);
        if (k->kind != MMB_KERNEL_SOURCE)
            return fail(ld, t->kernels_line, "[tune] names kernel '%s', a library kernel (line %d); expected "
                        "source kernels (the library is measured at every tuned size anyway)", k->name, k->line);
    }
    return 0;
}

/* ---- dispatch ---- */

static const struct section_def sections[] = {
    {"profile", "[profile]", false, begin_profile, NULL, profile_keys},
    {"kernel", "[kernel NAME]", true, begin_kernel, end_kernel, kernel_keys},
    {"tune", "[tune]", false, begin_tune, NULL, tune_keys},
    {NULL, NULL, false, NULL, NULL, NULL},
};

static int end_section(struct loader *ld)
{
    const struct section_def *s = ld->section;
    ld->section = NULL;
    return s && s->end ? s->end(ld) : 0;
}

static void list_sections(char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; sections[i].prefix && n < len; i++) {
        int w = snprintf(buf + n, len - n, "%s%s", i ? " or " : "", sections[i].shown);
        n += w < 0 ? 0 : (size_t)w;
    }
}

/* s is a trimmed line that starts with '['. */
static int begin_section(struct loader *ld, char *s)
{
    char *close = strchr(s, ']');
    if (!close)
        return fail(ld, ld->line, "expected ']' closing the section header");
    if (close[1])
        return fail(ld, ld->line, "unexpected text after ']' of the section header");
    if (end_section(ld))
        return -1;
    *close = '\0';
    char *name = s + 1;
    while (isspace((unsigned char)*name))
        name++;
    for (char *e = close; e > name && isspace((unsigned char)e[-1]);)
        *--e = '\0';
    snprintf(ld->section_text, sizeof ld->section_text, "[%s]", name);
    ld->section_line = ld->line;
    memset(ld->key_lines, 0, sizeof ld->key_lines);
    for (int i = 0; sections[i].prefix; i++) {
        const struct section_def *d = &sections[i];
        size_t plen = strlen(d->prefix);
        if (strncmp(name, d->prefix, plen))
            continue;
        const char *rest = name + plen;
        if (!d->named && !*rest) {
            ld->section = d;
            return d->begin(ld, rest);
        }
        if (d->named && !*rest)
            return fail(ld, ld->line, "expected a name: %s", d->shown);
        if (d->named && isspace((unsigned char)*rest)) {
            while (isspace((unsigned char)*rest))
                rest++;
            ld->section = d;
            return d->begin(ld, rest);
        }
    }
    char list[128];
    list_sections(list, sizeof list);
    return fail(ld, ld->line, "unknown section [%s]; expected %s", name, list);
}

static void list_keys(const struct key_def *keys, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; keys[i].key && n < len; i++) {
        int w = snprintf(buf + n, len - n, "%s%s", i ? ", " : "", keys[i].shown ? keys[i].shown : keys[i].key);
        n += w < 0 ? 0 : (size_t)w;
    }
}

static int on_key(void *user, const char *section, const char *key, const char *value)
{
    struct loader *ld = user;
    if (ld->failed)
        return 0;
    if (!*key)
        return !fail(ld, ld->line, "expected a key name before '='");
    if (!ld->section) {
        char list[128];
        list_sections(list, sizeof list);
        return !fail(ld, ld->line, "key '%s' outside any section; expected %s first", key, list);
    }
    const struct key_def *keys = ld->section->keys;
    int i = 0;
    for (; keys[i].key; i++) {
        size_t klen = strlen(keys[i].key);
        if ((keys[i].flags & KEY_PREFIX) ? !strncmp(key, keys[i].key, klen) && key[klen] : !strcmp(key, keys[i].key))
            break;
    }
    const struct key_def *d = &keys[i];
    if (!d->key) {
        char list[512];
        list_keys(keys, list, sizeof list);
        return !fail(ld, ld->line, "unknown key '%s' in %s; expected one of %s", key, ld->section_text, list);
    }
    if (!*value)
        return !fail(ld, ld->line, "'%s' has no value; expected %s", key, d->expect);
    if (ld->key_lines[i] && !(d->flags & (KEY_PREFIX | KEY_REPEAT)))
        return !fail(ld, ld->line, "'%s' is already set at line %d; expected it once per section", key,
                     ld->key_lines[i]);
    if (!ld->key_lines[i])
        ld->key_lines[i] = ld->line;
    char msg[768] = "";
    if (d->parse(ld, key, value, msg, sizeof msg)) {
        if (msg[0])
            return !fail(ld, ld->line, "%s", msg);
        return !fail(ld, ld->line, "bad value '%s' for '%s'; expected %s", value, key, d->expect);
    }
    return 1;
}

/* Strips comments: ';' or '#' starting the line, ';' after a blank elsewhere (as
 * libinih does), then surrounding blanks. */
static char *clean_line(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    if (*s == ';' || *s == '#') {
        *s = '\0';
        return s;
    }
    for (char *c = s + 1; *c; c++) {
        if (*c == ';' && isspace((unsigned char)c[-1])) {
            *c = '\0';
            break;
        }
    }
    for (char *e = s + strlen(s); e > s && isspace((unsigned char)e[-1]);)
        *--e = '\0';
    return s;
}

static char *read_line(char *str, int num, void *stream)
{
    struct loader *ld = stream;
    if (ld->failed)
        return NULL;
    errno = 0;
    ssize_t n = getline(&ld->buf, &ld->cap, ld->f);
    if (n < 0) {
        if (ferror(ld->f))
            fail(ld, ld->line + 1, "read error: %s", strerror(errno ? errno : EIO));
        return NULL;
    }
    ld->line++;
    char *s = ld->buf;
    if ((size_t)n != strlen(s)) {
        fail(ld, ld->line, "NUL byte in the line; expected text");
        return NULL;
    }
    if (ld->line == 1 && !memcmp(s, "\xEF\xBB\xBF", 3))
        s += 3;
    s = clean_line(s);
    if (*s == '[') {
        begin_section(ld, s);
        s[0] = '\0'; /* libinih sees an empty line: the section is ours */
    } else if (*s) {
        const char *eq = strchr(s, '=');
        const char *colon = strchr(s, ':');
        if (!eq) {
            fail(ld, ld->line, "expected 'key = value', '[section]' or a comment");
            return NULL;
        }
        if (colon && colon < eq) { /* libinih would split at ':' */
            fail(ld, ld->line, "':' in the key; expected 'key = value'");
            return NULL;
        }
    }
    if (ld->failed)
        return NULL;
    size_t len = strlen(s);
    if (len + 1 > (size_t)num) {
        fail(ld, ld->line, "line is %zu characters long without comments; expected at most %d", len, num - 1);
        return NULL;
    }
    memcpy(str, s, len + 1);
    return str;
}

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
        return fail(ld, ld->profile_line ? ld->profile_line : 1,
                    "file name too long for a profile name; expected 'name = ...' in [profile]");
    memcpy(p->name, base, len);
    p->name[len] = '\0';
    if (!is_plain_name(p->name))
        return fail(ld, ld->profile_line ? ld->profile_line : 1,
                    "file name '%s' is not a profile name (letters, digits, '_', '.', '-'); expected 'name = ...'",
                    p->name);
    return 0;
}

static int finish(struct loader *ld)
{
    struct mmb_profile *p = ld->p;
    if (!ld->profile_line)
        return fail(ld, 1, "no [profile] section; expected one with at least 'sizes = ...'");
    if (!p->nsizes)
        return fail(ld, ld->profile_line, "[profile] has no 'sizes'; expected e.g. 'sizes = 256:8192:x2, 1000'");
    if (!p->nkernels)
        return fail(ld, ld->line ? ld->line : 1, "no kernel; expected at least one [kernel NAME] section");
    if (check_tune_kernels(ld))
        return -1;
    return set_default_name(ld);
}

static void set_defaults(struct mmb_profile *p)
{
    p->dtypes = 1u << MMB_F32;
    p->repeats = 20;
    p->warmup = 2;
    p->cache = MMB_CACHE_COLD;
    strcpy(p->metrics, "default");
    p->seed = 1;
    strcpy(p->tune.strategy, "brute_force");
    strcpy(p->tune.objective, "time");
    p->tune.seed = 1;
    for (const struct mmb_dtype_info *d = mmb_dtype_table; d->text; d++)
        p->tolerance[d->value] = d->default_tolerance;
}

int mmb_profile_load(const char *path, struct mmb_profile *profile, char *err, size_t errlen)
{
    memset(profile, 0, sizeof *profile);
    set_defaults(profile);
    struct loader ld = {.p = profile, .path = path, .err = err, .errlen = errlen};
    if (err && errlen)
        err[0] = '\0';
    if (strlen(path) >= sizeof profile->path) {
        if (err && errlen)
            snprintf(err, errlen, "%s: path too long (at most %zu characters)", path, sizeof profile->path - 1);
        return -1;
    }
    strcpy(profile->path, path);
    ld.f = fopen(path, "r");
    if (!ld.f) {
        if (err && errlen)
            snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    int rc = ini_parse_stream(read_line, &ld, on_key, &ld);
    if (!ld.failed && rc > 0)
        fail(&ld, rc, "expected 'key = value', '[section]' or a comment");
    else if (!ld.failed && rc < 0)
        fail(&ld, ld.line, "libinih failed (%d)", rc);
    if (!ld.failed)
        end_section(&ld);
    if (!ld.failed)
        finish(&ld);
    free(ld.buf);
    if (fclose(ld.f) != 0 && !ld.failed)
        fail(&ld, ld.line, "close: %s", strerror(errno));
    if (ld.failed) {
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
        for (int j = 0; j < (int)(sizeof geometry_keys / sizeof geometry_keys[0]); j++) {
            struct mmb_expr **slot = geometry_slot(k, j);
            mmb_expr_free(*slot);
            *slot = NULL;
        }
    }
    profile->nkernels = 0;
}
