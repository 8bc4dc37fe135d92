/* formats.c - the figure-format table. */
#include "report/input/formats.h"

#include <string.h>

/* PNG and SVG are drawn in pixels; the PDF has the same proportions at 200 px an
 * inch, with the font scaled to match. */
#define PX_PER_INCH 200.0
/* gnuplot's pdfcairo prints a font of N points at 4/3 N points (96 against 72 an
 * inch): measured in its PDFs, F16 at 200 px an inch comes out at 7.7 pt, not 5.8. */
#define CAIRO_PDF_PT_SCALE (4.0 / 3.0)

static void png_args(FILE *f, int w, int h, double font_px, double px_per_inch)
{
    fprintf(f, "size %d,%d noenhanced font \"Sans,%.1f\" linewidth 2; PS = 1.0; FS = 1.0", w, h, font_px);
}

static void svg_args(FILE *f, int w, int h, double font_px, double px_per_inch)
{
    fprintf(f, "size %d,%d noenhanced font \"sans-serif,%.1f\" linewidth 2 background \"white\"; PS = 0.55; FS = 1.0",
            w, h, font_px);
}

static void pdf_args(FILE *f, int w, int h, double font_px, double px_per_inch)
{
    fprintf(f, "size %.2fin,%.2fin noenhanced font \"Sans,%.2f\" fontscale 1.0 linewidth 1.5; PS = %.3f; FS = %.4f",
            w / px_per_inch, h / px_per_inch, font_px * 72.0 / px_per_inch, 0.45 * PX_PER_INCH / px_per_inch,
            72.0 / px_per_inch);
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

const struct mmb_report_preset_info mmb_report_format_preset_table[] = {
    {MMB_REPORT_PRESET_SCREEN, "screen", "each figure's own canvas (1300 to 2000 px), the PDF at 200 px an inch", 0, 0,
     0, 0},
    {MMB_REPORT_PRESET_SLIDES, "slides", "a projector: 1920 x 1080 px, the PDF 6 in wide, no text under 9.5 pt", 1920,
     1080, 6.0, 9.5},
    {MMB_REPORT_PRESET_PRINT, "print", "a printed page: 6.5 in wide at 300 px an inch, no text under 8 pt", 1950, 0,
     6.5, 8.0},
    {MMB_REPORT_PRESET_COUNT, NULL, NULL, 0, 0, 0, 0},
};

const struct mmb_report_preset_info *mmb_report_format_preset_info(enum mmb_report_preset preset)
{
    return (unsigned)preset < MMB_REPORT_PRESET_COUNT ? &mmb_report_format_preset_table[preset] : NULL;
}

bool mmb_report_format_preset_parse(const char *text, enum mmb_report_preset *out)
{
    for (const struct mmb_report_preset_info *p = mmb_report_format_preset_table; p->name; p++)
        if (!strcmp(p->name, text)) {
            *out = p->value;
            return true;
        }
    return false;
}

struct mmb_report_sizing mmb_report_format_preset_sizing(enum mmb_report_preset preset, int own_w, int own_h)
{
    const struct mmb_report_preset_info *p = mmb_report_format_preset_info(preset);
    struct mmb_report_sizing z = {own_w, own_h, PX_PER_INCH, 1.0, 0};
    if (!p || !p->w)
        return z;
    z.w = p->w;
    z.h = p->h ? p->h : (int)((double)own_h * p->w / own_w + 0.5);
    z.font_scale = (double)p->w / own_w;
    z.px_per_inch = p->pdf_width_in > 0 ? p->w / p->pdf_width_in : PX_PER_INCH;
    z.min_font_px = p->min_font_pt * z.px_per_inch / 72.0 / CAIRO_PDF_PT_SCALE;
    return z;
}
