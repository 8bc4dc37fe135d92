/* sizes.h - the comma-separated lists of profiles: matrix sizes and parameter
 * values, which share one range syntax (docs/profiles.md). */
#ifndef MMB_SIZES_H
#define MMB_SIZES_H

#include <stddef.h>

struct mmb_size {
    long long m, n, k; /* C (m x n) = A (m x k) * B (k x n), row-major */
};

/* "256:8192:x2, 1024x512x2048, 1000" -> sizes. Square N means N x N x N.
 * Ranges: a:b:xF (multiply) or a:b:+S (add), inclusive of b when reached. */
int mmb_sizes_parse(const char *text, struct mmb_size *sizes, int max, int *count,
                    char *err, size_t errlen);

/* "16, 32, 1:32:x2, -1" -> values (parameter value lists): integers and the ranges
 * above; a value listed twice is an error. */
int mmb_values_parse(const char *text, long long *values, int max, int *count,
                     char *err, size_t errlen);

#endif
