/* report.c - the report: the inputs (CSV files and folders searched
 * recursively), and the order of the work: read and select, write the gnuplot
 * files, draw, then write the README from what was actually drawn. */
#include "report/report.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/error.h"
#include "core/file.h"
#include "report/doc/doc.h"
#include "report/figures/gnuplot.h"
#include "report/figures/plot.h"
#include "report/input/profiles.h"
#include "report/input/select.h"
#include "report/input/state.h"
#include "results/csv_samples.h"
#include "results/shard.h"

/* ---- inputs ------------------------------------------------------------------------ */

struct paths {
    char **v;
    size_t n, cap;
};

static int paths_add(struct paths *p, const char *path)
{
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 16;
        char **v = realloc(p->v, cap * sizeof *v);
        if (!v)
            return -1;
        p->v = v;
        p->cap = cap;
    }
    if (!(p->v[p->n] = strdup(path)))
        return -1;
    p->n++;
    return 0;
}

static void paths_free(struct paths *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->v[i]);
    free(p->v);
    memset(p, 0, sizeof *p);
}

static int path_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Every *.csv below dir; hidden entries skipped, the side files of launch times
 * (x.samples.csv beside x.csv: results/csv_samples.h), and folders named bench: there
 * data/<gpu>/bench/ keeps the benchmarks' own outputs (speed.csv of
 * scripts/bench-vs-kt.sh), which are not result rows. */
static int folder_scan(const char *dir, struct paths *out, int depth, char *err, size_t errlen)
{
    if (depth > 32) {
        mmb_errorf(err, errlen, "%s: folders nested too deep (a link loop?)", dir);
        return -1;
    }
    DIR *dp = opendir(dir);
    if (!dp) {
        mmb_errorf(err, errlen, "%s: cannot open folder: %s", dir, strerror(errno));
        return -1;
    }
    int rc = 0;
    struct dirent *e;
    errno = 0;
    while (rc == 0 && (e = readdir(dp))) {
        if (e->d_name[0] == '.' || mmb_samples_path_is(e->d_name))
            continue;
        char path[4096];
        if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= sizeof path) {
            mmb_errorf(err, errlen, "%s/%s: path too long", dir, e->d_name);
            rc = -1;
            break;
        }
        struct stat st;
        char why[1200];
        if (stat(path, &st) != 0) {
            /* a link to nothing: an error only where it names a CSV this would read */
            bool dangling = mmb_file_dangling(path, why, sizeof why);
            if (dangling && ends_with(e->d_name, ".csv"))
                mmb_errorf(err, errlen, "%s: %s: expected a CSV file (restore its target, or remove the link)", path,
                           why);
            else if (!dangling)
                mmb_errorf(err, errlen, "%s: stat: %s", path, strerror(errno));
            rc = dangling && !ends_with(e->d_name, ".csv") ? 0 : -1;
        } else if (S_ISDIR(st.st_mode)) {
            if (strcmp(e->d_name, "bench") != 0)
                rc = folder_scan(path, out, depth + 1, err, errlen);
        } else if (ends_with(e->d_name, ".csv") && !S_ISREG(st.st_mode)) {
            /* a FIFO or a device named as a CSV: said, never read, never passed over */
            mmb_errorf(err, errlen, "%s: %s: expected a CSV file", path, mmb_file_kind(st.st_mode));
            rc = -1;
        } else if (S_ISREG(st.st_mode) && ends_with(e->d_name, ".csv") && paths_add(out, path) != 0) {
            mmb_errorf(err, errlen, "out of memory");
            rc = -1;
        }
        errno = 0;
    }
    if (rc == 0 && errno != 0) {
        mmb_errorf(err, errlen, "%s: readdir: %s", dir, strerror(errno));
        rc = -1;
    }
    closedir(dp);
    return rc;
}

/* A folder's shard CSVs (results/shard.h) whose merged CSV is there too: `mmbench
 * merge` put their rows in it, so reading both would count each row twice. p->v from
 * `from` on is sorted. */
static int shards_drop_merged(struct paths *p, size_t from)
{
    bool *drop = calloc(p->n - from + 1, sizeof *drop);
    if (!drop)
        return -1;
    for (size_t i = from; i < p->n; i++) {
        size_t stem;
        struct mmb_shard s;
        char merged[4200];
        const char *key = merged;
        drop[i - from] = mmb_shard_path_parse(p->v[i], &stem, &s) &&
                         (size_t)snprintf(merged, sizeof merged, "%.*s.csv", (int)stem, p->v[i]) < sizeof merged &&
                         bsearch(&key, p->v + from, p->n - from, sizeof *p->v, path_cmp);
    }
    size_t kept = from;
    for (size_t i = from; i < p->n; i++)
        if (drop[i - from])
            free(p->v[i]);
        else
            p->v[kept++] = p->v[i];
    p->n = kept;
    free(drop);
    return 0;
}

static int inputs_collect(char *const *args, size_t nargs, const char *root, struct paths *out, char *err,
                          size_t errlen)
{
    char data[4200];
    const char *deflt = data;
    snprintf(data, sizeof data, "%s/data", root);
    if (strcmp(root, ".") == 0)
        deflt = "data";
    for (size_t i = 0; i < (nargs ? nargs : 1); i++) {
        const char *arg = nargs ? args[i] : deflt;
        struct stat st;
        char why[1200];
        if (stat(arg, &st) != 0) {
            int e = errno;
            if (mmb_file_dangling(arg, why, sizeof why))
                mmb_errorf(err, errlen, "%s: %s: expected a CSV file or a folder of them", arg, why);
            else
                mmb_errorf(err, errlen, "%s: %s%s", arg, strerror(e),
                           nargs ? "" : " (the default input; name CSV files or folders, or set MMB_SOURCE_ROOT)");
            return -1;
        }
        size_t before = out->n;
        if (S_ISDIR(st.st_mode)) {
            if (folder_scan(arg, out, 0, err, errlen) != 0)
                return -1;
            if (out->n == before) {
                mmb_errorf(err, errlen, "%s: no *.csv file in this folder", arg);
                return -1;
            }
            /* the same order on every machine, whatever readdir returns */
            qsort(out->v + before, out->n - before, sizeof *out->v, path_cmp);
            if (shards_drop_merged(out, before) != 0) {
                mmb_errorf(err, errlen, "out of memory");
                return -1;
            }
        } else if (!S_ISREG(st.st_mode)) {
            /* a device or a FIFO would be read until memory runs out, or forever */
            mmb_errorf(err, errlen, "%s: %s: expected a CSV file or a folder of them", arg, mmb_file_kind(st.st_mode));
            return -1;
        } else if (paths_add(out, arg) != 0) {
            mmb_errorf(err, errlen, "out of memory");
            return -1;
        }
    }
    /* two files of one shard, or shards of two N, would count runs twice */
    return mmb_shard_paths_check(out->v, out->n, err, errlen);
}

/* The path the README shows: relative to the source root when under it. */
static const char *path_shown(const char *path, const char *root)
{
    size_t n = strlen(root);
    if (strcmp(root, ".") != 0 && strncmp(path, root, n) == 0 && path[n] == '/')
        return path + n + 1;
    if (strncmp(path, "./", 2) == 0)
        return path + 2;
    return path;
}

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
    struct paths in = {0};
    res->bad_input = true;
    int rc = inputs_collect(opt->inputs, opt->ninputs, rep->root, &in, err, errlen);
    for (size_t i = 0; rc == 0 && i < in.n; i++)
        rc = mmb_report_data_add_csv(&rep->data, in.v[i], path_shown(in.v[i], rep->root), err, errlen);
    paths_free(&in);
    if (rc != 0 ||
        mmb_report_select(&rep->data, opt->profile, opt->dtype, opt->cache, opt->size, err, errlen) != 0)
        return -1;
    res->bad_input = false;
    snprintf(res->warning, sizeof res->warning, "%s", rep->data.warnings);
    if (!(rep->devices = mmb_report_devices_read(rep->root, &rep->data)))
        return mmb_failf(err, errlen, "out of memory");
    mmb_report_profiles_rank(&rep->data, rep->root);
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
