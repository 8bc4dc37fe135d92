/* sizes.c - the comma-separated lists of profiles: matrix sizes ("256:8192:x2,
 * 1024x4096x512, 1000") and parameter values ("16, 32, 1:32:x2"). Both share one
 * range syntax, so it is parsed in one place. */
#include "model/sizes.h"

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"

/* Kernels index with int, so a dimension beyond INT_MAX could never run. */
#define MAX_DIM INT_MAX

typedef int (*emit_fn)(void *ctx, long long value, char *err, size_t errlen);

/* Strict decimal: optional '-', digits, nothing else (strtoll would accept
 * "12abc", " 12" and "0x10"). */
static bool parse_ll(const char *s, size_t len, long long *out)
{
    size_t i = 0;
    bool neg = len > 0 && s[0] == '-';
    if (neg)
        i++;
    if (i == len)
        return false;
    long long v = 0;
    for (; i < len; i++) {
        if (!isdigit((unsigned char)s[i]))
            return false;
        int d = s[i] - '0';
        /* Accumulate negatively so LLONG_MIN parses too. */
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_sub_overflow(v, d, &v))
            return false;
    }
    if (!neg && __builtin_sub_overflow(0LL, v, &v))
        return false;
    *out = v;
    return true;
}

/* One item: an integer or a range a:b:xF / a:b:+S, inclusive of b when reached. */
static int parse_item(const char *s, size_t len, emit_fn emit, void *ctx, char *err, size_t errlen)
{
    const char *c1 = memchr(s, ':', len);
    if (!c1) {
        long long v;
        if (!parse_ll(s, len, &v))
            return mmb_failf(err, errlen, "expected an integer or a range a:b:xF or a:b:+S, got '%.*s'",
                        (int)len, s);
        return emit(ctx, v, err, errlen);
    }
    const char *c2 = memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - s));
    if (!c2)
        return mmb_failf(err, errlen, "range '%.*s' has no step; expected a:b:xF (multiply) or a:b:+S (add)",
                    (int)len, s);
    long long a, b, step;
    const char *st = c2 + 1;
    size_t stlen = len - (size_t)(st - s);
    if (!parse_ll(s, (size_t)(c1 - s), &a) || !parse_ll(c1 + 1, (size_t)(c2 - c1 - 1), &b))
        return mmb_failf(err, errlen, "range '%.*s': expected integers a:b before the step", (int)len, s);
    bool mul = stlen > 0 && st[0] == 'x';
    bool add = stlen > 0 && st[0] == '+';
    if ((!mul && !add) || !parse_ll(st + 1, stlen - 1, &step))
        return mmb_failf(err, errlen, "range '%.*s': expected the step as xF (multiply) or +S (add), got '%.*s'",
                    (int)len, s, (int)stlen, st);
    if (a > b)
        return mmb_failf(err, errlen, "range '%.*s' ends before it starts", (int)len, s);
    if (mul && step < 2)
        return mmb_failf(err, errlen, "range '%.*s': a multiplying step must be x2 or more", (int)len, s);
    if (mul && a < 1)
        return mmb_failf(err, errlen, "range '%.*s': a multiplying range must start at 1 or more", (int)len, s);
    if (add && step < 1)
        return mmb_failf(err, errlen, "range '%.*s': an adding step must be +1 or more", (int)len, s);
    for (long long v = a; v <= b;) {
        if (emit(ctx, v, err, errlen))
            return -1;
        if (mul ? __builtin_mul_overflow(v, step, &v) : __builtin_add_overflow(v, step, &v))
            break;
    }
    return 0;
}

/* Calls item() for every comma-separated item, trimmed; empty items are errors. */
static int each_item(const char *text, int (*item)(void *ctx, const char *s, size_t len, char *err, size_t errlen),
                     void *ctx, char *err, size_t errlen)
{
    for (const char *s = text;;) {
        const char *comma = strchr(s, ',');
        const char *e = comma ? comma : s + strlen(s);
        const char *b = s;
        while (b < e && isspace((unsigned char)*b))
            b++;
        while (e > b && isspace((unsigned char)e[-1]))
            e--;
        if (b == e)
            return mmb_failf(err, errlen, "empty item in the list '%s'", text);
        if (item(ctx, b, (size_t)(e - b), err, errlen))
            return -1;
        if (!comma)
            return 0;
        s = comma + 1;
    }
}

struct size_list {
    struct mmb_size *sizes;
    int max, count;
};

static int add_size(struct size_list *l, long long m, long long n, long long k, char *err, size_t errlen)
{
    for (int i = 0; i < l->count; i++) {
        const struct mmb_size *o = &l->sizes[i];
        if (o->m == m && o->n == n && o->k == k)
            return mmb_failf(err, errlen, "size %lldx%lldx%lld is listed twice", m, n, k);
    }
    if (l->count == l->max)
        return mmb_failf(err, errlen, "more than %d sizes", l->max);
    l->sizes[l->count++] = (struct mmb_size){m, n, k};
    return 0;
}

static bool dim_ok(long long v)
{
    return v >= 1 && v <= MAX_DIM;
}

static int emit_square(void *ctx, long long v, char *err, size_t errlen)
{
    if (!dim_ok(v))
        return mmb_failf(err, errlen, "size %lld is out of range; expected 1 to %d", v, MAX_DIM);
    return add_size(ctx, v, v, v, err, errlen);
}

static int size_item(void *ctx, const char *s, size_t len, char *err, size_t errlen)
{
    if (memchr(s, ':', len))
        return parse_item(s, len, emit_square, ctx, err, errlen);
    const char *x1 = memchr(s, 'x', len);
    if (!x1) {
        long long v;
        if (!parse_ll(s, len, &v))
            return mmb_failf(err, errlen, "expected a size: N, MxNxK, a:b:xF or a:b:+S, got '%.*s'", (int)len, s);
        return emit_square(ctx, v, err, errlen);
    }
    const char *x2 = memchr(x1 + 1, 'x', len - (size_t)(x1 + 1 - s));
    long long d[3];
    if (!x2 || !parse_ll(s, (size_t)(x1 - s), &d[0]) || !parse_ll(x1 + 1, (size_t)(x2 - x1 - 1), &d[1]) ||
        !parse_ll(x2 + 1, len - (size_t)(x2 + 1 - s), &d[2]))
        return mmb_failf(err, errlen, "expected a shape MxNxK (three integers), got '%.*s'", (int)len, s);
    for (int i = 0; i < 3; i++)
        if (!dim_ok(d[i]))
            return mmb_failf(err, errlen, "%c = %lld in '%.*s' is out of range; expected 1 to %d", "MNK"[i], d[i],
                        (int)len, s, MAX_DIM);
    return add_size(ctx, d[0], d[1], d[2], err, errlen);
}

int mmb_sizes_parse(const char *text, struct mmb_size *sizes, int max, int *count, char *err, size_t errlen)
{
    struct size_list l = {.sizes = sizes, .max = max};
    *count = 0;
    if (each_item(text, size_item, &l, err, errlen))
        return -1;
    *count = l.count;
    return 0;
}

struct value_list {
    long long *values;
    int max, count;
};

static int emit_value(void *ctx, long long v, char *err, size_t errlen)
{
    struct value_list *l = ctx;
    for (int i = 0; i < l->count; i++)
        if (l->values[i] == v)
            return mmb_failf(err, errlen, "value %lld is listed twice", v);
    if (l->count == l->max)
        return mmb_failf(err, errlen, "more than %d values", l->max);
    l->values[l->count++] = v;
    return 0;
}

static int value_item(void *ctx, const char *s, size_t len, char *err, size_t errlen)
{
    return parse_item(s, len, emit_value, ctx, err, errlen);
}

int mmb_values_parse(const char *text, long long *values, int max, int *count, char *err, size_t errlen)
{
    struct value_list l = {.values = values, .max = max};
    *count = 0;
    if (each_item(text, value_item, &l, err, errlen))
        return -1;
    *count = l.count;
    return 0;
}
