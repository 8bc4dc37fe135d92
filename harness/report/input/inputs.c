/* inputs.c - the CSV files a report or an export reads (inputs.h): named files, and
 * folders searched recursively in name order. */
#include "report/input/inputs.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/error.h"
#include "core/file.h"
#include "results/csv_samples.h"
#include "results/shard.h"

static int paths_add(struct mmb_report_inputs *p, const char *path)
{
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 16;
        char **v = realloc(p->paths, cap * sizeof *v);
        if (!v)
            return -1;
        p->paths = v;
        p->cap = cap;
    }
    if (!(p->paths[p->n] = strdup(path)))
        return -1;
    p->n++;
    return 0;
}

void mmb_report_inputs_free(struct mmb_report_inputs *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->paths[i]);
    free(p->paths);
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
static int folder_scan(const char *dir, struct mmb_report_inputs *out, int depth, char *err, size_t errlen)
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
        size_t dl = strlen(dir);
        if ((size_t)snprintf(path, sizeof path, "%.*s/%s", (int)(dl > 1 && dir[dl - 1] == '/' ? dl - 1 : dl), dir,
                             e->d_name) >= sizeof path) {
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
 * merge` put their rows in it, so reading both would count each row twice. p->paths from
 * `from` on is sorted. */
static int shards_drop_merged(struct mmb_report_inputs *p, size_t from)
{
    bool *drop = calloc(p->n - from + 1, sizeof *drop);
    if (!drop)
        return -1;
    for (size_t i = from; i < p->n; i++) {
        size_t stem;
        struct mmb_shard s;
        char merged[4200];
        const char *key = merged;
        drop[i - from] = mmb_shard_path_parse(p->paths[i], &stem, &s) &&
                         (size_t)snprintf(merged, sizeof merged, "%.*s.csv", (int)stem, p->paths[i]) < sizeof merged &&
                         bsearch(&key, p->paths + from, p->n - from, sizeof *p->paths, path_cmp);
    }
    size_t kept = from;
    for (size_t i = from; i < p->n; i++)
        if (drop[i - from])
            free(p->paths[i]);
        else
            p->paths[kept++] = p->paths[i];
    p->n = kept;
    free(drop);
    return 0;
}

int mmb_report_inputs_collect(char *const *args, size_t nargs, const char *root, struct mmb_report_inputs *out,
                              char *err, size_t errlen)
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
            qsort(out->paths + before, out->n - before, sizeof *out->paths, path_cmp);
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
    return mmb_shard_paths_check(out->paths, out->n, err, errlen);
}

/* The path the README shows: relative to the source root when under it. */
const char *mmb_report_inputs_shown(const char *path, const char *root)
{
    size_t n = strlen(root);
    if (strcmp(root, ".") != 0 && strncmp(path, root, n) == 0 && path[n] == '/')
        return path + n + 1;
    if (strncmp(path, "./", 2) == 0)
        return path + 2;
    return path;
}

int mmb_report_inputs_read(char *const *args, size_t nargs, const char *root, struct mmb_report_data *d, char *err,
                           size_t errlen)
{
    struct mmb_report_inputs in = {0};
    int rc = mmb_report_inputs_collect(args, nargs, root, &in, err, errlen);
    for (size_t i = 0; rc == 0 && i < in.n; i++)
        rc = mmb_report_data_add_csv(d, in.paths[i], mmb_report_inputs_shown(in.paths[i], root), err, errlen);
    mmb_report_inputs_free(&in);
    return rc;
}
