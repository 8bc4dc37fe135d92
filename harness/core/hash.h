/* hash.h - 64-bit hashing and mixing: FNV-1a for cache keys, splitmix64 for
 * reproducible random inputs. */
#ifndef MMB_CORE_HASH_H
#define MMB_CORE_HASH_H

#include <stddef.h>
#include <stdint.h>

/* 64-bit FNV-1a, chainable through seed (start with MMB_FNV_SEED). */
#define MMB_FNV_SEED 0xcbf29ce484222325ULL
uint64_t mmb_hash_bytes(uint64_t seed, const void *data, size_t len);

/* splitmix64: a seedable generator for reproducible inputs. */
static inline uint64_t mmb_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

#endif
