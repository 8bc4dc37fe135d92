/* strategy_annealing.c - simulated annealing over allowed neighbours, after Kernel
 * Tuner's: the temperature falls with the number of distinct configurations scored,
 * so the schedule fits max_fevals; a search that stops finding new configurations
 * restarts from a random one. Every proposal is an allowed configuration. */
#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "search/strategy.h"
#include "search/strategy_impl.h"

#define T_START 1.0
#define T_MIN 0.001
#define ALPHA 0.995
/* Steps without a new configuration before a restart (Kernel Tuner's). */
#define STUCK_LIMIT 100
/* Kernel Tuner takes a Hamming neighbour 1 time in 5, an adjacent one otherwise. */
#define HAMMING_CHANCE 0.2

struct annealing {
    bool empty;        /* no allowed configuration at all */
    bool placed;       /* pos has a score */
    size_t pos;        /* current position (or the start to propose) */
    double cost;
    double t;
    double max_iter, max_feval;
    size_t steps, c_old;
    int stuck;
    size_t *buf;       /* neighbours */
};

static int annealing_init(struct mmb_search *s, char *err, size_t errlen)
{
    struct annealing *a = calloc(1, sizeof *a);
    if (a)
        a->buf = malloc(mmb_search_neighbours_max(s->kernel) * sizeof *a->buf);
    if (!a || !a->buf) {
        free(a);
        mmb_errorf(err, errlen, "out of host memory");
        return -1;
    }
    a->t = T_START;
    a->max_iter = ceil(log(T_MIN) / log(ALPHA));
    /* Kernel Tuner scales the schedule to the budget when there is one. */
    a->max_feval = s->max_fevals ? (double)s->max_fevals : a->max_iter;
    a->empty = !mmb_search_random_allowed(s, &a->pos);
    s->priv = a;
    return 0;
}

static bool annealing_done(const struct mmb_search *s)
{
    const struct annealing *a = s->priv;
    return a->empty || a->t <= T_MIN || (double)a->steps > 10 * a->max_iter;
}

static size_t annealing_next(struct mmb_search *s)
{
    struct annealing *a = s->priv;
    if (!a->placed)
        return a->pos;
    enum mmb_neighbours first = mmb_search_uniform(s) < HAMMING_CHANCE ? MMB_NEIGHBOURS_HAMMING
                                                                       : MMB_NEIGHBOURS_ADJACENT;
    enum mmb_neighbours other = first == MMB_NEIGHBOURS_HAMMING ? MMB_NEIGHBOURS_ADJACENT : MMB_NEIGHBOURS_HAMMING;
    size_t n = mmb_search_neighbours(s, a->pos, first, a->buf);
    if (!n)
        n = mmb_search_neighbours(s, a->pos, other, a->buf);
    if (n)
        return a->buf[mmb_search_below(s, n)];
    size_t x = a->pos;
    mmb_search_random_allowed(s, &x);
    return x;
}

/* Lower is better; a failed configuration (INFINITY) is never moved to once a
 * valid one is held, and always left. The relative worsening keeps the schedule
 * independent of the objective's unit; |old| keeps it right for negated maxima. */
static double acceptance(double old_cost, double new_cost, double t)
{
    if (isinf(old_cost))
        return 1.0;
    if (isinf(new_cost))
        return 0.0;
    if (new_cost < old_cost)
        return 1.0;
    if (old_cost == 0.0)
        return 0.0;
    return exp(-((new_cost - old_cost) / fabs(old_cost)) / t);
}

static void annealing_observe(struct mmb_search *s, size_t index, double score)
{
    struct annealing *a = s->priv;
    if (!a->placed) {
        a->placed = true;
        a->pos = index;
        a->cost = score;
    } else {
        double ap = acceptance(a->cost, score, a->t);
        if (ap > mmb_search_uniform(s)) {
            a->pos = index;
            a->cost = score;
        }
    }
    a->steps++;
    a->t = T_START * pow(ALPHA, a->max_iter / a->max_feval * (double)s->fevals);
    a->stuck = s->fevals == a->c_old ? a->stuck + 1 : 0;
    a->c_old = s->fevals;
    if (a->stuck > STUCK_LIMIT) {
        a->stuck = 0;
        a->placed = false;
        a->empty = !mmb_search_random_allowed(s, &a->pos);
    }
}

static size_t annealing_peek(const struct mmb_search *s, size_t *out, size_t max)
{
    const struct annealing *a = s->priv;
    if (a->empty || max == 0)
        return 0;
    if (!a->placed) {
        out[0] = a->pos;
        return 1;
    }
    /* Whichever neighbour is drawn next, its compile has started. */
    size_t n = mmb_search_neighbours(s, a->pos, MMB_NEIGHBOURS_ADJACENT, a->buf);
    if (n > max)
        n = max;
    for (size_t i = 0; i < n; i++)
        out[i] = a->buf[i];
    return n;
}

static void annealing_cleanup(struct mmb_search *s)
{
    struct annealing *a = s->priv;
    if (a)
        free(a->buf);
    free(a);
}

const struct mmb_strategy_ops mmb_strategy_annealing = {
    .name = "annealing",
    .description = "simulated annealing over allowed neighbours, reproducible with the seed",
    .revisits = true,
    .init = annealing_init,
    .done = annealing_done,
    .next = annealing_next,
    .observe = annealing_observe,
    .peek = annealing_peek,
    .cleanup = annealing_cleanup,
};
