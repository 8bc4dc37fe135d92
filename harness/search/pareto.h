/* pareto.h - the Pareto front of a two-objective search (search/objective.h's
 * "time,energy"): the configurations no other beats on both objectives at once.
 * Scores are lower-is-better (maxima negated, as mmb_objective_scores gives them);
 * a point with an infinite score (a failed row, an empty cell) never enters. A point
 * enters unless one already there is at least as good on both; it removes those it
 * beats on one and matches or beats on the other. So the front stays the exact
 * front of every point added, in any order, and of two equal points keeps the first. */
#ifndef MMB_SEARCH_PARETO_H
#define MMB_SEARCH_PARETO_H

#include <stdbool.h>
#include <stddef.h>

#include "results/row.h"

struct mmb_pareto_point {
    size_t index;          /* the configuration's index in its space */
    double score[2];
    struct mmb_row row;
};

struct mmb_pareto {
    struct mmb_pareto_point *v;
    size_t n, cap;
};

/* Whether a is at least as good as b on both scores and better on one. */
bool mmb_pareto_dominates(const double a[2], const double b[2]);
/* Offers a point: 1 when it entered, 0 when it did not, -1 out of host memory. */
int mmb_pareto_add(struct mmb_pareto *f, size_t index, const double score[2], const struct mmb_row *row);
/* Orders the front by the first score (best first; the second then worsens). */
void mmb_pareto_sort(struct mmb_pareto *f);
void mmb_pareto_free(struct mmb_pareto *f);

#endif
