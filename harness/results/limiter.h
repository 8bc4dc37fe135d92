/* limiter.h - what limits a kernel, as the limiter column spells it: the busiest of
 * its arithmetic pipe (the CUDA cores' FP32, FP64 or INT32 pipe, or the tensor cores),
 * the SM's instruction issue, another SM unit and the memory levels, or latency when
 * none is near its peak (Nsight Compute's Speed-of-Light rule), named once. */
#ifndef MMB_LIMITER_H
#define MMB_LIMITER_H

enum mmb_limiter_kind { MMB_LIMITER_FP32, MMB_LIMITER_FP64, MMB_LIMITER_INT32, MMB_LIMITER_TENSOR, MMB_LIMITER_L1,
                        MMB_LIMITER_L2, MMB_LIMITER_DRAM, MMB_LIMITER_ISSUE, MMB_LIMITER_SM, MMB_LIMITER_LATENCY,
                        MMB_LIMITER_COUNT };

/* A unit at or above this share of its peak limits the kernel; when none is, the kernel
 * is latency-bound: Nsight Compute's Speed-of-Light rule, whose guidance reads
 * throughput under 60% of peak as a sign of latency issues (a unit that busy still has
 * idle cycles that more parallel work could fill). */
#define MMB_LIMITER_NEAR_PEAK 60.0
/* `sm` (sm_util_pct, the busiest of every SM unit) is named only when it exceeds the
 * pipe and the issue rate, which it includes, by more than this many points: counter
 * noise between passes is 1-2 points, and a named unit says more than "some unit". */
#define MMB_LIMITER_SM_MARGIN 2.0

struct mmb_limiter {
    enum mmb_limiter_kind value;
    const char *text;    /* in the CSV: fp32 */
    const char *meaning; /* in the report: "the FP32 pipe" */
};

/* Rows in enum order, ending with a {MMB_LIMITER_COUNT, NULL, NULL} sentinel. */
extern const struct mmb_limiter mmb_limiter_table[];

/* NULL when text names no limiter. */
const struct mmb_limiter *mmb_limiter_parse(const char *text);
const struct mmb_limiter *mmb_limiter_info(enum mmb_limiter_kind kind);

#endif
