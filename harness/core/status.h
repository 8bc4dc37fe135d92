/* status.h - the disposition every result carries, and the one table that gives
 * each its text, its meaning and how the commands, the report and T4 treat it. */
#ifndef MMB_STATUS_H
#define MMB_STATUS_H

#include <stdbool.h>

enum mmb_status {
    MMB_STATUS_OK,
    MMB_STATUS_WRONG_RESULT,
    MMB_STATUS_INVALID_CONFIG,
    MMB_STATUS_COMPILE_ERROR,
    MMB_STATUS_LAUNCH_ERROR,
    MMB_STATUS_OUT_OF_MEMORY,
    MMB_STATUS_RESTRICTED,
    MMB_STATUS_SKIPPED,
    MMB_STATUS_PROFILING_DENIED,
    MMB_STATUS_TIMEOUT,
    MMB_STATUS_NOT_BEST,
    MMB_STATUS_COUNT
};

struct mmb_status_info {
    enum mmb_status value;
    const char *text;     /* as the CSV writes it */
    const char *meaning;
    const char *t4;       /* T4 "invalidity": correct, correctness, compile, runtime or constraints */
    bool quiet;           /* expected: `run` and `tune` print such a row only when verbose */
    bool failed;          /* did not run or failed: the report counts and lists it as such */
};

/* Rows in enum order, ending with a {MMB_STATUS_COUNT, NULL, ...} sentinel. */
extern const struct mmb_status_info mmb_status_table[];

/* The status's row; for a value outside the enum, a row with text "unknown" that
 * counts as a failure. Never NULL. */
const struct mmb_status_info *mmb_status_info(enum mmb_status status);
const char *mmb_status_text(enum mmb_status status);
const char *mmb_status_meaning(enum mmb_status status);
/* Returns false when text names no status. */
bool mmb_status_parse(const char *text, enum mmb_status *out);

#endif
