/* formats.h - the figure formats the report draws, named once: the word of
 * --formats and the file extension, the gnuplot terminal that draws it, and how
 * the README names and shows it. */
#ifndef MMB_REPORT_FORMATS_H
#define MMB_REPORT_FORMATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum mmb_report_format { MMB_REPORT_PNG, MMB_REPORT_SVG, MMB_REPORT_PDF, MMB_REPORT_FORMAT_COUNT };

struct mmb_report_format_info {
    enum mmb_report_format value;
    const char *name;        /* --formats word and file extension: png */
    const char *terminal;    /* the gnuplot terminal that draws it: pngcairo */
    const char *description; /* in the README's list of formats: PNG (screens) */
    int picture;             /* the README shows a figure in the drawn format of the lowest
                              * rank; 0: never as a picture, only linked (PDF) */
    /* The `set terminal` arguments for a canvas of w x h pixels with a font of font_px
     * pixels (the PDF at px_per_inch), then the scales PS and FS that make points and
     * fonts the same size in every format. */
    void (*terminal_args)(FILE *f, int w, int h, double font_px, double px_per_inch);
};

/* How large figures are drawn (--preset): for a screen (each figure's own canvas, the
 * PDF at 200 px an inch), a projector (every figure 1920 x 1080, its PDF 6 in wide, no
 * text under 9.5 pt there: a slide of slides.tex) or a printed page (6.5 in wide at
 * 300 px an inch, no text under 8 pt). Fonts scale with the canvas, and no text is
 * set under the minimum. */
enum mmb_report_preset { MMB_REPORT_PRESET_SCREEN, MMB_REPORT_PRESET_SLIDES, MMB_REPORT_PRESET_PRINT,
                         MMB_REPORT_PRESET_COUNT };

struct mmb_report_preset_info {
    enum mmb_report_preset value;
    const char *name;        /* --preset word */
    const char *description;
    int w, h;                /* every figure's canvas in pixels; h 0: the figure's proportions; w 0: its own */
    double pdf_width_in;     /* the PDF's width; 0: the canvas at 200 px an inch */
    double min_font_pt;      /* no text smaller in the PDF; 0: no minimum */
};

extern const struct mmb_report_preset_info mmb_report_format_preset_table[]; /* ends with a NULL name */
const struct mmb_report_preset_info *mmb_report_format_preset_info(enum mmb_report_preset preset);
bool mmb_report_format_preset_parse(const char *text, enum mmb_report_preset *out);

/* A figure's canvas and fonts under a preset: the canvas (w, h) for own_w x own_h,
 * the PDF's pixels an inch, the scale of every font size, and the smallest font in
 * pixels (0: none). */
struct mmb_report_sizing {
    int w, h;
    double px_per_inch, font_scale, min_font_px;
};
struct mmb_report_sizing mmb_report_format_preset_sizing(enum mmb_report_preset preset, int own_w, int own_h);

extern const struct mmb_report_format_info mmb_report_format_table[]; /* ends with a NULL name sentinel */

const struct mmb_report_format_info *mmb_report_format_info(enum mmb_report_format format);
/* The format named by the len characters at text. */
bool mmb_report_format_parse(const char *text, size_t len, enum mmb_report_format *out);
/* Every name, joined by sep and, before the last, by last: "png, svg or pdf". */
void mmb_report_format_names(char *out, size_t len, const char *sep, const char *last);

#endif
