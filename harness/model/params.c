/* params.c - a configuration's parameters as text, written and read in one place
 * (params.h): name=value pairs joined by ';', values decimal integers. */
#include "model/params.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An optional '-' then digits, the whole span, in the range of long long. */
static bool integer_parse(const char *s, size_t len, long long *out)
{
    char tmp[32];
    size_t digits = len - (len && s[0] == '-');
    if (digits == 0 || len >= sizeof tmp)
        return false;
    for (size_t i = len - digits; i < len; i++)
        if (!isdigit((unsigned char)s[i]))
            return false;
    memcpy(tmp, s, len);
    tmp[len] = '\0';
    errno = 0;
    long long v = strtoll(tmp, NULL, 10);
    if (errno)
        return false;
    *out = v;
    return true;
}

int mmb_params_next(const char **cursor, struct mmb_params_item *item)
{
    const char *s = *cursor;
    if (!*s)
        return 0;
    size_t len = strcspn(s, ";");
    const char *eq = memchr(s, '=', len);
    if (!eq || eq == s)
        return -1;
    item->name = s;
    item->name_len = (size_t)(eq - s);
    item->value_text = eq + 1;
    item->value_len = len - item->name_len - 1;
    if (!integer_parse(item->value_text, item->value_len, &item->value))
        return -1;
    if (s[len] == ';' && !s[len + 1])
        return -1; /* a trailing ';' */
    *cursor = s + len + (s[len] == ';');
    return 1;
}

void mmb_params_append(char *out, size_t len, size_t *used, const char *name, long long value)
{
    if (!len || *used >= len - 1)
        return;
    int w = snprintf(out + *used, len - *used, "%s%s=%lld", *used ? ";" : "", name, value);
    if (w > 0)
        *used += (size_t)w < len - *used ? (size_t)w : len - *used - 1;
}
