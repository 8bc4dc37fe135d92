/* hash.c - 64-bit FNV-1a. */
#include "core/hash.h"

uint64_t mmb_hash_bytes(uint64_t seed, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        seed ^= p[i];
        seed *= 0x100000001b3ULL;
    }
    return seed;
}
