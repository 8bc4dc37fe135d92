/* error.c - error texts into the caller's buffer. */
#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void mmb_error_set(char *err, size_t errlen, const char *file, int line, const char *call,
                   const char *name, const char *text)
{
    const char *base = strrchr(file, '/');
    mmb_errorf(err, errlen, "%s:%d: %s: %s: %s", base ? base + 1 : file, line, call,
               name ? name : "?", text ? text : "?");
}

void mmb_errorf(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

int mmb_failf(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

void mmb_join_append(char *buf, size_t len, const char *sep, const char *name)
{
    if (!len)
        return;
    size_t n = strnlen(buf, len);
    if (n + 1 >= len)
        return; /* already full: snprintf would only rewrite the terminator */
    snprintf(buf + n, len - n, "%s%s", n ? sep : "", name);
}
