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
    /* The `set terminal` arguments for a canvas of w x h pixels, then the scales
     * PS and FS that make points and fonts the same size in every format. */
    void (*terminal_args)(FILE *f, int w, int h, int font_pt);
};

extern const struct mmb_report_format_info mmb_report_format_table[]; /* ends with a NULL name sentinel */

const struct mmb_report_format_info *mmb_report_format_info(enum mmb_report_format format);
/* The format named by the len characters at text. */
bool mmb_report_format_parse(const char *text, size_t len, enum mmb_report_format *out);
/* Every name, joined by sep and, before the last, by last: "png, svg or pdf". */
void mmb_report_format_names(char *out, size_t len, const char *sep, const char *last);

#endif
