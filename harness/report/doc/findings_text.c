/* findings_text.c - what every finding is written with: text appended with numbers
 * in the report's formats, and the rows and GPUs findings speak of. */
#include "report/doc/findings_impl.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "report/input/labels.h"

/* ---- text -------------------------------------------------------------------------------- */

void mmb_report_finding_add(struct mmb_report_finding *f, const char *fmt, ...)
{
    size_t n = strlen(f->text);
    if (n + 1 >= sizeof f->text)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->text + n, sizeof f->text - n, fmt, ap);
    va_end(ap);
}

/* 0.28, 9.6, 77: two significant digits below 10, whole numbers above */
const char *mmb_report_finding_pct(double v, char *buf)
{
    snprintf(buf, 16, v < 1 ? "%.2f" : v < 10 ? "%.1f" : "%.0f", v);
    return buf;
}

const char *mmb_report_finding_tflops(double gflops, char *buf)
{
    snprintf(buf, 16, gflops < 1000 ? "%.2f" : "%.1f", gflops / 1000);
    return buf;
}

const char *mmb_report_finding_ratio(double v, char *buf)
{
    snprintf(buf, 16, v < 10 ? "%.2f" : "%.0f", v);
    return buf;
}

/* ---- the data ------------------------------------------------------------------------------ */

const struct mmb_report_row *mmb_report_finding_best(const struct mmb_report_findings_ctx *c, size_t g, size_t k,
                                                     size_t s)
{
    return mmb_report_best(c->d, g, k, s);
}

const struct mmb_report_row *mmb_report_finding_at_ref(const struct mmb_report_findings_ctx *c, size_t g, size_t k)
{
    return c->d->ref >= 0 ? mmb_report_finding_best(c, g, k, (size_t)c->d->ref) : NULL;
}

int mmb_report_finding_kernel(const struct mmb_report_data *d, const char *name)
{
    for (size_t k = 0; k < d->nkernels; k++)
        if (strcmp(d->kernels[k], name) == 0)
            return (int)k;
    return -1;
}

bool mmb_report_finding_measured(const struct mmb_report_data *d, size_t g)
{
    return !d->gpus[g].all_published && d->gpus[g].selected > 0;
}

bool mmb_report_finding_square(const struct mmb_report_shape *s)
{
    return s->m == s->n && s->n == s->k;
}

double mmb_report_finding_dram_bytes(const struct mmb_report_row *r)
{
    return isfinite(r->r.dram_read_bytes) && isfinite(r->r.dram_write_bytes)
               ? r->r.dram_read_bytes + r->r.dram_write_bytes
               : NAN;
}

double mmb_report_finding_dram_pct(const struct mmb_report_row *r)
{
    return isfinite(r->r.dram_util_pct) ? r->r.dram_util_pct : mmb_report_dram_pct(r);
}

/* "H100 80GB HBM3", "GTX TITAN X (published)": short enough to repeat in a sentence. */
void mmb_report_finding_gpu(const struct mmb_report_findings_ctx *c, size_t g, char *out, size_t len)
{
    char s[96];
    mmb_report_label_gpu(c->d->gpus[g].name, s, sizeof s);
    snprintf(out, len, "%s%s", s, c->d->gpus[g].all_published ? " (published)" : "");
}
