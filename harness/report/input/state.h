/* state.h - the report's state while it is written: its options, what was read
 * and selected, and the lists the README is written from (the figures written,
 * the figures the data did not allow, and notes for the caveats). */
#ifndef MMB_REPORT_STATE_H
#define MMB_REPORT_STATE_H

#include <stdbool.h>
#include <stddef.h>

#include "report/input/data.h"
#include "report/input/devices.h"
#include "report/input/formats.h"

enum mmb_report_group {
    MMB_REPORT_GROUP_GPUS,   /* every GPU side by side */
    MMB_REPORT_GROUP_GPU,    /* one GPU */
    MMB_REPORT_GROUP_TUNING, /* a parameter grid */
    MMB_REPORT_GROUP_SECTION, /* a profile's own section (sections.h), not under Figures */
};

struct mmb_report_figure {
    char name[160];     /* figures/<name>.<format>, gnuplot/<name>.gp */
    char title[640];
    char caption[1024]; /* one or two sentences: what it shows */
    enum mmb_report_group group;
    int gpu;            /* -1 for every GPU */
    bool drawn;         /* every format's file exists */
    bool deck;          /* a slide of slides.tex: also drawn as figures/deck-<name>.pdf */
};

/* A figure the data did not allow, for the README's caveats. */
struct mmb_report_omit {
    int gpu;            /* -1 for the side-by-side figures */
    char what[96];      /* "roofline" */
    char why[256];      /* "no DRAM byte counters" */
};

struct mmb_report {
    /* options */
    char root[4096];        /* source root: default inputs and the paths the README shows */
    char out[4096];         /* output folder */
    enum mmb_report_format formats[MMB_REPORT_FORMAT_COUNT]; /* in the order asked for */
    size_t nformats;
    enum mmb_report_preset preset; /* how large the figures are drawn */
    char gnuplot[4096];     /* program, "" when none was found */
    char command[2048];     /* the command line, for the README */
    /* what was read and selected */
    struct mmb_report_data data;
    struct mmb_report_device *devices; /* [GPU]: specification, roofs, software */
    /* what was written */
    struct mmb_report_figure *figs;
    size_t nfigs;
    char (*notes)[512];
    size_t nnotes;
    struct mmb_report_omit *omits;
    size_t nomits;
    char plot_state[4608];   /* one line: why figures were not drawn, "" when they were */
};

/* out/<sub>/<name>: returns -1 with err when it does not fit. */
int mmb_report_state_path(const struct mmb_report *rep, char *out, size_t len, const char *sub, const char *name,
                          char *err, size_t errlen);

struct mmb_report_figure *mmb_report_state_figure_add(struct mmb_report *rep, const char *name,
                                                      enum mmb_report_group group, int gpu);
int mmb_report_state_note_add(struct mmb_report *rep, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int mmb_report_state_omit_add(struct mmb_report *rep, int gpu, const char *what, const char *why);

/* Marks the figures whose every format exists on disk. */
void mmb_report_state_figures_check(struct mmb_report *rep);

/* "f32, cold L2": what figures and tables show, for one GPU or (gpu -1) all;
 * the cache mode is left out for a GPU whose rows are all published. */
void mmb_report_state_selection(const struct mmb_report *rep, int gpu, char *out, size_t len);

/* The GPU name as figures and tables show it, with "(published)" when none of its
 * rows was measured by mmbench. */
void mmb_report_state_gpu_label(const struct mmb_report *rep, size_t gpu, char *out, size_t len);

#endif
