/* objective.h - what a tune optimises: one numeric CSV column and a direction,
 * parsed from the profile's [tune] objective or --objective. */
#ifndef MMB_OBJECTIVE_H
#define MMB_OBJECTIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "results/columns.h"
#include "results/row.h"

struct mmb_objective {
    char text[64];                     /* as given: "time", "gflops", "dram_gbps:max" */
    const struct mmb_column *column;
    bool maximize;
};

/* "time" (time_ms_median), "gflops", or any numeric CSV column, optionally followed
 * by ":min" or ":max"; without one, rates, utilisations and hit rates are maximised
 * and everything else minimised. Returns -1 with err listing what is expected. */
int mmb_objective_parse(const char *text, struct mmb_objective *obj, char *err, size_t errlen);
/* True when the objective needs CUPTI counters (a counter column). */
bool mmb_objective_needs_counters(const struct mmb_objective *obj);
/* The objective's value in row; NaN when the row is not ok or the cell is empty. */
double mmb_objective_value(const struct mmb_objective *obj, const struct mmb_row *row);
/* Lower is better (maxima negated); INFINITY when the value is NaN. */
double mmb_objective_score(const struct mmb_objective *obj, const struct mmb_row *row);

#endif
