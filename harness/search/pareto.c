/* pareto.c - a two-objective Pareto front kept while the points arrive (pareto.h). */
#include "search/pareto.h"

#include <math.h>
#include <stdlib.h>

bool mmb_pareto_dominates(const double a[2], const double b[2])
{
    return a[0] <= b[0] && a[1] <= b[1] && (a[0] < b[0] || a[1] < b[1]);
}

static bool at_least_as_good(const double a[2], const double b[2])
{
    return a[0] <= b[0] && a[1] <= b[1];
}

int mmb_pareto_add(struct mmb_pareto *f, size_t index, const double score[2], const struct mmb_row *row)
{
    if (!isfinite(score[0]) || !isfinite(score[1]))
        return 0;
    for (size_t i = 0; i < f->n; i++)
        if (at_least_as_good(f->v[i].score, score))
            return 0;
    size_t kept = 0;
    for (size_t i = 0; i < f->n; i++)
        if (!at_least_as_good(score, f->v[i].score))
            f->v[kept++] = f->v[i];
    f->n = kept;
    if (f->n == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 8;
        struct mmb_pareto_point *v = realloc(f->v, cap * sizeof *v);
        if (!v)
            return -1;
        f->v = v;
        f->cap = cap;
    }
    f->v[f->n++] = (struct mmb_pareto_point){.index = index, .score = {score[0], score[1]}, .row = *row};
    return 1;
}

static int by_first(const void *a, const void *b)
{
    const struct mmb_pareto_point *x = a, *y = b;
    return x->score[0] < y->score[0] ? -1 : x->score[0] > y->score[0] ? 1 : 0;
}

void mmb_pareto_sort(struct mmb_pareto *f)
{
    if (f->n > 1)
        qsort(f->v, f->n, sizeof *f->v, by_first);
}

void mmb_pareto_free(struct mmb_pareto *f)
{
    free(f->v);
    *f = (struct mmb_pareto){NULL, 0, 0};
}
