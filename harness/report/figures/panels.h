/* panels.h - figures made of one panel per GPU: each GPU's own figure, and the
 * figure of every GPU side by side (oldest generation first, on the ranges every
 * GPU shares, one legend under the panels). A figure writer writes a GPU's data
 * and draws its panel; these walk the GPUs, place the panels, register the
 * figures and write their scripts. */
#ifndef MMB_REPORT_PANELS_H
#define MMB_REPORT_PANELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report/figures/gp.h"
#include "report/input/state.h"

struct mmb_report_panels {
    const char *prefix; /* GPU g's figure and data: gnuplot/<prefix>-<GPU slug>.{gp,dat} */
    bool *has;          /* [GPU]: true where the GPU has a panel, set by data */
    /* Writes GPU g's data file, gnuplot/<name>.dat, and sets *has when the GPU
     * has a panel; notes the figure left out when it has none. */
    int (*data)(struct mmb_report *rep, size_t g, const char *name, bool *has, void *ctx, char *err, size_t errlen);
    /* Writes GPU g's panel from <dat>.dat at pos: titled with the figure's title
     * when alone, with the GPU's name side by side. */
    void (*panel)(FILE *f, const struct mmb_report *rep, size_t g, const char *dat, const char *title,
                  const struct mmb_gp_pos *pos, const void *ctx);
    /* The side-by-side figure's legend: mmb_gp_legend_begin, then NaN terms ending
     * their line. */
    void (*legend)(FILE *f, const struct mmb_report *rep, const struct mmb_gp_pos *pos, const void *ctx);
    void *ctx;
};

/* The data file of every GPU that has selected rows, through p->data. */
int mmb_report_panels_data(struct mmb_report *rep, const struct mmb_report_panels *p, char *err, size_t errlen);

/* Registers each GPU's own figure, titled "<GPU>: <what> (<selection>)", and
 * writes its script on a canvas c. */
int mmb_report_panels_each(struct mmb_report *rep, const struct mmb_report_panels *p, const char *what,
                           const char *caption, struct mmb_gp_canvas c, char *err, size_t errlen);

/* Registers the figure name, every GPU that has a panel side by side, and writes
 * its script; writes nothing when fewer than two GPUs have a panel. */
int mmb_report_panels_gpus(struct mmb_report *rep, const struct mmb_report_panels *p, const char *name,
                           const char *title, const char *caption, char *err, size_t errlen);

#endif
