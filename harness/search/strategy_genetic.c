/* strategy_genetic.c - a genetic search over parameter positions, after Kernel
 * Tuner's: a population of 20, rank-weighted parents, uniform crossover, a 1 in 10
 * chance per parameter to step to an adjacent value. A child the restrictions
 * remove is repaired to an allowed neighbour (or a random allowed configuration),
 * so every proposal is allowed. The whole generation is known before it is
 * measured, which lets every member compile ahead. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "search/strategy.h"
#include "search/strategy_impl.h"

#define POPULATION 20
#define GENERATIONS 100
#define MUTATION_CHANCE 10

struct genetic {
    bool empty;
    size_t pop[POPULATION];
    double score[POPULATION];
    int n;           /* members this generation */
    int proposed;    /* members handed out so far */
    int generation;
    size_t *buf;     /* neighbours, for repairs */
};

static void random_population(struct mmb_search *s, struct genetic *g)
{
    g->n = 0;
    for (int i = 0; i < POPULATION; i++) {
        size_t x;
        if (!mmb_search_random_allowed(s, &x))
            break;
        g->pop[g->n++] = x;
    }
    g->empty = g->n == 0;
}

static int genetic_init(struct mmb_search *s, char *err, size_t errlen)
{
    struct genetic *g = calloc(1, sizeof *g);
    if (g)
        g->buf = malloc(mmb_search_neighbours_max(s->kernel) * sizeof *g->buf);
    if (!g || !g->buf) {
        free(g);
        mmb_errorf(err, errlen, "out of host memory");
        return -1;
    }
    random_population(s, g);
    s->priv = g;
    return 0;
}

static bool genetic_done(const struct mmb_search *s)
{
    const struct genetic *g = s->priv;
    return g->empty || g->generation >= GENERATIONS;
}

static size_t genetic_next(struct mmb_search *s)
{
    struct genetic *g = s->priv;
    return g->pop[g->proposed++];
}

/* Sorts members best first (insertion sort: 20 of them); ties keep their order. */
static void rank(struct genetic *g)
{
    for (int i = 1; i < g->n; i++) {
        size_t x = g->pop[i];
        double v = g->score[i];
        int j = i;
        for (; j > 0 && g->score[j - 1] > v; j--) {
            g->pop[j] = g->pop[j - 1];
            g->score[j] = g->score[j - 1];
        }
        g->pop[j] = x;
        g->score[j] = v;
    }
}

/* Rank weights n, n-1, ..., 1: the best is n times likelier than the worst. */
static int pick_parent(struct mmb_search *s, const struct genetic *g)
{
    uint64_t total = (uint64_t)g->n * (uint64_t)(g->n + 1) / 2;
    uint64_t r = mmb_search_below(s, total);
    for (int i = 0; i < g->n; i++) {
        uint64_t w = (uint64_t)(g->n - i);
        if (r < w)
            return i;
        r -= w;
    }
    return g->n - 1;
}

static size_t make_child(struct mmb_search *s, struct genetic *g, size_t a, size_t b)
{
    const struct mmb_kernel_spec *k = s->kernel;
    int pa[MMB_MAX_PARAMS], pb[MMB_MAX_PARAMS], child[MMB_MAX_PARAMS];
    mmb_search_positions(k, a, pa);
    mmb_search_positions(k, b, pb);
    for (int i = 0; i < k->nparams; i++) {
        child[i] = mmb_search_below(s, 2) ? pa[i] : pb[i];
        if (mmb_search_below(s, MUTATION_CHANCE) == 0) {
            int step = mmb_search_below(s, 2) ? 1 : -1;
            if (child[i] + step < 0 || child[i] + step >= k->params[i].nvalues)
                step = -step;
            if (child[i] + step >= 0 && child[i] + step < k->params[i].nvalues)
                child[i] += step;
        }
    }
    size_t x = mmb_search_index_of(k, child);
    if (s->allowed(s->allowed_ctx, x))
        return x;
    size_t n = mmb_search_neighbours(s, x, MMB_NEIGHBOURS_ADJACENT, g->buf);
    if (!n)
        n = mmb_search_neighbours(s, x, MMB_NEIGHBOURS_HAMMING, g->buf);
    if (n)
        return g->buf[mmb_search_below(s, n)];
    mmb_search_random_allowed(s, &x);
    return x;
}

static void breed(struct mmb_search *s, struct genetic *g)
{
    size_t next[POPULATION];
    rank(g);
    /* The best survives unchanged: a generation never loses the best found. */
    next[0] = g->pop[0];
    int n = 1;
    while (n < g->n) {
        int a = pick_parent(s, g), b = pick_parent(s, g);
        next[n++] = make_child(s, g, g->pop[a], g->pop[b]);
        if (n < g->n)
            next[n++] = make_child(s, g, g->pop[b], g->pop[a]);
    }
    memcpy(g->pop, next, sizeof next[0] * (size_t)n);
    g->proposed = 0;
    g->generation++;
}

static void genetic_observe(struct mmb_search *s, size_t index, double score)
{
    struct genetic *g = s->priv;
    g->score[g->proposed - 1] = score;
    if (g->proposed == g->n)
        breed(s, g);
}

static size_t genetic_peek(const struct mmb_search *s, size_t *out, size_t max)
{
    const struct genetic *g = s->priv;
    size_t n = 0;
    for (int i = g->proposed; i < g->n && n < max; i++)
        out[n++] = g->pop[i];
    return n;
}

static void genetic_cleanup(struct mmb_search *s)
{
    struct genetic *g = s->priv;
    if (g)
        free(g->buf);
    free(g);
}

const struct mmb_strategy_ops mmb_strategy_genetic = {
    .name = "genetic",
    .description = "a genetic search over allowed configurations, reproducible with the seed",
    .revisits = true,
    .init = genetic_init,
    .done = genetic_done,
    .next = genetic_next,
    .observe = genetic_observe,
    .peek = genetic_peek,
    .cleanup = genetic_cleanup,
};
