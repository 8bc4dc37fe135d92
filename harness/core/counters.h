/* counters.h - which rows of a sweep get hardware counters, named once: profiles
 * (`counters =`), the command line (--counters) and the documents spell the modes
 * through this table; the sweep and the tuner get them as a value. */
#ifndef MMB_COUNTERS_H
#define MMB_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>

enum mmb_counters {
    MMB_COUNTERS_BEST, /* every configuration timed, then each group's fastest counted */
    MMB_COUNTERS_ALL,  /* every configuration counted */
    MMB_COUNTERS_NONE, /* nothing counted */
    MMB_COUNTERS_COUNT
};

struct mmb_counters_info {
    enum mmb_counters value;
    const char *text;    /* in profiles and on the command line: best */
    const char *meaning;
};

/* Rows in enum order, ending with a {MMB_COUNTERS_COUNT, NULL, NULL} sentinel. */
extern const struct mmb_counters_info mmb_counters_table[];

/* NULL for a value outside the enum. */
const char *mmb_counters_text(enum mmb_counters mode);
/* Returns false when text names no mode. */
bool mmb_counters_parse(const char *text, enum mmb_counters *out);
/* "best, all or none": every mode, for messages. */
void mmb_counters_names(char *out, size_t len);

#endif
