/* cache.h - the L2 state a measured launch starts from (cold or hot), named once:
 * profiles and CSV rows spell it through this table, and the timer and the profiler
 * get it as a value. */
#ifndef MMB_CACHE_H
#define MMB_CACHE_H

#include <stdbool.h>

enum mmb_cache_mode { MMB_CACHE_COLD, MMB_CACHE_HOT, MMB_CACHE_COUNT };

struct mmb_cache_info {
    enum mmb_cache_mode value;
    const char *text;    /* in profiles and CSVs: cold */
    const char *meaning;
};

/* Rows in enum order, ending with a {MMB_CACHE_COUNT, NULL, NULL} sentinel. */
extern const struct mmb_cache_info mmb_cache_table[];

/* NULL for a value outside the enum. */
const char *mmb_cache_text(enum mmb_cache_mode mode);
/* Returns false when text names no cache mode. */
bool mmb_cache_parse(const char *text, enum mmb_cache_mode *out);

#endif
