/* test_gp.c - the report's registry of styles (report/figures/gp.c): the palettes stay
 * apart in colour under the three colour-vision deficiencies and in grey print, a kernel's
 * slot follows profile order by name, and one kernel (one GPU) has one colour in every
 * figure's gnuplot script and data of a report. */
#include <check.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "report/figures/gp.h"
#include "report_run.h"

/* ---- colour science: sRGB to CIELAB, and Machado et al. (2009) at severity 1 ---------------------- */

static double linear(double c)
{
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static void hex_linear(const char *hex, double rgb[3])
{
    unsigned v = (unsigned)strtoul(hex + 1, NULL, 16);
    for (int i = 0; i < 3; i++)
        rgb[i] = linear(((v >> (16 - 8 * i)) & 0xff) / 255.0);
}

static double lab_f(double t)
{
    return t > 0.008856 ? cbrt(t) : 7.787 * t + 16.0 / 116;
}

static void linear_lab(const double c[3], double lab[3])
{
    double x = (0.4124 * c[0] + 0.3576 * c[1] + 0.1805 * c[2]) / 0.95047;
    double y = 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
    double z = (0.0193 * c[0] + 0.1192 * c[1] + 0.9505 * c[2]) / 1.08883;
    lab[0] = 116 * lab_f(y) - 16;
    lab[1] = 500 * (lab_f(x) - lab_f(y));
    lab[2] = 200 * (lab_f(y) - lab_f(z));
}

/* vision 0: normal; 1-3: protanopia, deuteranopia, tritanopia */
static const double machado[3][3][3] = {
    {{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}},
    {{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}},
    {{1.255528, -0.076749, -0.178779}, {-0.078411, 0.930809, 0.147602}, {0.004733, 0.691367, 0.303900}},
};

static void seen(const char *hex, int vision, double lab[3])
{
    double c[3], o[3];
    hex_linear(hex, c);
    for (int i = 0; i < 3; i++) {
        o[i] = c[i];
        if (vision > 0) {
            const double *m = machado[vision - 1][i];
            o[i] = fmin(1, fmax(0, m[0] * c[0] + m[1] * c[1] + m[2] * c[2]));
        }
    }
    linear_lab(o, lab);
}

static double delta_e(const char *a, const char *b, int vision)
{
    double x[3], y[3];
    seen(a, vision, x);
    seen(b, vision, y);
    return sqrt((x[0] - y[0]) * (x[0] - y[0]) + (x[1] - y[1]) * (x[1] - y[1]) + (x[2] - y[2]) * (x[2] - y[2]));
}

static double lightness(const char *hex)
{
    double lab[3];
    seen(hex, 0, lab);
    return lab[0];
}

static size_t palette(bool gpu, const char **out)
{
    size_t n = 0;
    while ((out[n] = mmb_gp_palette_color(gpu, n)))
        n++;
    return n;
}

/* Any two kernel colours, any two GPU colours and any kernel colour against any GPU colour
 * (and cuBLAS's black) stay apart (CIELAB distance) for normal vision and the three
 * deficiencies; neighbouring slots differ in lightness (grey print). */
START_TEST(test_gp_palette_apart)
{
    const char *k[32], *g[32];
    size_t nk = palette(false, k), ng = palette(true, g);
    ck_assert_uint_ge(nk, 8);
    ck_assert_uint_ge(ng, 3);
    k[nk] = "#000000"; /* cuBLAS */
    for (int v = 0; v < 4; v++) {
        for (size_t i = 0; i <= nk; i++)
            for (size_t j = i + 1; j <= nk; j++)
                ck_assert_msg(delta_e(k[i], k[j], v) >= 15, "kernels %s and %s: dE %.1f under vision %d", k[i], k[j],
                              delta_e(k[i], k[j], v), v);
        for (size_t i = 0; i < ng; i++) {
            for (size_t j = i + 1; j < ng; j++)
                ck_assert_msg(delta_e(g[i], g[j], v) >= 20, "GPUs %s and %s under vision %d", g[i], g[j], v);
            for (size_t j = 0; j <= nk; j++)
                ck_assert_msg(delta_e(g[i], k[j], v) >= 20, "GPU %s and kernel %s: dE %.1f under vision %d", g[i],
                              k[j], delta_e(g[i], k[j], v), v);
        }
    }
    for (size_t i = 0; i < nk; i++)
        ck_assert_msg(fabs(lightness(k[i]) - lightness(k[(i + 1) % nk])) >= 18, "slots %zu and %zu: L* %.0f and %.0f",
                      i, (i + 1) % nk, lightness(k[i]), lightness(k[(i + 1) % nk]));
    for (size_t i = 0; i + 1 < ng; i++)
        ck_assert_msg(fabs(lightness(g[i]) - lightness(g[i + 1])) >= 15, "GPUs %zu and %zu", i, i + 1);
}
END_TEST

/* A report's data with n kernels named k0 ..., cuBLAS at cublas (-1: none), no profiles. */
static struct mmb_report *report_new(size_t n, int cublas)
{
    struct mmb_report *rep = calloc(1, sizeof *rep);
    ck_assert_ptr_nonnull(rep);
    rep->data.kernels = calloc(n, sizeof *rep->data.kernels);
    rep->data.profiles = calloc(3, sizeof *rep->data.profiles);
    ck_assert_ptr_nonnull(rep->data.kernels);
    ck_assert_ptr_nonnull(rep->data.profiles);
    for (size_t k = 0; k < n; k++)
        snprintf(rep->data.kernels[k], sizeof rep->data.kernels[k], "k%zu", k);
    rep->data.nkernels = n;
    rep->data.cublas = cublas;
    rep->data.main = -1;
    for (size_t p = 0; p < 3; p++)
        memset(rep->data.profiles[p].rank, MMB_REPORT_UNRANKED, sizeof rep->data.profiles[p].rank);
    return rep;
}

static void report_free(struct mmb_report *rep)
{
    free(rep->data.kernels);
    free(rep->data.profiles);
    free(rep);
}

/* Every kernel of a full report has a style of its own (colour, dash, marker together),
 * cuBLAS black; styles depend on the slot alone. */
START_TEST(test_gp_styles_distinct)
{
    struct mmb_report *rep = report_new(MMB_REPORT_KERNELS_MAX, 5);
    for (size_t a = 0; a < MMB_REPORT_KERNELS_MAX; a++) {
        struct mmb_gp_style x = mmb_gp_kernel_style(rep, a);
        if (a == 5)
            ck_assert_str_eq(x.color, "#000000");
        else
            ck_assert_str_eq(x.color, mmb_gp_palette_color(false, mmb_gp_kernel_slot(&rep->data, a) % 9));
        for (size_t b = a + 1; b < MMB_REPORT_KERNELS_MAX; b++) {
            struct mmb_gp_style y = mmb_gp_kernel_style(rep, b);
            ck_assert_msg(strcmp(x.color, y.color) || x.dash != y.dash || x.point != y.point,
                          "kernels %zu and %zu share %s dt %d pt %d", a, b, x.color, x.dash, x.point);
        }
    }
    /* no cuBLAS: slots in the data's order */
    ck_assert_uint_eq(mmb_gp_kernel_slot(&rep->data, 4), 4);
    ck_assert_uint_eq(mmb_gp_kernel_slot(&rep->data, 6), 5);
    report_free(rep);
}
END_TEST

/* Slots follow profile order by name: the story's profile first, each profile in its INI's
 * order, a kernel in two profiles keeps the first one's slot, unnamed kernels last. */
START_TEST(test_gp_slots_profile_order)
{
    struct mmb_report *rep = report_new(6, 2);
    struct mmb_report_data *d = &rep->data;
    d->nprofiles = 2;
    d->main = 1;
    /* the story's profile (1) names k3, k0 and cuBLAS in that order */
    d->profiles[1].rank[3] = 0;
    d->profiles[1].rank[0] = 1;
    d->profiles[1].rank[2] = 2;
    /* profile 0 names k4, k0 (the story's already), k1 */
    d->profiles[0].rank[4] = 0;
    d->profiles[0].rank[0] = 1;
    d->profiles[0].rank[1] = 2;
    ck_assert_uint_eq(mmb_gp_kernel_slot(d, 3), 0);
    ck_assert_uint_eq(mmb_gp_kernel_slot(d, 0), 1);
    ck_assert_uint_eq(mmb_gp_kernel_slot(d, 4), 2);
    ck_assert_uint_eq(mmb_gp_kernel_slot(d, 1), 3);
    ck_assert_uint_eq(mmb_gp_kernel_slot(d, 5), 4); /* named by no INI */
    ck_assert_str_eq(mmb_gp_kernel_style(rep, 2).color, "#000000");
    ck_assert_str_eq(mmb_gp_kernel_style(rep, 3).color, mmb_gp_palette_color(false, 0));
    /* the same names in another data order (another CSV first): the same slots */
    d->main = 1;
    char tmp[MMB_REPORT_NAME_MAX];
    memcpy(tmp, d->kernels[3], sizeof tmp);
    memcpy(d->kernels[3], d->kernels[5], sizeof tmp);
    memcpy(d->kernels[5], tmp, sizeof tmp);
    d->profiles[1].rank[3] = MMB_REPORT_UNRANKED;
    d->profiles[1].rank[5] = 0;
    ck_assert_uint_eq(mmb_gp_kernel_slot(d, 5), 0); /* k3, now at index 5 */
    ck_assert_uint_eq(mmb_gp_kernel_slot(d, 3), 4); /* k5, now at index 3 */
    report_free(rep);
}
END_TEST

/* ---- one colour per kernel and per GPU across the figures of a report ------------------------- */

static char out[900];

static char *script(const char *name)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/gnuplot/%s", out, name);
    char *text = file_get(path);
    ck_assert_msg(text != NULL, "no %s", path);
    return strdup(text);
}

/* The colour script's "set style line N lc rgb "#X" ... # name" gives the kernel. */
static bool style_color(const char *gp, const char *kernel, char color[8])
{
    char tail[96];
    snprintf(tail, sizeof tail, "  # %s\n", kernel);
    for (const char *p = gp; (p = strstr(p, "set style line ")); p++) {
        const char *eol = strchr(p, '\n');
        const char *c = strstr(p, "lc rgb \"#");
        if (!eol || !c || c > eol || strncmp(eol - strlen(tail) + 1, tail, strlen(tail)))
            continue;
        memcpy(color, c + 8, 7);
        color[7] = '\0';
        return true;
    }
    return false;
}

/* A data line "... 0xRRGGBB ... # kernel" (bars and ladders carry their colours). */
static bool data_color(const char *dat, const char *kernel, const char *end, char color[8])
{
    char tail[96];
    snprintf(tail, sizeof tail, "  # %s%s", kernel, end);
    const char *t = strstr(dat, tail);
    if (!t)
        return false;
    const char *bol = t;
    while (bol > dat && bol[-1] != '\n')
        bol--;
    const char *x = strstr(bol, " 0x");
    if (!x || x > t)
        return false;
    color[0] = '#';
    for (int i = 0; i < 6; i++)
        color[1 + i] = (char)toupper((unsigned char)x[3 + i]);
    color[7] = '\0';
    return true;
}

START_TEST(test_gp_kernel_colour_every_figure)
{
    char fixtures[1200];
    snprintf(out, sizeof out, "%s/out", tmpdir);
    snprintf(fixtures, sizeof fixtures, "%s/tests/fixtures/csv/profiles", root);
    char *argv[] = {"report", "-q", "--no-plots", "-o", out, fixtures, NULL};
    ck_assert_msg(report_run(6, argv) == 0, "%s", report_err);
    char *lines = script("gflops-test-gpu-a.gp"), *roof = script("ladder-roofline-test-gpu-a.gp");
    char *bars = script("kernels-test-gpu-a.dat"), *ladder = script("ladder-test-gpu-a.dat");
    static const char *const story[] = {"naive", "tiled", "cublas"}, *const steps[] = {"step0", "step1", "step2", "cublas"};
    char a[8], b[8], c[8], seen_colors[8][8];
    size_t nseen = 0;
    for (size_t i = 0; i < 3; i++) {
        ck_assert_msg(style_color(lines, story[i], a), "%s: no style line", story[i]);
        ck_assert_msg(data_color(bars, story[i], ",", b), "%s: no bar", story[i]);
        ck_assert_msg(!strcmp(a, b), "%s: %s in the lines figure, %s in the bars", story[i], a, b);
        memcpy(seen_colors[nseen++], a, 8);
    }
    for (size_t i = 0; i < 4; i++) {
        ck_assert_msg(style_color(lines, steps[i], a), "%s: no style line", steps[i]);
        ck_assert_msg(style_color(roof, steps[i], b), "%s: no style line in the ladder's roofline", steps[i]);
        ck_assert_msg(data_color(ladder, steps[i], "\n", c), "%s: no ladder bar", steps[i]);
        ck_assert_msg(!strcmp(a, b) && !strcmp(a, c), "%s: %s, %s and %s", steps[i], a, b, c);
        if (strcmp(steps[i], "cublas"))
            memcpy(seen_colors[nseen++], a, 8);
    }
    /* the story's kernels and the ladder's steps: none shares a colour with another */
    for (size_t i = 0; i < nseen; i++)
        for (size_t j = i + 1; j < nseen; j++)
            ck_assert_msg(strcmp(seen_colors[i], seen_colors[j]), "%zu and %zu share %s", i, j, seen_colors[i]);
    free(lines);
    free(roof);
    free(bars);
    free(ladder);
}
END_TEST

/* A GPU term's colour: `lc rgb "#X" title "...NAME` in a script. */
static bool gpu_color(const char *gp, const char *name, char color[8])
{
    for (const char *p = gp; (p = strstr(p, "lc rgb \"#")); p++) {
        const char *eol = strchr(p, '\n');
        const char *t = strstr(p, "title \"");
        const char *n = t ? strstr(t, name) : NULL;
        if (t && n && eol && n < eol && t == p + 17) {
            memcpy(color, p + 8, 7);
            color[7] = '\0';
            return true;
        }
    }
    return false;
}

START_TEST(test_gp_gpu_colour_every_figure)
{
    char fixtures[1200];
    snprintf(out, sizeof out, "%s/out", tmpdir);
    snprintf(fixtures, sizeof fixtures, "%s/tests/fixtures/csv/good", root);
    char *argv[] = {"report", "-q", "--no-plots", "-o", out, fixtures, NULL};
    ck_assert_msg(report_run(6, argv) == 0, "%s", report_err);
    char *bars = script("gpus-speedup.gp"), *lines = script("gpus-bandwidth-naive.gp"), *gp = script("gflops-h200.gp");
    static const char *const gpus[] = {"V100-SXM2-16GB", "H100 80GB HBM3", "H200"};
    char a[8], b[8], first[3][8];
    for (size_t i = 0; i < 3; i++) {
        ck_assert_msg(gpu_color(bars, gpus[i], a), "%s: no bar", gpus[i]);
        /* the H200 fixture has no counters, so no bandwidth line */
        ck_assert_msg(gpu_color(lines, gpus[i], b) == (i < 2), "%s: a bandwidth line or none", gpus[i]);
        ck_assert_msg(i == 2 || !strcmp(a, b), "%s: %s in the bars, %s in the lines", gpus[i], a, b);
        memcpy(first[i], a, 8);
        /* no kernel has a GPU's colour */
        char needle[32];
        snprintf(needle, sizeof needle, "lc rgb \"%s\" dt", a);
        ck_assert_msg(!strstr(gp, needle), "a kernel has %s's colour %s", gpus[i], a);
    }
    ck_assert(strcmp(first[0], first[1]) && strcmp(first[1], first[2]) && strcmp(first[0], first[2]));
    free(bars);
    free(lines);
    free(gp);
}
END_TEST

/* ---- one colour scale for a kernel's heatmaps on every GPU ----------------------------------- */

/* lo and hi of the ok cells (index 0) of a heatmap's data */
static void cells_span(const char *dat, double *lo, double *hi)
{
    for (const char *line = dat; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (*line == '\n')
            break; /* the end of index 0 */
        if (*line == '#')
            continue;
        size_t x, y;
        double ms;
        ck_assert_int_eq(sscanf(line, "%zu %zu %lf", &x, &y, &ms), 3);
        *lo = fmin(*lo, ms);
        *hi = fmax(*hi, ms);
    }
}

START_TEST(test_gp_heatmaps_one_scale)
{
    char fixtures[1200];
    snprintf(out, sizeof out, "%s/out", tmpdir);
    snprintf(fixtures, sizeof fixtures, "%s/tests/fixtures/csv/good", root);
    char *argv[] = {"report", "-q", "--no-plots", "-o", out, fixtures, NULL};
    ck_assert_msg(report_run(6, argv) == 0, "%s", report_err);
    static const char *const names[] = {"heatmap-h100-80gb-hbm3-naive", "heatmap-h200-naive"};
    double lo = INFINITY, hi = -INFINITY, own_lo[2], own_hi[2], cb[2][2];
    for (size_t i = 0; i < 2; i++) {
        char name[200];
        snprintf(name, sizeof name, "%s.dat", names[i]);
        char *dat = script(name);
        own_lo[i] = INFINITY;
        own_hi[i] = -INFINITY;
        cells_span(dat, &own_lo[i], &own_hi[i]);
        lo = fmin(lo, own_lo[i]);
        hi = fmax(hi, own_hi[i]);
        free(dat);
        snprintf(name, sizeof name, "%s.gp", names[i]);
        char *gp = script(name);
        const char *r = strstr(gp, "set cbrange [");
        ck_assert_ptr_nonnull(r);
        ck_assert_int_eq(sscanf(r, "set cbrange [%lf:%lf]", &cb[i][0], &cb[i][1]), 2);
        ck_assert_msg(strstr(gp, "set cblabel \"median time (ms, log scale; one scale for both GPUs)\""), "%s",
                      strstr(gp, "set cblabel"));
        free(gp);
    }
    /* the fixture's two grids span different times: a scale of its own would differ */
    ck_assert(own_lo[0] != own_lo[1] && own_hi[0] != own_hi[1]);
    for (size_t i = 0; i < 2; i++) {
        ck_assert_msg(fabs(cb[i][0] - lo) <= 1e-6 * lo && fabs(cb[i][1] - hi) <= 1e-6 * hi,
                      "%s: cbrange %g:%g, the cells of both span %g:%g", names[i], cb[i][0], cb[i][1], lo, hi);
    }
    /* the figure says so, and names the GPUs */
    char path[1200];
    snprintf(path, sizeof path, "%s/tuning.md", out);
    const char *md = file_get(path);
    ck_assert_msg(md && strstr(md, "The colour scale is the one of every GPU's heatmap of naive at 4096 ("),
                  "%.400s", md ? md : "(no tuning.md)");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gp");
    TCase *tc = tcase_create("gp");
    tcase_add_checked_fixture(tc, tmpdir_setup, tmpdir_teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_gp_palette_apart);
    tcase_add_test(tc, test_gp_styles_distinct);
    tcase_add_test(tc, test_gp_slots_profile_order);
    tcase_add_test(tc, test_gp_kernel_colour_every_figure);
    tcase_add_test(tc, test_gp_gpu_colour_every_figure);
    tcase_add_test(tc, test_gp_heatmaps_one_scale);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
