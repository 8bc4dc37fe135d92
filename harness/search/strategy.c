/* strategy.c - the strategy table, what strategies share (seeded random numbers,
 * neighbours), and the two strategies that ignore scores: brute_force and random. */
#include "search/strategy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/hash.h"
#include "model/space.h"
#include "search/strategy_impl.h"

/* Adjacent neighbours are 3^n - 1 offsets: past this many parameters only the
 * single-parameter moves are tried, so one step never costs millions of checks. */
#define ADJACENT_MAX_PARAMS 10
/* Draws before random_allowed falls back to a scan (restrictions can leave a sliver). */
#define RANDOM_DRAWS 1024

const struct mmb_strategy_ops *const mmb_strategies[] = {
    &mmb_strategy_brute_force,
    &mmb_strategy_random,
    &mmb_strategy_annealing,
    &mmb_strategy_genetic,
    NULL,
};

const struct mmb_strategy_ops *mmb_strategy_find(const char *name)
{
    for (const struct mmb_strategy_ops *const *o = mmb_strategies; *o; o++)
        if (!strcmp((*o)->name, name))
            return *o;
    return NULL;
}

void mmb_strategy_list(char *buf, size_t len)
{
    if (len)
        buf[0] = '\0';
    for (const struct mmb_strategy_ops *const *o = mmb_strategies; *o; o++)
        mmb_join_append(buf, len, ", ", (*o)->name);
}

int mmb_search_init(struct mmb_search *s, const struct mmb_strategy_ops *ops, char *err, size_t errlen)
{
    s->ops = ops;
    s->space = mmb_space_size(s->kernel);
    s->rng = s->seed;
    s->priv = NULL;
    s->fevals = 0;
    if (!s->allowed) {
        mmb_errorf(err, errlen, "internal error: the search has no restriction check");
        return -1;
    }
    return ops->init(s, err, errlen);
}

void mmb_search_free(struct mmb_search *s)
{
    if (s->ops && s->ops->cleanup)
        s->ops->cleanup(s);
    s->priv = NULL;
}

void mmb_search_positions(const struct mmb_kernel_spec *kernel, size_t index, int *pos)
{
    for (int i = kernel->nparams - 1; i >= 0; i--) {
        size_t n = (size_t)kernel->params[i].nvalues;
        pos[i] = (int)(index % n);
        index /= n;
    }
}

size_t mmb_search_index_of(const struct mmb_kernel_spec *kernel, const int *pos)
{
    size_t index = 0;
    for (int i = 0; i < kernel->nparams; i++)
        index = index * (size_t)kernel->params[i].nvalues + (size_t)pos[i];
    return index;
}

/* ---- shared by the strategies ---- */

uint64_t mmb_search_below(struct mmb_search *s, uint64_t n)
{
    /* Reject the top sliver that would make small values likelier. */
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do
        x = mmb_splitmix64(&s->rng);
    while (x >= limit);
    return x % n;
}

double mmb_search_uniform(struct mmb_search *s)
{
    return (double)(mmb_splitmix64(&s->rng) >> 11) * 0x1.0p-53;
}

bool mmb_search_random_allowed(struct mmb_search *s, size_t *index)
{
    if (s->space == 0)
        return false;
    for (int i = 0; i < RANDOM_DRAWS; i++) {
        size_t x = (size_t)mmb_search_below(s, s->space);
        if (s->allowed(s->allowed_ctx, x)) {
            *index = x;
            return true;
        }
    }
    /* A sparse space: walk on from a random start, wrapping once. */
    size_t start = (size_t)mmb_search_below(s, s->space);
    for (size_t i = 0; i < s->space; i++) {
        size_t x = (start + i) % s->space;
        if (s->allowed(s->allowed_ctx, x)) {
            *index = x;
            return true;
        }
    }
    return false;
}

size_t mmb_search_neighbours_max(const struct mmb_kernel_spec *kernel)
{
    size_t adjacent = 1, hamming = 0;
    for (int i = 0; i < kernel->nparams; i++)
        hamming += (size_t)kernel->params[i].nvalues;
    if (kernel->nparams <= ADJACENT_MAX_PARAMS)
        for (int i = 0; i < kernel->nparams; i++)
            adjacent *= 3;
    else
        adjacent = 2 * (size_t)kernel->nparams + 1;
    return (adjacent > hamming ? adjacent : hamming) + 1;
}

static size_t add_if_allowed(const struct mmb_search *s, const int *pos, size_t *out, size_t n)
{
    size_t x = mmb_search_index_of(s->kernel, pos);
    if (s->allowed(s->allowed_ctx, x))
        out[n++] = x;
    return n;
}

size_t mmb_search_neighbours(const struct mmb_search *s, size_t index, enum mmb_neighbours kind, size_t *out)
{
    const struct mmb_kernel_spec *k = s->kernel;
    int base[MMB_MAX_PARAMS], pos[MMB_MAX_PARAMS];
    size_t n = 0;
    mmb_search_positions(k, index, base);
    if (kind == MMB_NEIGHBOURS_HAMMING) {
        for (int i = 0; i < k->nparams; i++) {
            memcpy(pos, base, sizeof pos);
            for (int v = 0; v < k->params[i].nvalues; v++) {
                if (v == base[i])
                    continue;
                pos[i] = v;
                n = add_if_allowed(s, pos, out, n);
            }
        }
        return n;
    }
    if (k->nparams > ADJACENT_MAX_PARAMS) {
        for (int i = 0; i < k->nparams; i++)
            for (int d = -1; d <= 1; d += 2) {
                memcpy(pos, base, sizeof pos);
                pos[i] += d;
                if (pos[i] >= 0 && pos[i] < k->params[i].nvalues)
                    n = add_if_allowed(s, pos, out, n);
            }
        return n;
    }
    /* Offsets in {-1, 0, +1}^n as base-3 digits; all zeros is index itself. */
    size_t combos = 1;
    for (int i = 0; i < k->nparams; i++)
        combos *= 3;
    for (size_t c = 0; c < combos; c++) {
        size_t rest = c;
        bool inside = true, moved = false;
        for (int i = 0; i < k->nparams; i++) {
            int d = (int)(rest % 3) - 1;
            rest /= 3;
            pos[i] = base[i] + d;
            moved |= d != 0;
            inside &= pos[i] >= 0 && pos[i] < k->params[i].nvalues;
        }
        if (inside && moved)
            n = add_if_allowed(s, pos, out, n);
    }
    return n;
}

/* ---- brute_force: every index in order ---- */

static int brute_init(struct mmb_search *s, char *err, size_t errlen)
{
    size_t *next = calloc(1, sizeof *next);
    if (!next) {
        mmb_errorf(err, errlen, "out of host memory");
        return -1;
    }
    s->priv = next;
    return 0;
}

static bool brute_done(const struct mmb_search *s)
{
    return *(const size_t *)s->priv >= s->space;
}

static size_t brute_next(struct mmb_search *s)
{
    return (*(size_t *)s->priv)++;
}

static void ignore_score(struct mmb_search *s, size_t index, double score)
{
}

static size_t brute_peek(const struct mmb_search *s, size_t *out, size_t max)
{
    size_t next = *(const size_t *)s->priv, n = 0;
    while (n < max && next + n < s->space) {
        out[n] = next + n;
        n++;
    }
    return n;
}

static void free_priv(struct mmb_search *s)
{
    free(s->priv);
}

const struct mmb_strategy_ops mmb_strategy_brute_force = {
    .name = "brute_force",
    .description = "every configuration, in index order",
    .splits = true,
    .init = brute_init,
    .done = brute_done,
    .next = brute_next,
    .observe = ignore_score,
    .peek = brute_peek,
    .cleanup = free_priv,
};

/* ---- random: a seeded permutation of the space, cut at max_fevals ----
 * A 4-round Feistel network over the next even power of two, walked until it lands
 * inside the space, is a permutation of [0, space) that needs no table: sampling
 * without replacement in O(1) memory, at most 4 walks per draw on average. */

struct permutation {
    size_t next;
    uint64_t n, mask;
    unsigned half;
    uint64_t keys[4];
};

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t feistel(const struct permutation *p, uint64_t x)
{
    uint64_t l = x >> p->half, r = x & p->mask;
    for (int i = 0; i < 4; i++) {
        uint64_t t = l ^ (mix64(r ^ p->keys[i]) & p->mask);
        l = r;
        r = t;
    }
    return (l << p->half) | r;
}

static uint64_t permute(const struct permutation *p, uint64_t i)
{
    uint64_t x = i;
    do
        x = feistel(p, x);
    while (x >= p->n);
    return x;
}

static int random_init(struct mmb_search *s, char *err, size_t errlen)
{
    struct permutation *p = calloc(1, sizeof *p);
    if (!p) {
        mmb_errorf(err, errlen, "out of host memory");
        return -1;
    }
    p->n = s->space;
    unsigned bits = 2;
    while (bits < 64 && (1ULL << bits) < p->n)
        bits++;
    bits += bits & 1;
    p->half = bits / 2;
    p->mask = (1ULL << p->half) - 1;
    for (int i = 0; i < 4; i++)
        p->keys[i] = mmb_splitmix64(&s->rng);
    s->priv = p;
    return 0;
}

static bool random_done(const struct mmb_search *s)
{
    const struct permutation *p = s->priv;
    return p->next >= p->n || (s->max_fevals && s->fevals >= s->max_fevals);
}

static size_t random_next(struct mmb_search *s)
{
    struct permutation *p = s->priv;
    return (size_t)permute(p, p->next++);
}

static size_t random_peek(const struct mmb_search *s, size_t *out, size_t max)
{
    const struct permutation *p = s->priv;
    size_t n = 0;
    while (n < max && p->next + n < p->n) {
        out[n] = (size_t)permute(p, p->next + n);
        n++;
    }
    return n;
}

const struct mmb_strategy_ops mmb_strategy_random = {
    .name = "random",
    .description = "configurations drawn without replacement until max_fevals",
    .splits = true,
    .init = random_init,
    .done = random_done,
    .next = random_next,
    .observe = ignore_score,
    .peek = random_peek,
    .cleanup = free_priv,
};
