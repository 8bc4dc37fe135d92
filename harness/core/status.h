/* status.h - the disposition every result carries, and its one text table. */
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
    MMB_STATUS_COUNT
};

struct mmb_status_info {
    enum mmb_status value;
    const char *text;
    const char *meaning;
};

/* Rows in enum order, ending with a {MMB_STATUS_COUNT, NULL, NULL} sentinel. */
extern const struct mmb_status_info mmb_status_table[];

const char *mmb_status_text(enum mmb_status status);
const char *mmb_status_meaning(enum mmb_status status);
/* Returns false when text names no status. */
bool mmb_status_parse(const char *text, enum mmb_status *out);

#endif
