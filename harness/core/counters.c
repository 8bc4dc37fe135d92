/* counters.c - the table of counter modes. */
#include "core/counters.h"

#include <stdio.h>
#include <string.h>

const struct mmb_counters_info mmb_counters_table[] = {
    {MMB_COUNTERS_BEST, "best",
     "every configuration timed; the counters read for the fastest configuration of each kernel at each size and "
     "dtype (and for library kernels), which the report draws"},
    {MMB_COUNTERS_ALL, "all", "the counters read for every configuration that ran correctly"},
    {MMB_COUNTERS_NONE, "none", "no counters: timing only"},
    {MMB_COUNTERS_COUNT, NULL, NULL},
};

const char *mmb_counters_text(enum mmb_counters mode)
{
    if ((unsigned)mode >= MMB_COUNTERS_COUNT)
        return NULL;
    return mmb_counters_table[mode].text;
}

bool mmb_counters_parse(const char *text, enum mmb_counters *out)
{
    for (const struct mmb_counters_info *c = mmb_counters_table; c->text; c++) {
        if (strcmp(c->text, text) == 0) {
            *out = c->value;
            return true;
        }
    }
    return false;
}

void mmb_counters_names(char *out, size_t len)
{
    size_t o = 0;
    if (len)
        out[0] = '\0';
    for (int i = 0; i < MMB_COUNTERS_COUNT && o < len; i++) {
        int w = snprintf(out + o, len - o, "%s%s", i == 0 ? "" : i + 1 == MMB_COUNTERS_COUNT ? " or " : ", ",
                         mmb_counters_table[i].text);
        o += w > 0 ? (size_t)w : 0;
    }
}
