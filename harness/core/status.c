/* status.c - statuses to and from text through one table (CUTLASS profiler style). */
#include "core/status.h"

#include <string.h>

const struct mmb_status_info mmb_status_table[] = {
    {MMB_STATUS_OK, "ok", "verified against the reference, timed"},
    {MMB_STATUS_WRONG_RESULT, "wrong_result", "ran, but the output differs from the reference beyond the tolerance"},
    {MMB_STATUS_INVALID_CONFIG, "invalid_config", "the device cannot launch it (too many threads, too much shared memory or registers)"},
    {MMB_STATUS_COMPILE_ERROR, "compile_error", "NVRTC or the module loader rejected the source"},
    {MMB_STATUS_LAUNCH_ERROR, "launch_error", "the launch or the kernel itself failed"},
    {MMB_STATUS_OUT_OF_MEMORY, "out_of_memory", "the buffers for this size do not fit on the device"},
    {MMB_STATUS_RESTRICTED, "restricted", "a restriction of the profile removes this configuration"},
    {MMB_STATUS_SKIPPED, "skipped", "not run; the reason says why"},
    {MMB_STATUS_PROFILING_DENIED, "profiling_denied", "hardware counters could not be read; timing is still valid"},
    {MMB_STATUS_COUNT, NULL, NULL},
};

const char *mmb_status_text(enum mmb_status status)
{
    if ((unsigned)status >= MMB_STATUS_COUNT)
        return "unknown";
    return mmb_status_table[status].text;
}

const char *mmb_status_meaning(enum mmb_status status)
{
    if ((unsigned)status >= MMB_STATUS_COUNT)
        return "unknown status";
    return mmb_status_table[status].meaning;
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
