/* stall.c - the stall-reason table and a row's largest reasons. */
#include "results/stall.h"

#include <math.h>
#include <string.h>

#define STALL(field, name, meaning) {#field, name, meaning, offsetof(struct mmb_row, field)}

const struct mmb_stall mmb_stall_table[] = {
    STALL(stall_long_scoreboard, "Long Scoreboard", "waiting for global or local memory (L1TEX)"),
    STALL(stall_short_scoreboard, "Short Scoreboard", "waiting for shared memory or another MIO result"),
    STALL(stall_mio_throttle, "MIO Throttle", "the shared-memory instruction queue full"),
    STALL(stall_barrier, "Barrier", "waiting at __syncthreads"),
    STALL(stall_math_pipe_throttle, "Math Pipe Throttle", "the arithmetic pipe busy"),
    STALL(stall_not_selected, "Not Selected", "eligible, another warp issued"),
    STALL(stall_wait, "Wait", "a fixed-latency dependency"),
    STALL(stall_lg_throttle, "LG Throttle", "the global-memory queue full"),
    {NULL, NULL, NULL, 0},
};

const struct mmb_stall *mmb_stall_find(const char *column)
{
    for (const struct mmb_stall *s = mmb_stall_table; s->column; s++)
        if (strcmp(s->column, column) == 0)
            return s;
    return NULL;
}

size_t mmb_row_stalls_top(const struct mmb_row *row, struct mmb_stall_value *out, size_t max)
{
    size_t n = 0;
    if (max == 0)
        return 0;
    for (const struct mmb_stall *s = mmb_stall_table; s->column; s++) {
        double v = *(const double *)((const char *)row + s->offset);
        if (!isfinite(v))
            continue;
        /* insertion in descending order; an equal value stays behind the earlier reason */
        size_t at = n < max ? n : max;
        while (at > 0 && out[at - 1].cycles < v)
            at--;
        if (at >= max)
            continue;
        size_t last = n < max ? n : max - 1;
        for (size_t j = last; j > at; j--)
            out[j] = out[j - 1];
        out[at] = (struct mmb_stall_value){s, v};
        if (n < max)
            n++;
    }
    return n;
}
