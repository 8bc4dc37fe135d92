/* cache.c - the cache-mode table. */
#include "core/cache.h"

#include <string.h>

const struct mmb_cache_info mmb_cache_table[] = {
    {MMB_CACHE_COLD, "cold", "L2 flushed before each launch (as ncu --cache-control all)"},
    {MMB_CACHE_HOT, "hot", "nothing flushed: the launch follows the same kernel"},
    {MMB_CACHE_COUNT, NULL, NULL},
};

const char *mmb_cache_text(enum mmb_cache_mode mode)
{
    if ((unsigned)mode >= MMB_CACHE_COUNT)
        return NULL;
    return mmb_cache_table[mode].text;
}

bool mmb_cache_parse(const char *text, enum mmb_cache_mode *out)
{
    for (const struct mmb_cache_info *c = mmb_cache_table; c->text; c++) {
        if (strcmp(c->text, text) == 0) {
            *out = c->value;
            return true;
        }
    }
    return false;
}
