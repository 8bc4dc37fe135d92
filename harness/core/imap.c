/* imap.c - linear probing at most half full. The size_t map stores its keys plus one
 * so that a zeroed slot is empty and index 0 is still a key; the string map hashes
 * with FNV-1a and owns copies of its keys. */
#include "core/imap.h"

#include <stdlib.h>
#include <string.h>

#include "core/hash.h"

static size_t slot_of(const struct mmb_imap *m, size_t key)
{
    uint64_t h = (uint64_t)key * 0x9e3779b97f4a7c15ULL;
    return (size_t)(h ^ (h >> 29)) & (m->cap - 1);
}

bool mmb_imap_get(const struct mmb_imap *m, size_t key, uintptr_t *value)
{
    if (!m->cap)
        return false;
    for (size_t i = slot_of(m, key);; i = (i + 1) & (m->cap - 1)) {
        if (m->keys[i] == 0)
            return false;
        if (m->keys[i] == key + 1) {
            if (value)
                *value = m->values[i];
            return true;
        }
    }
}

static void place(struct mmb_imap *m, size_t key, uintptr_t value)
{
    size_t i = slot_of(m, key);
    while (m->keys[i] != 0 && m->keys[i] != key + 1)
        i = (i + 1) & (m->cap - 1);
    if (m->keys[i] == 0)
        m->count++;
    m->keys[i] = key + 1;
    m->values[i] = value;
}

static int grow(struct mmb_imap *m)
{
    size_t cap = m->cap ? 2 * m->cap : 64;
    struct mmb_imap bigger = {.cap = cap, .keys = calloc(cap, sizeof(size_t)),
                              .values = calloc(cap, sizeof(uintptr_t))};
    if (!bigger.keys || !bigger.values) {
        free(bigger.keys);
        free(bigger.values);
        return -1;
    }
    for (size_t i = 0; i < m->cap; i++)
        if (m->keys[i])
            place(&bigger, m->keys[i] - 1, m->values[i]);
    mmb_imap_free(m);
    *m = bigger;
    return 0;
}

int mmb_imap_put(struct mmb_imap *m, size_t key, uintptr_t value)
{
    if (2 * (m->count + 1) > m->cap && grow(m) != 0)
        return -1;
    place(m, key, value);
    return 0;
}

void mmb_imap_each(const struct mmb_imap *m, void (*fn)(void *ctx, size_t key, uintptr_t value), void *ctx)
{
    for (size_t i = 0; i < m->cap; i++)
        if (m->keys[i])
            fn(ctx, m->keys[i] - 1, m->values[i]);
}

void mmb_imap_free(struct mmb_imap *m)
{
    free(m->keys);
    free(m->values);
    m->keys = NULL;
    m->values = NULL;
    m->cap = m->count = 0;
}

/* ---- string keys ---- */

static size_t string_slot(const struct mmb_smap *m, const char *key)
{
    size_t i = (size_t)mmb_hash_bytes(MMB_FNV_SEED, key, strlen(key)) & (m->cap - 1);
    while (m->keys[i] && strcmp(m->keys[i], key) != 0)
        i = (i + 1) & (m->cap - 1);
    return i;
}

bool mmb_smap_get(const struct mmb_smap *m, const char *key, uintptr_t *value)
{
    if (!m->cap)
        return false;
    size_t i = string_slot(m, key);
    if (!m->keys[i])
        return false;
    if (value)
        *value = m->values[i];
    return true;
}

static int string_grow(struct mmb_smap *m)
{
    size_t cap = m->cap ? 2 * m->cap : 256;
    struct mmb_smap bigger = {.cap = cap, .count = m->count, .keys = calloc(cap, sizeof(char *)),
                              .values = calloc(cap, sizeof(uintptr_t))};
    if (!bigger.keys || !bigger.values) {
        free(bigger.keys);
        free(bigger.values);
        return -1;
    }
    for (size_t i = 0; i < m->cap; i++)
        if (m->keys[i]) {
            size_t j = string_slot(&bigger, m->keys[i]);
            bigger.keys[j] = m->keys[i];
            bigger.values[j] = m->values[i];
        }
    free(m->keys);
    free(m->values);
    *m = bigger;
    return 0;
}

int mmb_smap_put(struct mmb_smap *m, const char *key, uintptr_t value)
{
    if (2 * (m->count + 1) > m->cap && string_grow(m) != 0)
        return -1;
    size_t i = string_slot(m, key);
    if (!m->keys[i]) {
        if (!(m->keys[i] = strdup(key)))
            return -1;
        m->count++;
    }
    m->values[i] = value;
    return 0;
}

void mmb_smap_free(struct mmb_smap *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->keys[i]);
    free(m->keys);
    free(m->values);
    m->keys = NULL;
    m->values = NULL;
    m->cap = m->count = 0;
}
