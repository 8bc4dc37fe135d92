/* doc.c - writes reports/README.md (the summary and the findings, how to regenerate,
 * what a reader needs before the figures: the GPUs' specifications and the terms the
 * report uses (cold L2, pedantic FP32 cuBLAS, best configuration, measured and
 * declared bandwidth, SM throughput against FP32 use, the limiter, the sizes too small
 * to compare), the figures, the tables, the caveats the data carries, where the data
 * came from), reports/tuning.md (the tuning detail), reports/energy.md (the energy table
 * at every size) and reports/tables.tex (the same
 * tables, from table.c and tune_doc.c). */
#include "report/doc/doc.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "report/doc/caveats.h"
#include "report/doc/energy/energy_doc.h"
#include "report/doc/findings/findings.h"
#include "report/doc/generations.h"
#include "report/doc/md.h"
#include "report/doc/sections.h"
#include "report/doc/table.h"
#include "report/doc/tune_doc.h"
#include "report/input/out.h"
#include "report/input/tune_groups.h"
#include <math.h>
#include <stdio.h>
#include "core/array.h"
#include "report/doc/tabular.h"

/* ---- the Terms ---------------------------------------------------------------------------------- */

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

static void terms_md(FILE *f, const struct mmb_report *rep)
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

static void terms_tex(FILE *f, const struct mmb_report *rep)
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

/* ---- README sections ----------------------------------------------------------------------- */

/* A figure shown earlier in the Figures section with figure i's caption (a caption is
 * read once; the next figure of the same kind links to it): of the side-by-side ones
 * before i (gpu -1), or of those and of the GPUs before gpu g. NULL when none. */
static const struct mmb_report_figure *caption_seen(const struct mmb_report *rep, size_t i, int g)
{
    const struct mmb_report_figure *fig = &rep->figs[i];
    for (size_t j = 0; j < rep->nfigs; j++) {
        const struct mmb_report_figure *e = &rep->figs[j];
        bool before = e->group == MMB_REPORT_GROUP_GPUS ? g >= 0 || j < i
                                                        : e->group == MMB_REPORT_GROUP_GPU && g >= 0 && e->gpu < g;
        if (before && j != i && strcmp(e->caption, fig->caption) == 0)
            return e;
    }
    return NULL;
}

static void md_figures(FILE *f, struct mmb_report *rep)
{
    const struct mmb_report_data *d = &rep->data;
    fputs("## Figures\n\n", f);
    if (rep->nfigs == 0) {
        fputs("No figure: no ok row in the selection.\n\n", f);
        return;
    }
    if (rep->plot_state[0])
        fprintf(f, "**Figures not drawn:** %s.\n\n", rep->plot_state);
    bool any = false;
    for (size_t i = 0; i < rep->nfigs; i++)
        any = any || rep->figs[i].group == MMB_REPORT_GROUP_GPUS;
    if (any) {
        fputs("### GPU generations side by side\n\n", f);
        for (size_t i = 0; i < rep->nfigs; i++)
            if (rep->figs[i].group == MMB_REPORT_GROUP_GPUS)
                mmb_report_md_figure_as(f, rep, &rep->figs[i], caption_seen(rep, i, -1));
    }
    for (size_t g = 0; g < d->ngpus; g++) {
        bool head = false;
        for (size_t i = 0; i < rep->nfigs; i++) {
            const struct mmb_report_figure *fig = &rep->figs[i];
            if (fig->gpu != (int)g || fig->group == MMB_REPORT_GROUP_SECTION || fig->group == MMB_REPORT_GROUP_TUNING)
                continue; /* a section's own; heatmaps: tuning.md's */
            if (!head) {
                char gpu[128];
                mmb_report_state_gpu_label(rep, g, gpu, sizeof gpu);
                fputs("### ", f);
                mmb_report_md_text(f, gpu);
                fputs("\n\n", f);
                head = true;
            }
            mmb_report_md_figure_as(f, rep, fig, caption_seen(rep, i, (int)g));
        }
    }
}

/* Where a file's rows came from: profile, when, which driver. */
static void md_provenance(FILE *f, const struct mmb_report *rep, size_t file)
{
    const struct mmb_report_data *d = &rep->data;
    const struct mmb_row *first = NULL;
    const char *t0 = NULL, *t1 = NULL;
    for (size_t r = 0; r < d->nrows; r++) {
        const struct mmb_row *row = &d->rows[r].r;
        if (d->rows[r].file != file)
            continue;
        if (!first)
            first = row;
        if (row->timestamp[0] && (!t0 || strcmp(row->timestamp, t0) < 0))
            t0 = row->timestamp;
        if (row->timestamp[0] && (!t1 || strcmp(row->timestamp, t1) > 0))
            t1 = row->timestamp;
    }
    if (!first)
        return;
    if (first->profile[0]) {
        char ini[4400];
        struct stat st;
        fputs("; profile ", f);
        mmb_report_md_code(f, first->profile);
        snprintf(ini, sizeof ini, "%s/profiles/%s.ini", rep->root, first->profile);
        if (stat(ini, &st) == 0) {
            char cmd[256];
            snprintf(cmd, sizeof cmd, "mmbench run profiles/%s.ini", first->profile);
            fputs(" (", f);
            mmb_report_md_code(f, cmd);
            fputs(")", f);
        }
    }
    if (t0)
        fprintf(f, strcmp(t0, t1) ? "; measured %s to %s" : "; measured %s", t0, t1);
    if (first->driver[0] || first->cuda[0]) {
        fputs("; driver ", f);
        mmb_report_md_text(f, first->driver[0] ? first->driver : "?");
        fputs(", CUDA ", f);
        mmb_report_md_text(f, first->cuda[0] ? first->cuda : "?");
    }
}

/* Whether file i's note has a row for one of the file's kernels. */
static bool note_names_kernels(const struct mmb_report_data *d, size_t i)
{
    bool here[MMB_REPORT_KERNELS_MAX] = {false};
    for (size_t r = 0; r < d->nrows; r++)
        if (d->rows[r].file == i)
            here[d->rows[r].kernel] = true;
    char bug[16];
    for (size_t k = 0; k < d->nkernels; k++)
        if (here[k] && mmb_report_data_note_kernel(d->files[i].note, d->kernels[k], bug, sizeof bug))
            return true;
    return false;
}

static void md_data(FILE *f, const struct mmb_report *rep)
{
    const struct mmb_report_data *d = &rep->data;
    fputs("## Data\n\n", f);
    for (size_t i = 0; i < d->nfiles; i++) {
        const struct mmb_report_file *file = &d->files[i];
        fputs("- ", f);
        mmb_report_md_code(f, file->shown);
        fputs(" (", f);
        const char *sep = "";
        for (size_t g = 0; g < d->ngpus; g++) {
            bool here = false;
            for (size_t r = 0; r < d->nrows && !here; r++)
                here = d->rows[r].file == i && d->rows[r].gpu == g;
            if (here) {
                fputs(sep, f);
                mmb_report_md_text(f, d->gpus[g].name);
                sep = ", ";
            }
        }
        fprintf(f, "): %zu rows, %zu ok", file->rows, file->by_status[MMB_STATUS_OK]);
        for (size_t s = 1; s < MMB_STATUS_COUNT; s++)
            if (file->by_status[s])
                fprintf(f, ", %zu %s", file->by_status[s], mmb_status_text((enum mmb_status)s));
        md_provenance(f, rep, i);
        if (file->published) {
            const char *reason = "";
            for (size_t r = 0; r < d->nrows; r++)
                if (d->rows[r].file == i && d->rows[r].published) {
                    reason = d->rows[r].r.reason;
                    break;
                }
            fprintf(f, "; %zu published rows: ", file->published);
            mmb_report_md_text(f, reason);
        }
        fputs(".\n", f);
        if (file->note && note_names_kernels(d, i)) {
            /* a table of each kernel's bug: shown in its profile's section, not quoted */
            char md_path[4096];
            size_t n = strlen(file->shown);
            snprintf(md_path, sizeof md_path, "%.*s.md", (int)(n > 4 ? n - 4 : n), file->shown);
            fputs("  Its note, ", f);
            mmb_report_md_code(f, md_path);
            fputs(", names each kernel's bug in a table; the profile's section shows them.\n", f);
        } else if (file->note) {
            /* the note that travels with the CSV (x.md beside x.csv), quoted */
            fputs("\n", f);
            for (const char *p = file->note; *p;) {
                size_t len = strcspn(p, "\n");
                fprintf(f, "  > %.*s\n", (int)len, p);
                p += len + (p[len] == '\n');
            }
            fputs("\n", f);
        }
    }
    fputs("\nEach kernel's line, bar, point or table row is its fastest ok configuration (lowest median time) at that size, on that GPU; rows are told apart by the `gpu` column, and cuBLAS is the kernel `cublas`.\n", f);
}

static void md_head(FILE *f, const struct mmb_report *rep)
{
    const struct mmb_report_data *d = &rep->data;
    size_t ok = 0;
    for (size_t i = 0; i < d->nrows; i++)
        ok += d->rows[i].r.status == MMB_STATUS_OK;
    char sel[64];
    mmb_report_state_selection(rep, -1, sel, sizeof sel);
    fputs("## This report\n\n", f);
    fprintf(f, "%zu GPU%s, %zu CSV files, %zu rows", d->ngpus, d->ngpus == 1 ? "" : "s", d->nfiles, d->nrows);
    size_t by[MMB_STATUS_COUNT] = {0};
    for (size_t i = 0; i < d->nrows; i++)
        if ((unsigned)d->rows[i].r.status < MMB_STATUS_COUNT)
            by[d->rows[i].r.status]++;
    size_t restricted = by[MMB_STATUS_RESTRICTED], failed = d->nrows - ok - restricted;
    if (ok == d->nrows) {
        fputs(", all ok", f);
    } else {
        fprintf(f, ": %zu ok and plotted", ok);
        /* restricted rows are the tuner's bookkeeping, not trouble: say so before
         * the count can alarm anyone */
        if (restricted)
            fprintf(f, "; %zu restricted, configurations that a tuning profile's restrictions exclude from the search, "
                       "recorded on purpose and never run (Kernel Tuner's restricted configurations%s)",
                    restricted, mmb_report_tune_groups_any(rep) ? "; see [tuning.md](tuning.md)" : "");
        if (failed) {
            fprintf(f, "; %zu that did not run or failed:", failed);
            const char *sep = " ";
            for (size_t st = 1; st < MMB_STATUS_COUNT; st++)
                if (st != MMB_STATUS_RESTRICTED && by[st]) {
                    fprintf(f, "%s%zu %s", sep, by[st], mmb_status_text((enum mmb_status)st));
                    sep = ", ";
                }
            fputs(" (each listed under [Caveats](#caveats))", f);
        }
    }
    size_t superseded = 0;
    for (size_t i = 0; i < d->nfiles; i++)
        superseded += d->files[i].superseded;
    if (superseded)
        fprintf(f, "; %zu more row%s left out, superseded by a later measurement of %s configuration in %s file "
                "(the kernel edited, another protocol: the last row of a configuration counts)",
                superseded, superseded == 1 ? "" : "s", superseded == 1 ? "its" : "their",
                superseded == 1 ? "its" : "their");
    fputs(". Figures and tables show ", f);
    if (d->main >= 0 && d->profiles[d->main].name[0]) {
        fputs("profile ", f);
        mmb_report_md_code(f, d->profiles[d->main].name);
        fputs(", ", f);
    }
    fputs(sel, f);
    if (d->ref >= 0) {
        char ref[96];
        mmb_report_shape_label(&d->shapes[d->ref], ref, sizeof ref);
        fprintf(f, "; bars, heatmaps and the first table of each GPU are at %s", ref);
    }
    fputs(".\n\n", f);
    mmb_report_sections_profiles_md(f, rep);
    fputs("Regenerate everything (runs the GPU sweep first when this machine has a GPU):\n\n    ninja -C build bench\n\n", f);
    fputs("or only this report, from the source root, with no GPU and no CUDA (the program is build/harness/mmbench in a build tree):\n\n    ", f);
    fprintf(f, "%s\n\n", rep->command);
    size_t rl = strlen(rep->root);
    const char *out = strcmp(rep->root, ".") && !strncmp(rep->out, rep->root, rl) && rep->out[rl] == '/'
                          ? rep->out + rl + 1 : rep->out;
    fprintf(f, "Redraw one figure after editing its script: `cd %s/gnuplot && gnuplot NAME.gp`. ", out);
    fputs("Every figure is drawn as", f);
    for (size_t i = 0; i < rep->nformats; i++)
        fprintf(f, "%s%s", i == 0 ? " " : i + 1 == rep->nformats ? " and " : ", ",
                mmb_report_format_info(rep->formats[i])->description);
    fputs("; the LaTeX tables are in [tables.tex](tables.tex).\n\n", f);
    fputs("Contents: [Summary](#summary) · [Key findings](#key-findings) · [GPUs](#gpus) · [Terms](#terms) · "
          "[Figures](#figures) · [Tables](#tables) · ", f);
    mmb_report_sections_contents(f, rep);
    fprintf(f, "%s[Caveats](#caveats) · [Data](#data)\n\n",
            mmb_report_tune_groups_any(rep) ? "[Tuning](tuning.md) · " : "");
}

/* reports/ladder.md: the Kernel ladder section, every ladder profile's figures, worklog
 * and tables (the README keeps the summary's ladder figure and the ladder findings). */
static int ladder_write(struct mmb_report *rep, FILE *tex, char *err, size_t errlen)
{
    char path[4400];
    if (mmb_report_state_path(rep, path, sizeof path, NULL, "ladder.md", err, errlen) != 0)
        return -1;
    struct mmb_report_out md;
    if (mmb_report_out_open(&md, err, errlen) != 0)
        return -1;
    fputs("# mmbench report: kernel ladders\n\nThe ladder detail of [the report](README.md): each ladder profile's "
          "steps, worklog, roofline and tables per GPU. Written by the same `mmbench report`.\n\n",
          md.f);
    int rc;
    size_t n = mmb_report_sections_ladders(rep, md.f, tex, &rc);
    if (rc != 0) {
        mmb_report_out_discard(&md);
        return mmb_failf(err, errlen, "out of memory");
    }
    if (n == 0) {
        mmb_report_out_discard(&md);
        if (unlink(path) != 0 && errno != ENOENT)
            return mmb_failf(err, errlen, "%s: unlink: %s", path, strerror(errno));
        return 0;
    }
    return mmb_report_out_commit(&md, path, err, errlen);
}

/* reports/energy.md: the speed and energy table at every size (the README's shows the
 * story's sizes); removed when there is none. */
static int energy_write(struct mmb_report *rep, char *err, size_t errlen)
{
    char path[4400];
    if (mmb_report_state_path(rep, path, sizeof path, NULL, "energy.md", err, errlen) != 0)
        return -1;
    struct mmb_report_out md;
    if (mmb_report_out_open(&md, err, errlen) != 0)
        return -1;
    if (!mmb_report_energy_doc_page(rep, md.f)) {
        mmb_report_out_discard(&md);
        if (unlink(path) != 0 && errno != ENOENT)
            return mmb_failf(err, errlen, "%s: unlink: %s", path, strerror(errno));
        return 0;
    }
    return mmb_report_out_commit(&md, path, err, errlen);
}

/* Whether tuning.md has something to show: tuned rows or a heatmap. */
static bool tuning_any(const struct mmb_report *rep)
{
    for (size_t i = 0; i < rep->nfigs; i++)
        if (rep->figs[i].group == MMB_REPORT_GROUP_TUNING)
            return true;
    return mmb_report_tune_groups_any(rep);
}

/* reports/tuning.md: what tuning found, the tuning tables and figures, and the
 * heatmaps of the story's kernels. */
static int tuning_write(struct mmb_report *rep, FILE *tex, char *err, size_t errlen)
{
    char path[4400];
    if (mmb_report_state_path(rep, path, sizeof path, NULL, "tuning.md", err, errlen) != 0)
        return -1;
    if (!tuning_any(rep)) {
        if (unlink(path) != 0 && errno != ENOENT)
            return mmb_failf(err, errlen, "%s: unlink: %s", path, strerror(errno));
        return 0;
    }
    struct mmb_report_out md;
    if (mmb_report_out_open(&md, err, errlen) != 0)
        return -1;
    fputs("# mmbench report: tuning\n\nThe tuning detail of [the report](README.md): what each tuned kernel's "
          "search found, its tables and figures, and the heatmaps of the story's kernels. Written by the same "
          "`mmbench report`.\n\n",
          md.f);
    mmb_report_findings_tuning_md(md.f, rep);
    if (mmb_report_tune_doc_section(rep, md.f, tex) != 0) {
        mmb_report_out_discard(&md);
        return mmb_failf(err, errlen, "out of memory");
    }
    bool any = false;
    for (size_t g = 0; g < rep->data.ngpus; g++) {
        if (rep->data.gpus[g].selected && mmb_report_tables_grids_write(rep, g, md.f, tex, &any) != 0) {
            mmb_report_out_discard(&md);
            return mmb_failf(err, errlen, "out of memory");
        }
    }
    bool head = false;
    for (size_t g = 0; g < rep->data.ngpus; g++)
        for (size_t i = 0; i < rep->nfigs; i++)
            if (rep->figs[i].group == MMB_REPORT_GROUP_TUNING && rep->figs[i].gpu == (int)g) {
                fputs(head ? "" : "## Heatmaps\n\n", md.f);
                head = true;
                mmb_report_md_figure(md.f, rep, &rep->figs[i]);
            }
    return mmb_report_out_commit(&md, path, err, errlen);
}

int mmb_report_doc_write(struct mmb_report *rep, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    struct mmb_report_out md, tex;
    if (mmb_report_out_open(&md, err, errlen) != 0)
        return -1;
    if (mmb_report_out_open(&tex, err, errlen) != 0) {
        mmb_report_out_discard(&md);
        return -1;
    }
    mmb_report_state_figures_check(rep);
    fputs("# mmbench report\n\n", md.f);
    mmb_report_findings_summary_md(md.f, rep);
    mmb_report_findings_md(md.f, rep);
    md_head(md.f, rep);
    terms_md(md.f, rep);
    md_figures(md.f, rep);

    fputs("% tables.tex - the findings and tables of reports/README.md for LaTeX notes. Written by\n"
          "% `mmbench report`. \\input it after \\usepackage{booktabs,longtable} in an A4 article at 10 pt with\n"
          "% 2 cm margins (\\usepackage[a4paper,margin=2cm]{geometry}). Tables are never scaled: 8 pt, 7 pt where\n"
          "% wide, long ones broken across pages, configurations as short IDs (C1, ...) with a legend under them.\n"
          "% slides.tex holds the lecture's tables at slide size.\n\n",
          tex.f);
    mmb_report_findings_tex(tex.f, rep);
    terms_tex(tex.f, rep);
    fputs("## Tables\n\n", md.f);
    int rc = 0;
    for (size_t g = 0; g < d->ngpus && rc == 0; g++) {
        if (!d->gpus[g].selected)
            continue;
        char gpu[128];
        mmb_report_state_gpu_label(rep, g, gpu, sizeof gpu);
        fputs("### ", md.f);
        mmb_report_md_text(md.f, gpu);
        fputs("\n\n", md.f);
        fputs("% ", tex.f);
        mmb_report_md_tex(tex.f, gpu);
        fputs("\n", tex.f);
        rc = mmb_report_tables_write(rep, g, md.f, tex.f);
    }
    if (rc == 0)
        rc = mmb_report_generations_write(rep, md.f, tex.f);
    if (rc != 0) {
        mmb_errorf(err, errlen, "out of memory");
        mmb_report_out_discard(&md);
        mmb_report_out_discard(&tex);
        return -1;
    }
    if (mmb_report_sections_write(rep, md.f, tex.f) != 0) {
        mmb_errorf(err, errlen, "out of memory");
        mmb_report_out_discard(&md);
        mmb_report_out_discard(&tex);
        return -1;
    }
    if (ladder_write(rep, tex.f, err, errlen) != 0 || tuning_write(rep, tex.f, err, errlen) != 0) {
        mmb_report_out_discard(&md);
        mmb_report_out_discard(&tex);
        return -1;
    }
    if (mmb_report_energy_doc_write(rep, md.f) != 0) {
        mmb_errorf(err, errlen, "out of memory");
        mmb_report_out_discard(&md);
        mmb_report_out_discard(&tex);
        return -1;
    }
    if (energy_write(rep, err, errlen) != 0) {
        mmb_report_out_discard(&md);
        mmb_report_out_discard(&tex);
        return -1;
    }
    mmb_report_findings_energy_md(md.f, rep);
    mmb_report_energy_doc_figures(rep, md.f);
    mmb_report_caveats_write(md.f, rep);
    md_data(md.f, rep);

    if (mmb_report_findings_summary_slides(rep, err, errlen) != 0) {
        mmb_report_out_discard(&md);
        mmb_report_out_discard(&tex);
        return -1;
    }
    char path[4400];
    if (mmb_report_state_path(rep, path, sizeof path, NULL, "tables.tex", err, errlen) != 0 ||
        mmb_report_out_commit(&tex, path, err, errlen) != 0) {
        mmb_report_out_discard(&md);
        return -1;
    }
    if (mmb_report_state_path(rep, path, sizeof path, NULL, "README.md", err, errlen) != 0) {
        mmb_report_out_discard(&md);
        return -1;
    }
    if (mmb_report_out_commit(&md, path, err, errlen) != 0)
        return -1;
    return mmb_report_findings_json(rep, err, errlen);
}

