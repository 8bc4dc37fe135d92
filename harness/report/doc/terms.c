/* terms.c - what a reader needs before the figures: the GPUs' specifications (one
 * table, nvbench's device block), and the terms the report uses (cold L2, pedantic
 * FP32 cuBLAS, best configuration, measured and declared bandwidth, SM throughput
 * against FP32 use, the limiter, the sizes too small to compare), in the README and
 * in tables.tex. */
#include "report/doc/terms.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/array.h"
#include "report/doc/md.h"
#include "report/doc/tabular.h"

/* ---- the GPUs ------------------------------------------------------------------------------- */

static const char *const spec_heads[] = {"GPU", "CC", "SMs", "SM MHz (run)", "Memory", "L2", "DRAM peak", "FP32 peak",
                                         "Driver / CUDA"};

/* One GPU's cells; "" where unknown. */
static void spec_cells(const struct mmb_report *rep, size_t g, struct mmb_report_cell *row)
{
    const struct mmb_report_device *dv = &rep->devices[g];
    const struct mmb_report_gpu *gp = &rep->data.gpus[g];
    mmb_report_state_gpu_label(rep, g, row[0].text, sizeof row[0].text);
    snprintf(row[1].text, sizeof row[1].text, "%s", dv->cc);
    if (isfinite(dv->sms))
        snprintf(row[2].text, sizeof row[2].text, "%.0f", dv->sms);
    if (isfinite(dv->sm_mhz) && isfinite(dv->clock_mhz))
        snprintf(row[3].text, sizeof row[3].text, "%.0f (%.0f)", dv->sm_mhz, dv->clock_mhz);
    else if (isfinite(dv->sm_mhz))
        snprintf(row[3].text, sizeof row[3].text, "%.0f", dv->sm_mhz);
    else if (isfinite(dv->clock_mhz))
        snprintf(row[3].text, sizeof row[3].text, "(%.0f)", dv->clock_mhz);
    if (isfinite(dv->mem_gib) && isfinite(dv->bus_bits))
        snprintf(row[4].text, sizeof row[4].text, "%.0f GiB, %.0f-bit", dv->mem_gib, dv->bus_bits);
    if (isfinite(dv->l2_mib))
        snprintf(row[5].text, sizeof row[5].text, "%.0f MiB", dv->l2_mib);
    if (isfinite(gp->peak_gbps))
        snprintf(row[6].text, sizeof row[6].text, "%.0f GB/s", gp->peak_gbps);
    if (isfinite(gp->peak_gflops))
        snprintf(row[7].text, sizeof row[7].text, "%.1f TFLOP/s", gp->peak_gflops / 1000);
    if (dv->driver[0])
        snprintf(row[8].text, sizeof row[8].text, "%s / %s", dv->driver, dv->cuda[0] ? dv->cuda : "?");
}

/* The table of every GPU's specification. */
static void gpus_table(const struct mmb_report *rep, struct mmb_report_table *t)
{
    memset(t, 0, sizeof *t);
    t->md_title = MMB_REPORT_TITLE_NONE; /* under the section's heading and text */
    t->tex_loose = true;
    snprintf(t->title, sizeof t->title, "The GPUs: specification and, in brackets, the median SM clock during the "
                                        "timed runs");
    snprintf(t->label, sizeof t->label, "tab:gpus");
    for (size_t i = 0; i < MMB_COUNT(spec_heads); i++)
        mmb_report_tabular_head(t, i, spec_heads[i], i > 0, false);
    for (size_t g = 0; g < rep->data.ngpus; g++) {
        struct mmb_report_cell *row = mmb_report_tabular_row(t);
        if (!row)
            return;
        spec_cells(rep, g, row);
    }
}

static void gpus_md(FILE *f, const struct mmb_report *rep)
{
    if (rep->data.ngpus == 0)
        return;
    fputs("## GPUs\n\n", f);
    fputs("What `mmbench devices` printed for each GPU (`data/<gpu>/bench/devices.txt`) and what its rows carry; "
          "in brackets the median SM clock that NVML read while the timed launches ran. The peaks are 2 x memory clock "
          "x bus width and 2 x FP32 lanes per SM x SMs x boost clock.\n\n",
          f);
    struct mmb_report_table t;
    gpus_table(rep, &t);
    mmb_report_tabular_emit(f, NULL, &t);
}

static void gpus_tex(FILE *f, const struct mmb_report *rep)
{
    struct mmb_report_table t;
    gpus_table(rep, &t);
    mmb_report_tabular_emit(NULL, f, &t);
}

/* ---- terms ------------------------------------------------------------------------------------- */

/* The terms, each a name and its explanation; the cache mode and the size shown
 * are the report's own. */
static size_t terms_fill(const struct mmb_report *rep, char names[][64], char text[][768])
{
    const struct mmb_report_data *d = &rep->data;
    size_t n = 0;
    if (strcmp(d->cache, "cold") == 0) {
        snprintf(names[n], 64, "Cold L2");
        snprintf(text[n++], 768,
                 "Before every timed launch mmbench empties L2: it reads a buffer eight times the L2's size and "
                 "discards its lines, as ncu --cache-control all does. Each launch thus fetches A and B from DRAM "
                 "and writes C back, as a GEMM does inside a larger program whose data is not already cached. "
                 "Hot rows repeat the launch without it.");
    }
    snprintf(names[n], 64, "cuBLAS, pedantic FP32");
    snprintf(text[n++], 768,
             "The reference and ceiling is cublasSgemm with CUBLAS_PEDANTIC_MATH: FP32 arithmetic on the FP32 pipe, "
             "no TF32 tensor cores, so that it does the same arithmetic as the kernels (it is also what checks their "
             "results).");
    snprintf(names[n], 64, "Best configuration");
    snprintf(text[n++], 768,
             "A kernel's point, bar or table row is its fastest ok configuration (lowest median time) at that size "
             "on that GPU; the tables name it, and a figure marks where it changes from one size to the next.");
    snprintf(names[n], 64, "Measured and declared bandwidth");
    snprintf(text[n++], 768,
             "Measured DRAM bandwidth is the bytes the DRAM counters saw over the kernel's time. Declared bandwidth "
             "is nvbench's GlobalMem BW, which the seed 004 plots show: the compulsory bytes (A, B and C once, "
             "(MK + KN + MN) x element size) over the same time; BWUtil is that over the DRAM peak. A kernel that "
             "reads A and B many times has a measured bandwidth far above its declared one.");
    snprintf(names[n], 64, "FP32 %% and SM throughput");
    snprintf(text[n++], 768,
             "FP32 %% is the achieved FLOP rate (2MNK over the median time) as a percentage of the FP32 pipe's peak "
             "(of the FP64 or INT32 pipe for f64 and i32). SM throughput (sm__throughput) is the busiest of the SM's "
             "units, load/store and instruction issue included: a high SM throughput with a low FP32 %% means the "
             "SM is busy with something other than arithmetic.");
    snprintf(names[n], 64, "Limiter");
    snprintf(text[n++], 768,
             "Nsight Compute's Speed-of-Light rule: the busiest of FP32 %%, the SM's issue rate, L1, L2 and DRAM "
             "throughput, each a percentage of its own peak (SM where another SM unit is busier), when it is at 60%% "
             "of its peak or more; else LATENCY: no unit is near saturation, the warps wait (the stall reasons say "
             "on what), and more work in flight would fill the idle cycles.");
    snprintf(names[n], 64, "Under 30 us");
    snprintf(text[n++], 768,
             "A kernel that runs for less than about 30 microseconds is dominated by launch and latency, and its "
             "timing spread is large; figures mark such points and the comparisons leave them out.");
    return n;
}

void mmb_report_terms_md(FILE *f, const struct mmb_report *rep)
{
    gpus_md(f, rep);
    char names[8][64], text[8][768];
    size_t n = terms_fill(rep, names, text);
    fputs("## Terms\n\n", f);
    for (size_t i = 0; i < n; i++) {
        fputs("- **", f);
        mmb_report_md_text(f, names[i]);
        fputs(".** ", f);
        mmb_report_md_text(f, text[i]);
        fputc('\n', f);
    }
    fputc('\n', f);
}

void mmb_report_terms_tex(FILE *f, const struct mmb_report *rep)
{
    gpus_tex(f, rep);
    char names[8][64], text[8][768];
    size_t n = terms_fill(rep, names, text);
    fputs("\\section*{Terms}\n{\\sloppy\n\\begin{itemize}\n", f);
    for (size_t i = 0; i < n; i++) {
        fputs("\\item \\textbf{", f);
        mmb_report_md_tex(f, names[i]);
        fputs(".} ", f);
        mmb_report_md_tex(f, text[i]);
        fputc('\n', f);
    }
    fputs("\\end{itemize}\n\\par}\n\n", f);
}
