/* limiter.h - what limits a kernel, as the limiter column spells it: the busiest of
 * its arithmetic pipe (the CUDA cores' FP32, FP64 or INT32 pipe, or the tensor cores)
 * and the memory levels, named once. */
#ifndef MMB_LIMITER_H
#define MMB_LIMITER_H

enum mmb_limiter_kind { MMB_LIMITER_FP32, MMB_LIMITER_FP64, MMB_LIMITER_INT32, MMB_LIMITER_TENSOR, MMB_LIMITER_L1,
                        MMB_LIMITER_L2, MMB_LIMITER_DRAM, MMB_LIMITER_COUNT };

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
