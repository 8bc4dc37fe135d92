/* limiter.c - the limiter table. */
#include "results/limiter.h"

#include <string.h>

const struct mmb_limiter mmb_limiter_table[] = {
    {MMB_LIMITER_FP32, "fp32", "the FP32 pipe"},
    {MMB_LIMITER_FP64, "fp64", "the FP64 pipe"},
    {MMB_LIMITER_INT32, "int32", "the INT32 pipe"},
    {MMB_LIMITER_TENSOR, "tensor", "the tensor cores"},
    {MMB_LIMITER_L1, "l1", "L1/TEX throughput"},
    {MMB_LIMITER_L2, "l2", "L2 throughput"},
    {MMB_LIMITER_DRAM, "dram", "DRAM bandwidth"},
    {MMB_LIMITER_ISSUE, "issue", "the SM's instruction issue"},
    {MMB_LIMITER_SM, "sm", "the SM's busiest unit"},
    {MMB_LIMITER_LATENCY, "latency", "latency (no unit at 60% of its peak)"},
    {MMB_LIMITER_COUNT, NULL, NULL},
};

const struct mmb_limiter *mmb_limiter_parse(const char *text)
{
    for (const struct mmb_limiter *l = mmb_limiter_table; l->text; l++)
        if (strcmp(l->text, text) == 0)
            return l;
    return NULL;
}

const struct mmb_limiter *mmb_limiter_info(enum mmb_limiter_kind kind)
{
    return (unsigned)kind < MMB_LIMITER_COUNT ? &mmb_limiter_table[kind] : NULL;
}
