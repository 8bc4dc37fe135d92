/* fuzz_expr.c - libFuzzer target: restriction expressions, parsed, their names
 * walked, evaluated with every name bound to values taken from the input (so that
 * overflow, division by zero and shifts are reached), and the caret message drawn. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/expr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct values {
    long long v[4];
};

static bool lookup(void *ctx, const char *name, size_t len, long long *value)
{
    const struct values *vs = ctx;
    if (len == 1 && name[0] == 'u')
        return false; /* one unknown name */
    *value = vs->v[(unsigned char)name[0] % 4];
    return true;
}

static int count_name(void *ctx, const char *name, size_t len, size_t column)
{
    (*(size_t *)ctx)++;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct values vs = {{0, 1, -1, 0}};
    if (size >= sizeof vs.v) {
        memcpy(vs.v, data, sizeof vs.v);
        data += sizeof vs.v;
        size -= sizeof vs.v;
    }
    char *text = malloc(size + 1);
    if (!text)
        abort();
    memcpy(text, data, size);
    text[size] = '\0';
    char err[512];
    struct mmb_expr *e = mmb_expr_parse(text, err, sizeof err);
    if (e) {
        size_t names = 0;
        mmb_expr_each_name(e, count_name, &names);
        long long out;
        mmb_expr_eval(e, lookup, &vs, &out, err, sizeof err);
        (void)mmb_expr_text(e);
        mmb_expr_free(e);
    }
    char caret[256];
    mmb_expr_format_caret(text, size / 2, caret, sizeof caret);
    free(text);
    return 0;
}
