/* error.h - error texts: every function that can fail takes (char *err, size_t
 * errlen) and writes what went wrong there, never past its end. */
#ifndef MMB_CORE_ERROR_H
#define MMB_CORE_ERROR_H

#include <stddef.h>

/* snprintf into err, never overflowing, always terminated. */
void mmb_errorf(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* mmb_errorf, then returns -1: `return mmb_failf(err, errlen, "...", ...);` */
int mmb_failf(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* "file:line: call: NAME: library's text", for the checking macros of errcheck.h. */
void mmb_error_set(char *err, size_t errlen, const char *file, int line, const char *call,
                   const char *name, const char *text);

/* Appends name to the list in buf (which starts as ""), with sep before every name
 * but the first; cut at len as snprintf cuts. Builds "expected one of a, b, c". */
void mmb_join_append(char *buf, size_t len, const char *sep, const char *name);

#endif
