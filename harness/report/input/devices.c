/* devices.c - each GPU's specification and roofs, from the files its data folder
 * carries, and what its rows say of the software and clock. */
#include "report/input/devices.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/file.h"

/* <root>/<rel>, a regular file of at most 16 MiB; NULL when it cannot be read. */
static char *bench_file(const char *root, const char *rel)
{
    char path[4400], ignored[128];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    return mmb_file_read_regular(path, (size_t)16 << 20, "text file", NULL, ignored, sizeof ignored);
}

/* "0   NVIDIA H200   9.0   132   1980   3201  6016   139.8   60.0   4814.3   66908.2 data/h200":
 * parsed from the end, since the name holds spaces. */
static bool device_line(const char *line, size_t len, const char *folder, struct mmb_report_device *dv)
{
    char buf[512], *tok[40];
    size_t n = 0;
    if (len >= sizeof buf)
        return false;
    memcpy(buf, line, len);
    buf[len] = '\0';
    for (char *t = strtok(buf, " \t\r"); t && n < 40; t = strtok(NULL, " \t\r"))
        tok[n++] = t;
    if (n < 12 || strcmp(tok[n - 1], folder) != 0)
        return false;
    double *fields[] = {&dv->sms, &dv->sm_mhz, &dv->mem_mhz, &dv->bus_bits, &dv->mem_gib,
                        &dv->l2_mib, &dv->peak_gbps, &dv->peak_gflops};
    for (size_t i = 0; i < 8; i++) {
        char *end;
        double v = strtod(tok[n - 9 + i], &end);
        *fields[i] = *end == '\0' && isfinite(v) && v > 0 ? v : NAN;
    }
    snprintf(dv->cc, sizeof dv->cc, "%s", tok[n - 10]);
    dv->listed = true;
    return true;
}

static void devices_txt(const char *root, const char *slug, struct mmb_report_device *dv)
{
    char rel[256], folder[160];
    snprintf(rel, sizeof rel, "data/%s/bench/devices.txt", slug);
    snprintf(folder, sizeof folder, "data/%s", slug);
    char *text = bench_file(root, rel);
    for (const char *p = text; p && *p && !dv->listed;) {
        size_t len = strcspn(p, "\n");
        device_line(p, len, folder, dv);
        p += len + (p[len] == '\n');
    }
    free(text);
}

/* "roof L1 33454.1 GB/s  (...)" lines of data/<gpu>/bench/<file>: each level not yet
 * known. */
static void roofs_read(const char *root, const char *slug, const char *file, struct mmb_report_device *dv)
{
    char rel[256];
    snprintf(rel, sizeof rel, "data/%s/bench/%s", slug, file);
    char *text = bench_file(root, rel);
    for (const char *p = text; p && *p;) {
        size_t len = strcspn(p, "\n");
        char level[16], unit[16];
        double v;
        if (len < 200 && sscanf(p, "roof %15s %lf %15s", level, &v, unit) == 3 && !strcmp(unit, "GB/s") &&
            isfinite(v) && v > 0) {
            double *to = !strcmp(level, "L1")     ? &dv->roof_l1
                         : !strcmp(level, "SMEM") ? &dv->roof_smem
                         : !strcmp(level, "L2")   ? &dv->roof_l2
                         : !strcmp(level, "DRAM") ? &dv->roof_dram
                                                  : NULL;
            if (to && isnan(*to)) {
                *to = v;
                if (!dv->roof_file[0])
                    snprintf(dv->roof_file, sizeof dv->roof_file, "%s", file);
            }
        }
        p += len + (p[len] == '\n');
    }
    free(text);
}

static int double_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Driver and CUDA of the first measured row; the median SM clock of the selected rows. */
static int rows_read(const struct mmb_report_data *d, size_t g, struct mmb_report_device *dv)
{
    double *clocks = malloc((d->nrows ? d->nrows : 1) * sizeof *clocks);
    if (!clocks)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_report_row *r = &d->rows[i];
        if (r->gpu != g)
            continue;
        if (!dv->driver[0] && r->r.driver[0]) {
            snprintf(dv->driver, sizeof dv->driver, "%s", r->r.driver);
            snprintf(dv->cuda, sizeof dv->cuda, "%s", r->r.cuda);
        }
        if (!dv->cc[0] && r->r.cc[0])
            snprintf(dv->cc, sizeof dv->cc, "%s", r->r.cc);
        if (isnan(dv->sms) && r->r.sm_count > 0)
            dv->sms = (double)r->r.sm_count;
        if (r->selected && isfinite(r->r.sm_clock_mhz))
            clocks[n++] = r->r.sm_clock_mhz;
    }
    if (n) {
        qsort(clocks, n, sizeof *clocks, double_cmp);
        dv->clock_mhz = n % 2 ? clocks[n / 2] : (clocks[n / 2 - 1] + clocks[n / 2]) / 2;
    }
    free(clocks);
    return 0;
}

struct mmb_report_device *mmb_report_devices_read(const char *root, const struct mmb_report_data *d)
{
    struct mmb_report_device *devices = calloc(d->ngpus ? d->ngpus : 1, sizeof *devices);
    for (size_t g = 0; devices && g < d->ngpus; g++) {
        struct mmb_report_device *dv = &devices[g];
        dv->sms = dv->sm_mhz = dv->mem_mhz = dv->bus_bits = dv->mem_gib = dv->l2_mib = NAN;
        dv->roof_l1 = dv->roof_smem = dv->roof_l2 = dv->roof_dram = dv->clock_mhz = NAN;
        dv->peak_gbps = d->gpus[g].peak_gbps;
        dv->peak_gflops = d->gpus[g].peak_gflops;
        devices_txt(root, d->gpus[g].slug, dv);
        /* the newer script's roofs first; the older fills what it lacks */
        roofs_read(root, d->gpus[g].slug, "ncu-stalls.txt", dv);
        roofs_read(root, d->gpus[g].slug, "ncu-compare.txt", dv);
        if (rows_read(d, g, dv) != 0) {
            free(devices);
            return NULL;
        }
    }
    return devices;
}

double mmb_report_device_l2_edge(double l2_mib, double size)
{
    return l2_mib > 0 && size > 0 ? sqrt(l2_mib * 1048576.0 / (3.0 * size)) : NAN;
}
