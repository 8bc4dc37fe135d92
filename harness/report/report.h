/* report.h - the report: every CSV of data/ (or those named) turned into
 * gnuplot figures, reports/README.md, reports/tables.tex and reports/claims.json.
 * Needs no GPU and no CUDA, so any machine can regenerate the report from the
 * committed data. */
#ifndef MMB_REPORT_H
#define MMB_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "report/input/data.h"
#include "report/input/formats.h"

struct mmb_report_options {
    const char *root;    /* source root: default inputs and the paths the README shows */
    const char *out;     /* output folder */
    enum mmb_report_format formats[MMB_REPORT_FORMAT_COUNT]; /* in the order asked for */
    size_t nformats;
    enum mmb_report_preset preset; /* how large figures are drawn; default screen */
    const char *gnuplot; /* the program; NULL or "": gnuplot on PATH */
    const char *command; /* the command line, as the README shows it; NULL: none */
    const char *profile; /* the story's profile; NULL: course when present, else the most ok rows */
    const char *dtype;   /* element type shown; NULL: f32 when present */
    const char *cache;   /* cache mode shown; NULL: cold when present, else hot */
    const struct mmb_report_shape *size; /* of bars, tables and heatmaps; NULL: 4096 when present */
    bool no_plots;       /* write the scripts, do not run gnuplot */
    char *const *inputs; /* CSV files and folders (searched recursively); none: <root>/data */
    size_t ninputs;
};

/* What a report came to. */
struct mmb_report_result {
    bool bad_input;        /* the failure was the input's: a malformed CSV ("file:line: what"), a missing
                            * input, a profile, size, dtype or cache mode without rows, a named gnuplot
                            * that cannot draw; else the report could not be written or drawn */
    char warning[4608];    /* what the report did without (a CSV's note behind a link to nothing; no gnuplot:
                            * the scripts, not the figures), joined by "; "; "" */
    bool written;          /* README.md and tables.tex are written (figures may be missing) */
    size_t rows, gpus, files, figures, drawn;
    double seconds;
};

/* Reads and selects the rows, writes the gnuplot files, draws them, and writes the
 * README and tables.tex from what was drawn. Returns 0, or -1 with err saying what
 * went wrong (when drawing failed the README is written all the same, saying which
 * figures are missing). */
int mmb_report_write(const struct mmb_report_options *opt, struct mmb_report_result *res, char *err, size_t errlen);

#endif
