/* report_ncu.c - the README caveat that compares mmbench's counters with Nsight
 * Compute's, read from what scripts/ncu-compare.sh wrote for each GPU
 * (data/<gpu>/bench/ncu-compare.txt), so that the numbers quoted are the measured
 * ones and change when the comparison is run again. */
#include "report_ncu.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_doc.h"
#include "report_table.h"

#define NCU_ROWS_MAX 256

/* One line of the comparison: "naive 1024 DRAM write MB 1.889 0.000 nan". */
struct ncu_row {
    long long size;
    char metric[32];
    double mine, ncu, diff; /* diff in %, NaN where ncu is 0 */
};

/* Parses from both ends: the metric names hold spaces, the other fields do not. */
static bool row_parse(const char *line, size_t len, struct ncu_row *r)
{
    char buf[256], *tok[16];
    if (len >= sizeof buf)
        return false;
    memcpy(buf, line, len);
    buf[len] = '\0';
    size_t n = 0;
    for (char *t = strtok(buf, " \t"); t && n < 16; t = strtok(NULL, " \t"))
        tok[n++] = t;
    if (n < 6)
        return false;
    char *end;
    r->size = strtoll(tok[1], &end, 10);
    if (*end || r->size <= 0)
        return false;
    r->mine = strtod(tok[n - 3], &end);
    if (*end)
        return false;
    r->ncu = strtod(tok[n - 2], &end);
    if (*end)
        return false;
    r->diff = strtod(tok[n - 1], &end); /* "nan" parses as NaN */
    if (*end)
        return false;
    r->metric[0] = '\0';
    for (size_t i = 2; i + 3 < n; i++)
        snprintf(r->metric + strlen(r->metric), sizeof r->metric - strlen(r->metric), "%s%s", i > 2 ? " " : "", tok[i]);
    return true;
}

static size_t rows_parse(const char *text, struct ncu_row *rows)
{
    size_t n = 0;
    for (const char *p = text; *p && n < NCU_ROWS_MAX;) {
        size_t len = strcspn(p, "\n");
        if (row_parse(p, len, &rows[n]))
            n++;
        p += len + (p[len] == '\n');
    }
    return n;
}

/* Over the rows of one metric (at one size, or any with size 0): the smallest and
 * largest of a field, and the largest |diff|. Returns how many rows matched. */
struct span {
    double lo, hi, worst;
    size_t n;
};

static struct span span_of(const struct ncu_row *rows, size_t n, const char *metric, long long size, int field)
{
    struct span s = {INFINITY, -INFINITY, 0, 0};
    for (size_t i = 0; i < n; i++) {
        if (strcmp(rows[i].metric, metric) || (size && rows[i].size != size))
            continue;
        double v = field == 0 ? rows[i].mine : field == 1 ? rows[i].ncu : rows[i].diff;
        if (!isfinite(v))
            continue;
        s.lo = fmin(s.lo, v);
        s.hi = fmax(s.hi, v);
        s.worst = fmax(s.worst, fabs(rows[i].diff));
        s.n++;
    }
    return s;
}

static void range_text(FILE *f, double lo, double hi, const char *fmt)
{
    char a[32], b[32];
    snprintf(a, sizeof a, fmt, lo);
    snprintf(b, sizeof b, fmt, hi);
    if (strcmp(a, b) == 0)
        fputs(a, f);
    else
        fprintf(f, "%s–%s", a, b);
}

/* The L2 size of the GPU as `mmbench devices` printed it (data/<gpu>/bench/devices.txt):
 * the fourth field from the end of the line that names the GPU's data folder. */
static double l2_mib(const struct mmb_report *rep, const char *slug)
{
    char rel[256], folder[160];
    snprintf(rel, sizeof rel, "data/%s/bench/devices.txt", slug);
    snprintf(folder, sizeof folder, "data/%s", slug);
    char *text = mmb_report_source_read(rep, rel);
    double l2 = NAN;
    for (const char *p = text; p && *p && isnan(l2);) {
        size_t len = strcspn(p, "\n");
        char buf[512], *tok[32];
        size_t n = 0;
        if (len < sizeof buf) {
            memcpy(buf, p, len);
            buf[len] = '\0';
            for (char *t = strtok(buf, " \t"); t && n < 32; t = strtok(NULL, " \t"))
                tok[n++] = t;
            if (n >= 5 && strcmp(tok[n - 1], folder) == 0)
                l2 = strtod(tok[n - 4], NULL);
        }
        p += len + (p[len] == '\n');
    }
    free(text);
    return l2 > 0 ? l2 : NAN;
}

static void sizes_collect(const struct ncu_row *rows, size_t n, long long *sizes, size_t *nsizes)
{
    *nsizes = 0;
    for (size_t i = 0; i < n; i++) {
        size_t j = 0;
        while (j < *nsizes && sizes[j] != rows[i].size)
            j++;
        if (j == *nsizes && *nsizes < 8)
            sizes[(*nsizes)++] = rows[i].size;
    }
}

/* The variants tried on this GPU to explain the write difference, each with the
 * write difference it gave at the largest size (files of scripts/ncu-compare.sh). */
static const struct {
    const char *file, *what;
} experiments[] = {
    {"ncu-compare-read-8-keep.txt", "L2 left full of the sweep's clean lines"},
    {"ncu-compare-read-2.txt", "a sweep of 2x L2 instead of 8x"},
    {"ncu-compare-kernel-replay.txt", "CUPTI's kernel replay"},
    {"ncu-compare-ncu-app-replay.txt", "ncu's application replay"},
    {"dram-writes-by-metric-set.txt", "a DRAM-only metric set in one pass"},
};

/* dram-writes-by-metric-set.txt: "memory naive 4096 87.689 9258.647 12.537", write
 * MB in the fourth field; the range at the largest size. */
static bool set_writes(const char *text, double *lo, double *hi, long long *top)
{
    *lo = INFINITY, *hi = -INFINITY, *top = 0;
    for (int pass = 0; pass < 2; pass++)
        for (const char *p = text; *p;) {
            size_t len = strcspn(p, "\n");
            char set[32], kernel[64];
            long long size;
            double w;
            if (*p != '#' && sscanf(p, "%31s %63s %lld %lf", set, kernel, &size, &w) == 4) {
                if (pass == 0 && size > *top)
                    *top = size;
                if (pass == 1 && size == *top) {
                    *lo = fmin(*lo, w);
                    *hi = fmax(*hi, w);
                }
            }
            p += len + (p[len] == '\n');
        }
    return *top > 0 && isfinite(*lo);
}

static void experiments_write(FILE *f, const struct mmb_report *rep, const char *slug)
{
    size_t present = 0, shown = 0;
    for (size_t e = 0; e < sizeof experiments / sizeof experiments[0]; e++) {
        char rel[256];
        snprintf(rel, sizeof rel, "data/%s/bench/%s", slug, experiments[e].file);
        char *text = mmb_report_source_read(rep, rel);
        present += text != NULL;
        free(text);
    }
    for (size_t e = 0; e < sizeof experiments / sizeof experiments[0]; e++) {
        char rel[256];
        snprintf(rel, sizeof rel, "data/%s/bench/%s", slug, experiments[e].file);
        char *text = mmb_report_source_read(rep, rel);
        if (!text)
            continue;
        const char *sep = shown == 0 ? " " : shown + 1 == present ? ", and " : ", ";
        double wlo, whi;
        long long wtop;
        if (set_writes(text, &wlo, &whi, &wtop) && !strstr(text, "duration us")) {
            fprintf(f, "%s%s (", sep, experiments[e].what);
            mmb_report_md_source(f, rep, rel, experiments[e].file);
            fputs(": ", f);
            range_text(f, wlo, whi, "%.1f");
            fprintf(f, " MB written at %lld)", wtop);
            free(text);
            shown++;
            continue;
        }
        struct ncu_row *rows = malloc(NCU_ROWS_MAX * sizeof *rows);
        size_t n = rows ? rows_parse(text, rows) : 0;
        free(text);
        long long top = 0;
        for (size_t i = 0; i < n; i++)
            top = rows[i].size > top ? rows[i].size : top;
        struct span s = span_of(rows, n, "DRAM write MB", top, 2);
        fprintf(f, "%s%s (", sep, experiments[e].what);
        mmb_report_md_source(f, rep, rel, experiments[e].file);
        if (s.n) {
            fprintf(f, ": ");
            range_text(f, s.lo, s.hi, "%.1f");
            fprintf(f, "%% above ncu at %lld", top);
        }
        fputs(")", f);
        free(rows);
        shown++;
    }
    if (!shown)
        fputs(" every variant tried so far", f);
}

size_t mmb_report_ncu_caveat(FILE *f, const struct mmb_report *rep, size_t g)
{
    const struct mmb_report_data *d = &rep->data;
    char rel[256];
    snprintf(rel, sizeof rel, "data/%s/bench/ncu-compare.txt", d->gpus[g].slug);
    char *text = mmb_report_source_read(rep, rel);
    struct ncu_row *rows = text ? malloc(NCU_ROWS_MAX * sizeof *rows) : NULL;
    size_t n = rows ? rows_parse(text, rows) : 0;
    free(text);
    const char *W = "DRAM write MB";
    if (span_of(rows, n, W, 0, 0).n == 0) {
        free(rows);
        return 0;
    }
    long long sizes[8];
    size_t nsizes;
    sizes_collect(rows, n, sizes, &nsizes);
    double l2 = l2_mib(rep, d->gpus[g].slug);

    fputs("- **DRAM writes against Nsight Compute** (", f);
    mmb_report_md_text(f, d->gpus[g].name);
    fputs("): `scripts/ncu-compare.sh` measures the seed kernels through mmbench (cold L2) and through "
          "`ncu --clock-control none --cache-control all` (",
          f);
    mmb_report_md_source(f, rep, rel, NULL);
    fputs(").", f);
    /* per size: a percentage where ncu counts writes, megabytes where it counts none */
    for (size_t i = 0; i < nsizes; i++) {
        struct span pct = span_of(rows, n, W, sizes[i], 2);
        struct span mine = span_of(rows, n, W, sizes[i], 0);
        struct span ncu = span_of(rows, n, W, sizes[i], 1);
        double out_mib = (double)sizes[i] * (double)sizes[i] * 4 / 1048576; /* f32 C */
        if (mine.n == 0)
            continue;
        fprintf(f, " At %lld (C is %.0f MiB", sizes[i], out_mib);
        if (isfinite(l2))
            fprintf(f, ", %s the %.0f MiB L2", out_mib > l2 ? "larger than" : "inside", l2);
        fputs(")", f);
        if (pct.n) {
            fputs(" mmbench's DRAM write bytes are ", f);
            range_text(f, pct.lo, pct.hi, "%.1f");
            fputs(pct.lo >= 0 ? "% above" : "% off", f);
            fputs(" ncu's (", f);
            range_text(f, mine.lo, mine.hi, "%.1f");
            fputs(" MB against ", f);
            range_text(f, ncu.lo, ncu.hi, "%.1f");
            fputs(" MB).", f);
        } else {
            fputs(" mmbench counts ", f);
            range_text(f, mine.lo, mine.hi, mine.lo < 1 ? "%.2f" : "%.1f");
            fputs(" MB of write-backs that ncu does not see (ncu: 0 MB).", f);
        }
    }
    struct span rd = span_of(rows, n, "DRAM read MB", 0, 2), dur = span_of(rows, n, "duration us", 0, 2);
    struct span pct = span_of(rows, n, "DRAM %", 0, 2), sm = span_of(rows, n, "SM %", 0, 2);
    struct span ffma = span_of(rows, n, "FFMA", 0, 2), l2hit = span_of(rows, n, "L2 hit %", 0, 2);
    fprintf(f, " DRAM read bytes agree within %.2f%% and kernel duration within %.2f%%", rd.worst, dur.worst);
    if (sm.n)
        fprintf(f, ", SM %% within %.2f%%", sm.worst);
    if (ffma.n && ffma.worst == 0)
        fputs(", FFMA counts are equal", f);
    else if (ffma.n)
        fprintf(f, ", FFMA counts within %.2f%%", ffma.worst);
    if (l2hit.n)
        fprintf(f, ", L2 hit rate within %.2f%%", l2hit.worst);
    if (pct.n)
        fprintf(f, "; DRAM %% inherits the extra writes where a kernel moves little data (up to %.1f%% high)", pct.worst);
    fputs(". ncu invalidates L2 before each pass; mmbench's cold pass follows a read sweep of several times L2 "
          "whose lines it then discards, so L2 starts empty there too. The difference at the larger size stays with "
          "every variant tried:",
          f);
    experiments_write(f, rep, d->gpus[g].slug);
    fputs(". Its cause is not known (`docs/counters.md`). DRAM bandwidth, its % and intensity include these writes; "
          "read bytes and times can be taken as ncu's.\n",
          f);
    free(rows);
    return 1;
}
