/* report.c - the report: the order of the work: read the inputs (input/inputs.c) and
 * select, write the gnuplot files, draw, then write the README from what was actually
 * drawn. */
#include "report/report.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/error.h"
#include "core/file.h"
#include "report/doc/doc.h"
#include "report/figures/gnuplot.h"
#include "report/figures/plot.h"
#include "report/input/inputs.h"
#include "report/input/profiles.h"
#include "report/input/select.h"
#include "report/input/state.h"

/* ---- outputs --------------------------------------------------------------------------- */

/* A figure: its extension names a format. */
static bool figure_file(const char *ext)
{
    enum mmb_report_format fmt;
    return mmb_report_format_parse(ext, strlen(ext), &fmt);
}

/* What gnuplot reads and writes beside the scripts. */
static bool script_file(const char *ext)
{
    return !strcmp(ext, "dat") || !strcmp(ext, "gp") || !strcmp(ext, "log");
}

/* Only what an earlier report wrote: the folder may hold other files. */
static int stale_remove(const struct mmb_report *rep, const char *sub, bool (*ours_ext)(const char *ext), char *err,
                        size_t errlen)
{
    char dir[4400];
    if (mmb_report_state_path(rep, dir, sizeof dir, NULL, sub, err, errlen) != 0)
        return -1;
    DIR *dp = opendir(dir);
    if (!dp) {
        if (errno == ENOENT)
            return 0;
        mmb_errorf(err, errlen, "%s: cannot open folder: %s", dir, strerror(errno));
        return -1;
    }
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(dp))) {
        const char *dot = strrchr(e->d_name, '.');
        bool ours = dot && ours_ext(dot + 1);
        char path[4700];
        if (!ours || e->d_name[0] == '.' || (size_t)snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= sizeof path)
            continue;
        if (unlink(path) != 0 && errno != ENOENT) {
            mmb_errorf(err, errlen, "%s: unlink: %s", path, strerror(errno));
            rc = -1;
        }
    }
    closedir(dp);
    return rc;
}

/* ---- the report -------------------------------------------------------------------------- */

/* The rows of every CSV of the inputs, selected; -1 with err (bad input, unless out of
 * memory). */
static int data_read(struct mmb_report *rep, const struct mmb_report_options *opt, struct mmb_report_result *res,
                     char *err, size_t errlen)
{
    res->bad_input = true;
    rep->data.root = rep->root;
    if (mmb_report_inputs_read(opt->inputs, opt->ninputs, rep->root, &rep->data, err, errlen) != 0 ||
        mmb_report_select(&rep->data, opt->profile, opt->dtype, opt->cache, opt->size, err, errlen) != 0)
        return -1;
    res->bad_input = false;
    snprintf(res->warning, sizeof res->warning, "%s", rep->data.warnings);
    if (!(rep->devices = mmb_report_devices_read(rep->root, &rep->data)))
        return mmb_failf(err, errlen, "out of memory");
    mmb_report_profiles_rank(&rep->data);
    return 0;
}

/* Read and select, write the gnuplot files, draw, then write the README from
 * what was actually drawn. */
static int report_run(struct mmb_report *rep, const struct mmb_report_options *opt, struct mmb_report_result *res,
                      char *err, size_t errlen)
{
    double t0 = mmb_seconds_now();
    if (data_read(rep, opt, res, err, errlen) != 0)
        return -1;
    /* gnuplot before anything is written: one named with -g that cannot draw is bad
     * input, like a malformed CSV; without -g, no gnuplot leaves the scripts */
    bool plots = false;
    if (opt->no_plots) {
        snprintf(rep->plot_state, sizeof rep->plot_state, "--no-plots: the scripts are written, the figures are not drawn");
    } else if (!(plots = mmb_report_gnuplot_find(rep))) {
        if (opt->gnuplot && opt->gnuplot[0]) {
            res->bad_input = true;
            return mmb_failf(err, errlen, "%s", rep->plot_state);
        }
        mmb_join_append(res->warning, sizeof res->warning, "; ", rep->plot_state);
    }
    if (mmb_mkdir_p(rep->out, err, errlen) != 0 || stale_remove(rep, "figures", figure_file, err, errlen) != 0 ||
        stale_remove(rep, "gnuplot", script_file, err, errlen) != 0 || mmb_report_plot_write(rep, err, errlen) != 0)
        return -1;
    char drawing[2048] = "";
    int rc = plots ? mmb_report_gnuplot_run(rep, drawing, sizeof drawing) : 0;
    /* a failed drawing still gets its README: it says which figures are missing */
    if (mmb_report_doc_write(rep, err, errlen) != 0)
        return -1;
    res->written = true;
    res->rows = rep->data.nrows;
    res->gpus = rep->data.ngpus;
    res->files = rep->data.nfiles;
    res->figures = rep->nfigs;
    for (size_t i = 0; i < rep->nfigs; i++)
        res->drawn += rep->figs[i].drawn;
    res->seconds = mmb_seconds_now() - t0;
    return rc == 0 ? 0 : mmb_failf(err, errlen, "%s", drawing);
}

int mmb_report_write(const struct mmb_report_options *opt, struct mmb_report_result *res, char *err, size_t errlen)
{
    memset(res, 0, sizeof *res);
    struct mmb_report *rep = calloc(1, sizeof *rep);
    if (!rep)
        return mmb_failf(err, errlen, "out of memory");
    snprintf(rep->root, sizeof rep->root, "%s", opt->root);
    snprintf(rep->out, sizeof rep->out, "%s", opt->out);
    for (size_t i = 0; i < opt->nformats && i < MMB_REPORT_FORMAT_COUNT; i++)
        rep->formats[rep->nformats++] = opt->formats[i];
    rep->preset = opt->preset;
    snprintf(rep->gnuplot, sizeof rep->gnuplot, "%s", opt->gnuplot ? opt->gnuplot : "");
    snprintf(rep->command, sizeof rep->command, "%s", opt->command ? opt->command : "");
    int rc = report_run(rep, opt, res, err, errlen);
    mmb_report_data_free(&rep->data);
    free(rep->devices);
    free(rep->figs);
    free(rep->notes);
    free(rep->omits);
    free(rep);
    return rc;
}
