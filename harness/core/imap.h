/* imap.h - open-addressing hash maps: from size_t to uintptr_t (the tuner's memo of
 * configuration indices: restriction results, rows, visits) and from strings to
 * uintptr_t (row keys: the CSV writer's rows, the side file's samples). */
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

struct mmb_smap {
    size_t cap, count;  /* cap is 0 or a power of two */
    char **keys;        /* copies; NULL marks an empty slot */
    uintptr_t *values;
};

/* Zero-initialised is an empty map. */
bool mmb_smap_get(const struct mmb_smap *m, const char *key, uintptr_t *value);
/* Inserts (copying key) or replaces. Returns 0, or -1 when out of memory. */
int mmb_smap_put(struct mmb_smap *m, const char *key, uintptr_t value);
void mmb_smap_free(struct mmb_smap *m);

#endif
