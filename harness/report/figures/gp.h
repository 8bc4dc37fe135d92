/* gp.h - gnuplot script pieces shared by the report's figure writers
 * (figures.h): strings, the terminal loop, styles, axes, shared ranges and the
 * layout of side-by-side figures. */
#ifndef MMB_REPORT_GP_H
#define MMB_REPORT_GP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report/input/out.h"
#include "report/input/state.h"

/* 20 pt on a 1600 px figure stays readable when the figure fills a slide and when
 * it is half a page. */
#define MMB_GP_FONT_PT 20
/* A figure of slides.tex is also drawn as figures/deck-NAME.pdf, at the slides preset,
 * when the report draws PDFs. */
#define MMB_GP_DECK_FORMAT "deck"

struct mmb_gp_range {
    double lo, hi;
    bool log;
};

struct mmb_gp_canvas {
    int w, h; /* pixels of the PNG and SVG; the PDF has the same proportions */
};

/* Where a panel sits: alone, or at idx of a side-by-side figure of n panels. */
struct mmb_gp_pos {
    bool shared;
    size_t idx, n, cols, rows;
    struct mmb_gp_canvas c;
};

extern const struct mmb_gp_pos mmb_gp_alone;

/* A double-quoted gnuplot string. */
void mmb_gp_string(FILE *f, const char *s);
/* "plot " before the first term (*n == 0), a continued line before the others. */
void mmb_gp_term(FILE *f, int *n);

/* The loop over the report's formats that every script is: terminal (sized by the
 * preset; a figure of slides.tex also as its slide, format MMB_GP_DECK_FORMAT), the font
 * variables F8 ... F22, LARGE (true where type has a floor: the slides and print
 * presets and the slide; a figure may then show less), output. */
void mmb_gp_script_begin(FILE *f, const struct mmb_report *rep, const char *name, const char *title,
                         struct mmb_gp_canvas c);
void mmb_gp_script_end(FILE *f);

/* Clean slate, grid and the line style of every kernel (style k + 1). */
void mmb_gp_panel_begin(FILE *f, const struct mmb_report *rep);
const char *mmb_gp_gpu_color(size_t i);
/* The colour of kernel k's line style, "#RRGGBB". */
const char *mmb_gp_kernel_color(const struct mmb_report *rep, size_t k);

/* The size axis: N of the square problems on a log2 axis (a tic at each), the other
 * shapes at the N of the same FLOP count, (M N K)^(1/3), named on the top axis when
 * named is set; returns whether it named some. */
bool mmb_gp_square(const struct mmb_report_shape *s);
double mmb_gp_size_x(const struct mmb_report_shape *s);
bool mmb_gp_size_axis(FILE *f, const struct mmb_report_data *d, const struct mmb_gp_pos *pos, bool named);
/* "set title ..." with room above for the top axis's names when named. */
void mmb_gp_title(FILE *f, const char *title, bool named);
/* A vertical line at the N where A, B and C just fill an L2 of l2_mib (nothing when
 * unknown), in colour, labelled at its top. */
void mmb_gp_l2_mark(FILE *f, double l2_mib, double elem_size, const char *color, const char *label, int tag);
/* The open variant of kernel k's marker (rectangular shapes). */
int mmb_gp_open_point(const struct mmb_report *rep, size_t k);

/* Axes: matrix sizes or kernels as categories, labels where they belong. */
void mmb_gp_shapes_xtics(FILE *f, const struct mmb_report_data *d, const struct mmb_gp_pos *pos);
void mmb_gp_kernels_xtics(FILE *f, const struct mmb_report_data *d, const struct mmb_gp_pos *pos);
bool mmb_gp_xlabel_here(const struct mmb_gp_pos *pos);
void mmb_gp_ylabel(FILE *f, const struct mmb_gp_pos *pos, const char *label);

/* Ranges grown over every GPU's values, then rounded for the axis. */
struct mmb_gp_range mmb_gp_range_new(bool log);
/* Labelled tics on a log axis over [lo, hi], denser where it spans less than a decade. */
void mmb_gp_log_tics(FILE *f, char axis, double lo, double hi);
void mmb_gp_range_add(struct mmb_gp_range *r, double v);
void mmb_gp_range_finish(struct mmb_gp_range *r);
void mmb_gp_range_set(FILE *f, char axis, const struct mmb_gp_range *r);

/* Side-by-side figures: layout, the plot box of each panel, one shared legend
 * (an empty plot under the panels; the caller adds NaN terms). */
struct mmb_gp_pos mmb_gp_multi_pos(size_t panels);
void mmb_gp_multiplot_begin(FILE *f, const char *title);
void mmb_gp_panel_box(FILE *f, const struct mmb_gp_pos *pos);
void mmb_gp_legend_begin(FILE *f, const struct mmb_gp_pos *pos, size_t entries);
/* The same in a strip height pixels high. */
void mmb_gp_legend_strip(FILE *f, const struct mmb_gp_pos *pos, size_t entries, int height);

/* Writes out/gnuplot/<name>.<ext> from the stream and frees it. */
int mmb_gp_commit(const struct mmb_report *rep, struct mmb_report_out *o, const char *name, const char *ext,
                  char *err, size_t errlen);

#endif
