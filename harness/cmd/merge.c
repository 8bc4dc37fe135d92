/* merge.c - `mmbench merge PROFILE.ini [--data-dir DIR] [--tune]`: in every GPU folder,
 * the shards' CSVs of the profile (<name>.shard-K-of-N.csv, tune's tune-<name>...)
 * and the merged CSV already there become the unsharded CSV: each configuration once
 * per GPU that measured it, in the order of an unsharded sweep. It says how many rows
 * each shard gave and which of the profile's runs no shard has, and refuses shards
 * of different N, two files of one shard, and rows that are not the profile's runs. */
#include "cmd/merge.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/common.h"
#include "cmd/options.h"
#include "core/cache.h"
#include "core/error.h"
#include "results/csv.h"
#include "results/csv_name.h"
#include "results/csv_samples.h"
#include "results/resume.h"
#include "results/shard.h"

/* Missing runs listed by name at most; the rest are counted. */
#define MISSING_SHOWN 20
/* Inputs of one folder at most: the merged CSV and the shards (MMB_SHARD_MAX). */
#define MERGE_FILES_MAX (MMB_SHARD_MAX + 1)

struct entry {
    struct mmb_row row;
    char *key;     /* mmb_row_key with the device: one row per key */
    size_t order;  /* among the profile's runs; SIZE_MAX: not one of them */
    size_t seq;    /* input order */
    size_t file;   /* the input it came from (merge.samples) */
};

struct expected {
    char *key;     /* mmb_row_key without the device */
    size_t order;
    bool counted;  /* an allowed run, missing when no file has it (restricted and
                      invalid ones have rows only sometimes) */
    bool seen;
};

struct merge {
    const struct mmb_profile *p;
    bool tune;
    struct expected *exp;
    size_t nexp, capexp;
    struct entry *rows;
    size_t n, cap;
    struct mmb_samples_set *samples[MERGE_FILES_MAX]; /* of each input, by entry.file */
    size_t nfiles;
};

/* ---- the profile's runs ---- */

static void key_of_run(const struct mmb_profile *p, const struct mmb_shard_run *run, char *key, size_t len)
{
    struct mmb_row row;
    mmb_row_init(&row);
    snprintf(row.kernel, sizeof row.kernel, "%s", run->kernel->name);
    snprintf(row.params, sizeof row.params, "%s", run->params);
    snprintf(row.dtype, sizeof row.dtype, "%s", mmb_dtype_info(run->dtype)->text);
    snprintf(row.cache, sizeof row.cache, "%s", mmb_cache_text(p->cache));
    row.m = run->size->m;
    row.n = run->size->n;
    row.k = run->size->k;
    mmb_row_key(&row, false, key, len);
}

static int add_expected(void *ctx, const struct mmb_shard_run *run)
{
    struct merge *m = ctx;
    if (m->nexp == m->capexp) {
        size_t cap = m->capexp ? 2 * m->capexp : 256;
        struct expected *e = realloc(m->exp, cap * sizeof *e);
        if (!e)
            return -1;
        m->exp = e;
        m->capexp = cap;
    }
    char key[MMB_ROW_KEY_LEN];
    key_of_run(m->p, run, key, sizeof key);
    if (!(m->exp[m->nexp].key = strdup(key)))
        return -1;
    m->exp[m->nexp].order = m->nexp;
    m->exp[m->nexp].counted = run->allowed == 1;
    m->exp[m->nexp].seen = false;
    m->nexp++;
    return 0;
}

static int expected_cmp(const void *a, const void *b)
{
    return strcmp(((const struct expected *)a)->key, ((const struct expected *)b)->key);
}

/* ---- rows ---- */

static struct expected *expected_find(const struct merge *m, const char *key)
{
    struct expected probe = {.key = (char *)key};
    return m->nexp ? bsearch(&probe, m->exp, m->nexp, sizeof *m->exp, expected_cmp) : NULL;
}

/* Whether a tune of the profile can have written row: its profile, one of its kernels
 * (or the reference library kernel that tune measures at every problem) at one of the
 * kernel's configurations and dtypes, in the profile's cache mode. A tune's sizes may
 * come from its command line, so they are not checked. */
static bool tune_wrote(const struct mmb_profile *p, const struct mmb_row *row)
{
    enum mmb_dtype dtype;
    if (!mmb_dtype_parse(row->dtype, &dtype) || !(p->dtypes & (1u << dtype)) ||
        strcmp(row->cache, mmb_cache_text(p->cache)) != 0)
        return false;
    if (!strcmp(row->kernel, mmb_row_reference_kernel()))
        return !row->params[0];
    for (int i = 0; i < p->nkernels; i++) {
        const struct mmb_kernel_spec *k = &p->kernels[i];
        struct mmb_config cfg;
        size_t index;
        if (!strcmp(k->name, row->kernel))
            return mmb_kernel_runs_dtype(p, k, dtype) && mmb_space_parse_params(k, row->params, &cfg, &index) == 0;
    }
    return false;
}

/* A row that is not the profile's is bad input: the files of another profile, or of
 * the profile before an edit, would otherwise be written into its merged CSV. */
static int row_belongs(const struct merge *m, const struct mmb_row *row, const char *path, long line, char *err,
                       size_t errlen)
{
    const struct mmb_profile *p = m->p;
    char key[MMB_ROW_KEY_LEN];
    mmb_row_key(row, false, key, sizeof key);
    bool ours = !row->profile[0] || !strcmp(row->profile, p->name);
    if (ours && (m->tune ? tune_wrote(p, row) : expected_find(m, key) != NULL))
        return 0;
    return mmb_failf(err, errlen, "%s:%ld: a row of profile '%s', kernel %s (%s) at %lldx%lldx%lld, %s, cache %s: "
                     "not %s profile '%s' (%s); expected only its rows: merge another profile's files with that "
                     "profile, or remove the row", path, line, row->profile[0] ? row->profile : "(none)", row->kernel,
                     row->params[0] ? row->params : "no parameters", row->m, row->n, row->k, row->dtype, row->cache,
                     m->tune ? "a row that a tune writes of" : "a run of", p->name, p->path);
}

static int add_row(void *ctx, const struct mmb_row *row, const char *path, long line, char *err, size_t errlen)
{
    struct merge *m = ctx;
    if (row_belongs(m, row, path, line, err, errlen) != 0)
        return -1;
    if (m->n == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 1024;
        struct entry *e = realloc(m->rows, cap * sizeof *e);
        if (!e)
            return mmb_failf(err, errlen, "%s:%ld: out of memory", path, line);
        m->rows = e;
        m->cap = cap;
    }
    struct entry *e = &m->rows[m->n];
    char key[MMB_ROW_KEY_LEN];
    mmb_row_key(row, true, key, sizeof key);
    if (!(e->key = strdup(key)))
        return mmb_failf(err, errlen, "%s:%ld: out of memory", path, line);
    e->row = *row;
    e->order = SIZE_MAX;
    e->seq = m->n++;
    e->file = m->nfiles - 1;
    return 0;
}

/* By key, then in the order read. */
static int keep_cmp(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

static int order_cmp(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;
    if (x->order != y->order)
        return x->order < y->order ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

static void rows_free(struct merge *m)
{
    for (size_t i = 0; i < m->n; i++)
        free(m->rows[i].key);
    free(m->rows);
    m->rows = NULL;
    m->n = m->cap = 0;
    for (size_t i = 0; i < m->nexp; i++)
        m->exp[i].seen = false;
    for (size_t i = 0; i < m->nfiles; i++)
        mmb_samples_free(m->samples[i]);
    m->nfiles = 0;
}

/* Keeps one row per key, marks the profile's runs seen and puts the rows in the
 * profile's order. *copies counts the rows dropped as copies of the kept one (the
 * merged file's copy of a shard's row: same status and time stamp), *dropped the
 * other measurements of a kept row's configuration on its GPU. */
static void rows_settle(struct merge *m, size_t *copies, size_t *dropped)
{
    if (m->n > 1)
        qsort(m->rows, m->n, sizeof *m->rows, keep_cmp);
    size_t kept = 0;
    *copies = *dropped = 0;
    for (size_t i = 0; i < m->n;) {
        /* the rows of one key, in the order read: the one that counts (results/resume.h) */
        size_t end = i + 1, win = i;
        struct mmb_row_version vw, v;
        mmb_row_version_of(&m->rows[i].row, &vw);
        for (; end < m->n && !strcmp(m->rows[end].key, m->rows[i].key); end++) {
            mmb_row_version_of(&m->rows[end].row, &v);
            if (mmb_row_version_replaces(&vw, &v)) {
                win = end;
                vw = v;
            }
        }
        const struct entry *w = &m->rows[win];
        for (size_t j = i; j < end; j++) {
            if (j == win)
                continue;
            bool copy = w->row.status == m->rows[j].row.status && !strcmp(w->row.timestamp, m->rows[j].row.timestamp);
            ++*(copy ? copies : dropped);
            free(m->rows[j].key);
        }
        struct entry keep = *w;
        m->rows[kept++] = keep;
        i = end;
    }
    m->n = kept;
    for (size_t i = 0; i < m->n; i++) {
        char key[MMB_ROW_KEY_LEN];
        mmb_row_key(&m->rows[i].row, false, key, sizeof key);
        struct expected *e = expected_find(m, key);
        if (e) {
            e->seen = true;
            m->rows[i].order = e->order;
        }
    }
    if (m->n > 1)
        qsort(m->rows, m->n, sizeof *m->rows, order_cmp);
}

/* ---- files ---- */

/* Reads a CSV's rows into m; a last line without its newline (a shard stopped in the
 * middle of a row, which its next run cuts off) is left out and said. */
static int rows_read(struct merge *m, const char *path, char *err, size_t errlen)
{
    bool partial = false;
    if (m->nfiles == MERGE_FILES_MAX)
        return mmb_failf(err, errlen, "%s: more than %d files to merge", path, MERGE_FILES_MAX);
    if (mmb_samples_load(path, &m->samples[m->nfiles], err, errlen) != 0)
        return -1;
    m->nfiles++;
    int rc = mmb_csv_read_appended(path, add_row, m, &partial, err, errlen);
    if (rc == 0 && partial)
        printf("  %s: its last line is half a row (stopped while writing it), left out\n", path);
    return rc;
}

struct shard_files {
    unsigned n;                 /* the shards' N; 0: none found */
    char **path;                /* [k - 1]: shard k's file, NULL when absent */
};

static void shard_files_free(struct shard_files *f)
{
    for (unsigned k = 0; f->path && k < f->n; k++)
        free(f->path[k]);
    free(f->path);
    memset(f, 0, sizeof *f);
}

static int path_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The shard files of stem (a folder and the file name without .csv) in dir, in name
 * order. Returns 0, MMB_EXIT_BAD_INPUT with err (two files of one shard, shards of
 * two N) or MMB_EXIT_FAILED with err. */
static int shard_files_find(const char *dir, const char *stem, struct shard_files *f, char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    DIR *dp = opendir(dir);
    if (!dp) {
        mmb_errorf(err, errlen, "%s: cannot open folder: %s", dir, strerror(errno));
        return MMB_EXIT_FAILED;
    }
    char **found = NULL;
    size_t nfound = 0, cap = 0;
    struct dirent *e;
    int rc = 0;
    while (rc == 0 && (e = readdir(dp))) {
        char path[MMB_PATH_MAX + 256];
        size_t stem_len;
        struct mmb_shard s;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (!mmb_shard_path_parse(path, &stem_len, &s) || strlen(stem) != stem_len || strncmp(path, stem, stem_len))
            continue;
        if (nfound == cap) {
            cap = cap ? 2 * cap : 8;
            char **v = realloc(found, cap * sizeof *v);
            if (!v) {
                rc = MMB_EXIT_FAILED;
                break;
            }
            found = v;
        }
        if (!(found[nfound] = strdup(path)))
            rc = MMB_EXIT_FAILED;
        else
            nfound++;
    }
    closedir(dp);
    if (rc)
        mmb_errorf(err, errlen, "out of memory");
    else if (nfound > 1)
        qsort(found, nfound, sizeof *found, path_cmp);
    if (rc == 0 && mmb_shard_paths_check(found, nfound, err, errlen) != 0)
        rc = MMB_EXIT_BAD_INPUT;
    for (size_t i = 0; i < nfound; i++) {
        size_t stem_len;
        struct mmb_shard s;
        if (rc == 0 && !f->path && mmb_shard_path_parse(found[i], &stem_len, &s)) {
            f->n = s.n;
            if (!(f->path = calloc(s.n, sizeof *f->path))) {
                mmb_errorf(err, errlen, "out of memory");
                rc = MMB_EXIT_FAILED;
            }
        }
        if (rc == 0 && mmb_shard_path_parse(found[i], &stem_len, &s)) {
            f->path[s.k - 1] = found[i]; /* one file per shard: checked above */
            continue;
        }
        free(found[i]);
    }
    free(found);
    if (rc)
        shard_files_free(f);
    return rc;
}

/* Writes the rows to path, and the launch times of those that have them to its side
 * file (results/csv_samples.h), each through a file beside it renamed over it at the
 * end: the side file first, so that no row of the new CSV lacks its times. */
static int rows_write(const struct merge *m, const char *path, char *err, size_t errlen)
{
    char tmp[MMB_PATH_MAX + 32], tmp_samples[MMB_PATH_MAX + 64], samples[MMB_PATH_MAX + 32];
    snprintf(tmp, sizeof tmp, "%s.merging", path);
    if (mmb_samples_path(tmp, tmp_samples, sizeof tmp_samples) != 0 ||
        mmb_samples_path(path, samples, sizeof samples) != 0)
        return mmb_failf(err, errlen, "%s: path too long", path);
    if ((remove(tmp) != 0 && errno != ENOENT) || (remove(tmp_samples) != 0 && errno != ENOENT))
        return mmb_failf(err, errlen, "%s: cannot remove: %s", tmp, strerror(errno));
    struct mmb_csv_writer *w = mmb_csv_writer_open(tmp, err, errlen);
    if (!w)
        return -1;
    struct mmb_samples_writer *sw = mmb_samples_writer_open(tmp, err, errlen);
    int rc = sw ? 0 : -1;
    size_t timed = 0;
    for (size_t i = 0; i < m->n && rc == 0; i++) {
        const struct entry *e = &m->rows[i];
        size_t n = 0;
        const double *t = mmb_samples_find(m->samples[e->file], &e->row, &n);
        if (t && (rc = mmb_samples_append(sw, &e->row, t, n, err, errlen)) != 0)
            break;
        timed += t != NULL;
        rc = mmb_csv_append_row(w, &e->row, err, errlen);
    }
    mmb_samples_writer_close(sw);
    mmb_csv_writer_close(w);
    if (rc == 0 && timed && rename(tmp_samples, samples) != 0)
        rc = mmb_failf(err, errlen, "%s: cannot rename to %s: %s", tmp_samples, samples, strerror(errno));
    if (rc == 0 && rename(tmp, path) != 0)
        rc = mmb_failf(err, errlen, "%s: cannot rename to %s: %s", tmp, path, strerror(errno));
    if (!timed)
        remove(tmp_samples);
    return rc;
}

/* ---- one folder ---- */

static void missing_report(const struct merge *m, unsigned n, const char *out)
{
    size_t missing = 0, counted = 0;
    for (size_t i = 0; i < m->nexp; i++) {
        missing += m->exp[i].counted && !m->exp[i].seen;
        counted += m->exp[i].counted;
    }
    printf("  %zu of the profile's %zu runs missing\n", missing, counted);
    size_t shown = 0;
    for (size_t i = 0; i < m->nexp && shown < MISSING_SHOWN; i++) {
        if (!m->exp[i].counted || m->exp[i].seen)
            continue;
        char text[MMB_ROW_KEY_LEN], *f[7] = {NULL};
        snprintf(text, sizeof text, "%s", m->exp[i].key);
        f[0] = text;
        for (int c = 1; c < 7 && f[c - 1]; c++)
            if ((f[c] = strchr(f[c - 1], '\x1f')))
                *f[c]++ = '\0';
        if (!f[6])
            continue;
        unsigned shard = mmb_shard_of(f[0], f[1], f[2], atoll(f[3]), atoll(f[4]), atoll(f[5]), n);
        printf("    missing: %s %s %s %sx%sx%s (shard %u/%u)\n", f[0], f[1][0] ? f[1] : "-", f[2], f[3], f[4], f[5],
               shard, n);
        shown++;
    }
    if (missing > shown)
        printf("    ... and %zu more\n", missing - shown);
    if (missing)
        fprintf(stderr, "mmbench merge: %s: %zu runs missing; run their shards again (mmbench run --shard K/N "
                "resumes), then merge again\n", out, missing);
}

/* Merges stem's shards in one GPU folder. Returns 0, 1 (runs missing, a file not
 * written), 2 (shards of different N, a bad CSV), or -1 when there is nothing here. */
static int merge_folder(struct merge *m, const char *dir, const char *name)
{
    char stem[MMB_PATH_MAX], out[MMB_PATH_MAX + 8], err[2048];
    snprintf(stem, sizeof stem, "%s/%s", dir, name);
    snprintf(out, sizeof out, "%s.csv", stem);
    struct shard_files f;
    int rc = shard_files_find(dir, stem, &f, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "mmbench merge: %s\n", err);
        return rc;
    }
    if (!f.n)
        return -1;
    printf("%s: %s.csv from shards of %u\n", dir, name, f.n);
    struct stat st;
    if (stat(out, &st) == 0) {
        if (rows_read(m, out, err, sizeof err) != 0)
            rc = MMB_EXIT_BAD_INPUT;
        printf("  %-12s %zu rows (%s, merged before)\n", "merged", m->n, out);
    }
    unsigned absent = 0;
    for (unsigned k = 1; k <= f.n && rc == 0; k++) {
        size_t at = m->n;
        if (!f.path[k - 1]) {
            printf("  shard %u/%u    no file\n", k, f.n);
            absent++;
        } else if (rows_read(m, f.path[k - 1], err, sizeof err) != 0) {
            rc = MMB_EXIT_BAD_INPUT;
        } else {
            printf("  shard %u/%-5u %zu rows\n", k, f.n, m->n - at);
        }
    }
    if (rc) {
        fprintf(stderr, "mmbench merge: %s\n", err);
    } else {
        size_t read = m->n, copies, dropped;
        rows_settle(m, &copies, &dropped);
        if (rows_write(m, out, err, sizeof err) != 0) {
            fprintf(stderr, "mmbench merge: %s\n", err);
            rc = MMB_EXIT_FAILED;
        } else {
            printf("  %zu rows -> %s; of the %zu read, %zu were copies merged before and %zu a second row of a "
                   "configuration on one GPU (the row that counts kept: docs/profiles.md)\n", m->n, out, read, copies,
                   dropped);
        }
        if (!m->tune)
            missing_report(m, f.n, out);
        size_t missing = 0;
        for (size_t i = 0; i < m->nexp && !m->tune; i++)
            missing += m->exp[i].counted && !m->exp[i].seen;
        if (rc == 0 && (missing || absent))
            rc = MMB_EXIT_FAILED;
    }
    rows_free(m);
    shard_files_free(&f);
    return rc;
}

/* ---- the command ---- */

/* Every GPU folder of data_dir (its sub-folders, hidden ones left out), sorted.
 * Returns 0, MMB_EXIT_BAD_INPUT when data_dir is no folder, or MMB_EXIT_FAILED. */
static int folders_list(const char *data_dir, char ***out, size_t *n)
{
    DIR *dp = opendir(data_dir);
    *out = NULL;
    *n = 0;
    if (!dp) {
        fprintf(stderr, "mmbench merge: %s: cannot open folder: %s; expected the folder of the per-GPU results "
                "(--data-dir)\n", data_dir, strerror(errno));
        return MMB_EXIT_BAD_INPUT;
    }
    struct dirent *e;
    size_t cap = 0;
    int rc = 0;
    while (rc == 0 && (e = readdir(dp))) {
        char path[MMB_PATH_MAX];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", data_dir, e->d_name);
        if (e->d_name[0] == '.' || stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
            continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 16;
            char **v = realloc(*out, cap * sizeof *v);
            if (!v) {
                rc = -1;
                break;
            }
            *out = v;
        }
        if (!((*out)[*n] = strdup(path)))
            rc = -1;
        else
            ++*n;
    }
    closedir(dp);
    if (rc) {
        fprintf(stderr, "mmbench merge: out of memory\n");
        while (*n)
            free((*out)[--*n]);
        free(*out);
        *out = NULL;
        return MMB_EXIT_FAILED;
    }
    if (*n > 1)
        qsort(*out, *n, sizeof **out, path_cmp);
    return 0;
}

static int merge_all(struct merge *m, const char *data_dir, const char *name)
{
    char **dirs;
    size_t ndirs;
    int rc = folders_list(data_dir, &dirs, &ndirs);
    if (rc)
        return rc;
    size_t merged = 0;
    for (size_t i = 0; i < ndirs; i++) {
        int r = merge_folder(m, dirs[i], name);
        merged += r >= 0;
        if (r > 0 && (r == MMB_EXIT_BAD_INPUT || !rc))
            rc = r;
        free(dirs[i]);
    }
    free(dirs);
    if (!merged) {
        fprintf(stderr, "mmbench merge: no shard file of profile '%s' in the GPU folders of %s (expected "
                "%s/<gpu>/%s.shard-K-of-N.csv)\n", m->p->name, data_dir, data_dir, name);
        rc = MMB_EXIT_BAD_INPUT;
    }
    return rc;
}

int mmb_cmd_merge(int argc, char **argv)
{
    struct mmb_cmd_settings s;
    int rc = mmb_cmd_options_parse(MMB_CMD_MERGE, argc, argv, &s);
    if (rc)
        return rc > 0 ? 0 : MMB_EXIT_BAD_INPUT;
    const char *data_dir = s.data_dir;
    bool tune = s.tune_files;
    struct mmb_profile *p = calloc(1, sizeof *p);
    if (!p) {
        perror("mmbench merge");
        return MMB_EXIT_FAILED;
    }
    struct mmb_metric_set metrics;
    if (mmb_cmd_load_profile("merge", s.profile, p, &metrics) != 0) {
        free(p);
        return MMB_EXIT_BAD_INPUT;
    }
    struct merge m = {.p = p, .tune = tune};
    struct mmb_shard all = {0, 0};
    char name[128];
    if (mmb_csv_name_stem(p->name, tune, name, sizeof name) != 0) {
        fprintf(stderr, "mmbench merge: profile '%s': too long a name for its results file\n", p->name);
        rc = MMB_EXIT_BAD_INPUT;
    } else if (!tune && mmb_shard_each_run(p, &all, add_expected, &m) != 0) {
        fprintf(stderr, "mmbench merge: out of memory\n");
        rc = MMB_EXIT_FAILED;
    } else {
        if (m.nexp > 1)
            qsort(m.exp, m.nexp, sizeof *m.exp, expected_cmp);
        rc = merge_all(&m, data_dir, name);
    }
    for (size_t i = 0; i < m.nexp; i++)
        free(m.exp[i].key);
    free(m.exp);
    mmb_profile_free(p);
    free(p);
    return rc;
}
