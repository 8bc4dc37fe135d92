/* shape.c - a matrix shape M x N x K as the report writes it ("4096" for a cube,
 * else "4096x2048x1024") and reads it back (--size). */
#include "report/input/shape.h"

#include <stdio.h>
#include <string.h>

void mmb_report_shape_label(const struct mmb_report_shape *s, char *out, size_t len)
{
    if (s->m == s->n && s->n == s->k)
        snprintf(out, len, "%lld", s->m);
    else
        snprintf(out, len, "%lldx%lldx%lld", s->m, s->n, s->k);
}

bool mmb_report_shape_parse(const char *text, struct mmb_report_shape *out)
{
    char low[96];
    size_t n = strlen(text);
    if (n == 0 || n >= sizeof low || strspn(text, "0123456789xX") != n)
        return false;
    for (size_t i = 0; i <= n; i++)
        low[i] = text[i] == 'X' ? 'x' : text[i];
    long long m, nn, k;
    char tail;
    if (sscanf(low, "%lldx%lldx%lld%c", &m, &nn, &k, &tail) == 3 && m > 0 && nn > 0 && k > 0)
        *out = (struct mmb_report_shape){m, nn, k};
    else if (!strchr(low, 'x') && sscanf(low, "%lld%c", &m, &tail) == 1 && m > 0)
        *out = (struct mmb_report_shape){m, m, m};
    else
        return false;
    return true;
}
