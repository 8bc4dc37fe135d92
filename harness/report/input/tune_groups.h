/* tune_groups.h - the report's view of tuning: the tuned problems found in the
 * data, each a kernel at one size, dtype and cache mode on one GPU; and the groups of
 * configurations whose energy was measured (docs/energy.md), each with its fastest
 * and its least-energy configuration and its time/energy Pareto front, and the rows a
 * power or thermal limit throttled, which the Energy efficiency section
 * (doc/energy/energy_doc.c) and the Pareto figures (figures/plot_energy.c) read. */
#ifndef MMB_REPORT_TUNE_GROUPS_H
#define MMB_REPORT_TUNE_GROUPS_H

#include <stdbool.h>
#include <stddef.h>

#include "report/input/state.h"

#define MMB_REPORT_TUNE_GROUPS_MAX 64

/* One tuned problem: a kernel at one size, dtype and cache mode on one GPU, searched
 * by one profile. Rows of a profile named tune* whose objective is not energy's (those
 * are the Energy efficiency section's: mmb_report_tune_group_energy); published rows of
 * a tuned kernel and size join as their own group (tuned false), for comparison. */
struct mmb_report_tune_group {
    size_t gpu, kernel;
    long long m, n, k;
    char dtype[8], cache[8];
    bool tuned;
    size_t by_status[MMB_STATUS_COUNT];
    size_t best;   /* row index + 1 of the fastest ok row, 0 none */
    size_t profile; /* the profile of its rows */
    size_t cublas;  /* row index + 1 of cuBLAS at the same problem on the GPU, of the same profile when it
                     * measured one (the same run), else of any; 0 none */
};

/* Fills gs (MMB_REPORT_TUNE_GROUPS_MAX entries) and returns how many: tuned groups
 * in the order of the data, then the published ones. */
size_t mmb_report_tune_groups(const struct mmb_report_data *d, struct mmb_report_tune_group *gs);

/* Whether the row came from a tuning profile whose objective is not energy's, and
 * belongs to the group (a tuned group: of its profile). */
bool mmb_report_tune_group_row(const struct mmb_report_data *d, const struct mmb_report_row *r);
bool mmb_report_tune_group_member(const struct mmb_report_data *d, const struct mmb_report_tune_group *g,
                                  const struct mmb_report_row *r);
/* Same kernel, size and dtype (the cache mode aside: published rows have none), and
 * when both are tuned, the same profile: the same space searched the same way. */
bool mmb_report_tune_group_same_problem(const struct mmb_report_tune_group *a, const struct mmb_report_tune_group *b);

/* True when the data holds rows of a tuning profile (not energy's): the report then
 * has a Tuning section. */
bool mmb_report_tune_groups_any(const struct mmb_report *rep);

/* ---- energy ---- */

/* A group needs this many configurations with energy to have a front worth drawing. */
#define MMB_REPORT_ENERGY_GROUP_MIN 3

struct mmb_report_energy_group {
    size_t gpu, kernel, profile;
    struct mmb_report_shape shape;
    size_t *rows;      /* ok rows with a time and energy_j, by time (fastest first) */
    bool *front;       /* rows[i] is on the front: no other row is as fast and uses less energy, or as frugal and
                        * faster */
    size_t n, nfront, throttled;
    size_t fastest, frugal; /* indices into rows: the lowest time, the lowest energy (first of equals) */
};

/* An ok row with a finite, positive energy_j and time. */
bool mmb_report_tune_group_energy_row(const struct mmb_report_row *r);
/* Whether any row of d has energy. */
bool mmb_report_tune_group_energy_any(const struct mmb_report_data *d);
/* Whether r's throttle cell names a word that throttles (a power cap, thermal slowdown). */
bool mmb_report_tune_group_throttled(const struct mmb_report_row *r);

/* The groups of d with at least MMB_REPORT_ENERGY_GROUP_MIN rows with energy, of the
 * profiles of role (an enum mmb_report_role; -1: any), in the data's order of GPU, profile,
 * kernel and shape. Returns how many (*out NULL when 0), or -1 when out of memory.
 * Free with mmb_report_tune_group_energy_free. */
long mmb_report_tune_group_energy(const struct mmb_report_data *d, int role, struct mmb_report_energy_group **out);
void mmb_report_tune_group_energy_free(struct mmb_report_energy_group *g, size_t n);
/* Whether the Energy efficiency section lists a group's least-energy configuration: a
 * tuning profile's (an energy search's among them), or the story's at the reference size. */
bool mmb_report_tune_group_energy_listed(const struct mmb_report_data *d, const struct mmb_report_energy_group *g);
/* Of the listed groups, the one whose least-energy configuration saves the most energy
 * over its fastest (the first of equals); NULL when none is listed. */
const struct mmb_report_energy_group *mmb_report_tune_group_energy_top(const struct mmb_report_data *d,
                                                                       const struct mmb_report_energy_group *g,
                                                                       size_t n);

#endif
