/* imap.h - an open-addressing hash map from size_t to uintptr_t: the tuner's
 * memo of configuration indices (restriction results, rows, visits). */
#ifndef MMB_IMAP_H
#define MMB_IMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct mmb_imap {
    size_t cap, count;   /* cap is 0 or a power of two */
    size_t *keys;        /* key + 1; 0 marks an empty slot */
    uintptr_t *values;
};

/* Zero-initialised is an empty map. */
bool mmb_imap_get(const struct mmb_imap *m, size_t key, uintptr_t *value);
/* Inserts or replaces. Returns 0, or -1 when out of memory. */
int mmb_imap_put(struct mmb_imap *m, size_t key, uintptr_t value);
/* Calls fn for every entry, in no particular order. */
void mmb_imap_each(const struct mmb_imap *m, void (*fn)(void *ctx, size_t key, uintptr_t value), void *ctx);
void mmb_imap_free(struct mmb_imap *m);

#endif
