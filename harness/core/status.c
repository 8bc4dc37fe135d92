/* status.c - statuses to and from text through one table, in enum order, so that a
 * status added to the enum without a row here fails test_status. */
#include "core/status.h"

#include <string.h>

const struct mmb_status_info mmb_status_table[] = {
    {MMB_STATUS_OK, "ok", "verified against the reference, timed", .t4 = "correct", .quiet = true},
    {MMB_STATUS_WRONG_RESULT, "wrong_result", "ran, but the output differs from the reference beyond the tolerance",
     .t4 = "correctness", .failed = true},
    /* device limits: Kernel Tuner calls them constraints too */
    {MMB_STATUS_INVALID_CONFIG, "invalid_config",
     "the device cannot launch it (too many threads, too much shared memory or registers)", .t4 = "constraints",
     .failed = true},
    {MMB_STATUS_COMPILE_ERROR, "compile_error", "NVRTC or the module loader rejected the source", .t4 = "compile",
     .failed = true},
    {MMB_STATUS_LAUNCH_ERROR, "launch_error", "the launch or the kernel itself failed", .t4 = "runtime",
     .failed = true},
    {MMB_STATUS_OUT_OF_MEMORY, "out_of_memory", "the buffers for this size do not fit on the device",
     .t4 = "runtime", .failed = true},
    /* recorded on purpose, never run: the tuner's bookkeeping, not trouble */
    {MMB_STATUS_RESTRICTED, "restricted", "a restriction of the profile removes this configuration",
     .t4 = "constraints", .quiet = true},
    {MMB_STATUS_SKIPPED, "skipped", "not run; the reason says why", .t4 = "runtime", .failed = true},
    /* timed and verified; only the counters are missing */
    {MMB_STATUS_PROFILING_DENIED, "profiling_denied", "hardware counters could not be read; timing is still valid",
     .t4 = "correct", .failed = true},
    {MMB_STATUS_TIMEOUT, "timeout",
     "ran over the time limit for one configuration; its worker was stopped and the sweep went on",
     .t4 = "runtime", .failed = true},
    /* a counter_status only: the counters were read for another configuration of the group */
    {MMB_STATUS_NOT_BEST, "not_best",
     "timed and verified; counters = best read the counters only for the fastest configuration of this kernel at "
     "this size and dtype", .t4 = "correct", .quiet = true},
    {MMB_STATUS_COUNT, NULL, NULL, NULL, false, false},
};

static const struct mmb_status_info unknown = {MMB_STATUS_COUNT, "unknown", "unknown status", .t4 = "runtime",
                                               .failed = true};

const struct mmb_status_info *mmb_status_info(enum mmb_status status)
{
    if ((unsigned)status >= MMB_STATUS_COUNT)
        return &unknown;
    return &mmb_status_table[status];
}

const char *mmb_status_text(enum mmb_status status)
{
    return mmb_status_info(status)->text;
}

const char *mmb_status_meaning(enum mmb_status status)
{
    return mmb_status_info(status)->meaning;
}

bool mmb_status_parse(const char *text, enum mmb_status *out)
{
    for (const struct mmb_status_info *s = mmb_status_table; s->text; s++) {
        if (strcmp(s->text, text) == 0) {
            *out = s->value;
            return true;
        }
    }
    return false;
}
