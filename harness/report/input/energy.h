/* energy.h - what the report reads of power and energy (docs/energy.md): whether the
 * data has any, the groups of configurations whose energy was measured (one kernel at
 * one problem on one GPU in one profile), each with its fastest and its least-energy
 * configuration and its time/energy Pareto front, and the rows a power or thermal
 * limit throttled. The Energy section (doc/energy_doc.c) and the Pareto figures
 * (figures/plot_energy.c) read them; nothing here is drawn or written. */
#ifndef MMB_REPORT_ENERGY_H
#define MMB_REPORT_ENERGY_H

#include <stdbool.h>
#include <stddef.h>

#include "report/input/data.h"

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
bool mmb_report_energy_row(const struct mmb_report_row *r);
/* Whether any row of d has energy. */
bool mmb_report_energy_any(const struct mmb_report_data *d);
/* Whether r's throttle cell names a word that throttles (a power cap, thermal slowdown). */
bool mmb_report_energy_throttled(const struct mmb_report_row *r);

/* The groups of d with at least MMB_REPORT_ENERGY_GROUP_MIN rows with energy, of the
 * profiles of role (an enum mmb_report_role; -1: any), in the data's order of GPU, profile,
 * kernel and shape. Returns how many (*out NULL when 0), or -1 when out of memory.
 * Free with mmb_report_energy_groups_free. */
long mmb_report_energy_groups(const struct mmb_report_data *d, int role, struct mmb_report_energy_group **out);
void mmb_report_energy_groups_free(struct mmb_report_energy_group *g, size_t n);

#endif
