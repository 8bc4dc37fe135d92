/* formats.c - the figure-format table. */
#include "report/input/formats.h"

#include <string.h>

/* PNG and SVG are drawn in pixels; the PDF has the same proportions at 200 px an
 * inch, with the font scaled to match. */
#define PX_PER_INCH 200.0

static void png_args(FILE *f, int w, int h, int font_pt)
{
    fprintf(f, "size %d,%d noenhanced font \"Sans,%d\" linewidth 2; PS = 1.0; FS = 1.0", w, h, font_pt);
}

static void svg_args(FILE *f, int w, int h, int font_pt)
{
    fprintf(f, "size %d,%d noenhanced font \"sans-serif,%d\" linewidth 2 background \"white\"; PS = 0.55; FS = 1.0", w,
            h, font_pt);
}

static void pdf_args(FILE *f, int w, int h, int font_pt)
{
    fprintf(f, "size %.2fin,%.2fin noenhanced font \"Sans,%.1f\" fontscale 1.0 linewidth 1.5; PS = 0.45; FS = %.3f",
            w / PX_PER_INCH, h / PX_PER_INCH, font_pt * 72.0 / PX_PER_INCH, 72.0 / PX_PER_INCH);
}

const struct mmb_report_format_info mmb_report_format_table[] = {
    {MMB_REPORT_PNG, "png", "pngcairo", "PNG (screens)", 1, png_args},
    {MMB_REPORT_SVG, "svg", "svg", "SVG", 2, svg_args},
    {MMB_REPORT_PDF, "pdf", "pdfcairo", "PDF (print)", 0, pdf_args},
    {MMB_REPORT_FORMAT_COUNT, NULL, NULL, NULL, 0, NULL},
};

const struct mmb_report_format_info *mmb_report_format_info(enum mmb_report_format format)
{
    if ((unsigned)format >= MMB_REPORT_FORMAT_COUNT)
        return NULL;
    return &mmb_report_format_table[format];
}

bool mmb_report_format_parse(const char *text, size_t len, enum mmb_report_format *out)
{
    for (const struct mmb_report_format_info *f = mmb_report_format_table; f->name; f++) {
        if (strlen(f->name) == len && strncmp(f->name, text, len) == 0) {
            *out = f->value;
            return true;
        }
    }
    return false;
}

void mmb_report_format_names(char *out, size_t len, const char *sep, const char *last)
{
    size_t o = 0;
    out[0] = '\0';
    for (size_t i = 0; mmb_report_format_table[i].name && o < len; i++) {
        const char *before = i == 0 ? "" : mmb_report_format_table[i + 1].name ? sep : last;
        int w = snprintf(out + o, len - o, "%s%s", before, mmb_report_format_table[i].name);
        o += w > 0 ? (size_t)w : 0;
    }
}
