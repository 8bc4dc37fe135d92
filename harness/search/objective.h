/* objective.h - what a tune optimises: one numeric CSV column and a direction, or
 * two of them (a two-objective search such as "time,energy", whose result is the
 * Pareto front, search/pareto.h), parsed from the profile's [tune] objective or
 * --objective. */
#ifndef MMB_OBJECTIVE_H
#define MMB_OBJECTIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "results/columns.h"
#include "results/row.h"

struct mmb_objective {
    char text[64];                     /* as given: "time", "gflops", "dram_gbps:max", "time,energy" */
    const struct mmb_column *column;   /* the (first) objective: the one the strategy follows */
    bool maximize;
    const struct mmb_column *second;   /* a two-objective search's second; NULL: one objective */
    bool second_maximize;
};

/* "time" (time_ms_median), "energy" (energy_j), "gflops", "gflops_per_watt", or any
 * numeric CSV column, optionally followed by ":min" or ":max"; without one, rates,
 * utilisations, hit rates and efficiencies are maximised and everything else
 * minimised. Two of them joined by a comma ("time,energy") make a two-objective
 * search. Returns -1 with err listing what is expected. */
int mmb_objective_parse(const char *text, struct mmb_objective *obj, char *err, size_t errlen);
/* True when the objective needs CUPTI counters (a counter column), or the energy
 * phase (power_w, energy_j, gflops_per_watt). */
bool mmb_objective_needs_counters(const struct mmb_objective *obj);
bool mmb_objective_needs_energy(const struct mmb_objective *obj);
/* The objectives as measurement names, comma-joined ("time", "time,energy_j"): the
 * T4 file's objectives. */
void mmb_objective_names(const struct mmb_objective *obj, char *out, size_t len);
/* The objective's value in row; NaN when the row is not ok or the cell is empty. */
double mmb_objective_value(const struct mmb_objective *obj, const struct mmb_row *row);
/* Lower is better (maxima negated); INFINITY when the value is NaN. Of the first
 * objective; mmb_objective_scores gives both of a two-objective search. */
double mmb_objective_score(const struct mmb_objective *obj, const struct mmb_row *row);
void mmb_objective_scores(const struct mmb_objective *obj, const struct mmb_row *row, double out[2]);

#endif
