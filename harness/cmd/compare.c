/* compare.c - `mmbench compare OLD NEW`: the pairs of results files (two CSVs; the
 * CSVs of one name in two folders; two GPU folders of DATA with --gpus), each file's
 * rows that count (results/resume.h), the configurations both files have, a verdict
 * for each (results/compare/compare.h), printed as text or Markdown with a summary line. */
#include "cmd/compare.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/common.h"
#include "cmd/options.h"
#include "core/error.h"
#include "results/compare/compare.h"
#include "results/csv.h"
#include "results/csv_name.h"
#include "results/csv_samples.h"
#include "results/resume.h"

/* ---- one side: a file's rows that count ------------------------------------------------ */

struct keyed {
    char *key; /* mmb_row_key, with or without the device */
    size_t row;
};

struct side {
    const char *path;
    struct mmb_row *rows;
    size_t n, cap;
    struct mmb_samples_set *samples;
    struct keyed *counted;   /* the rows that count, one per configuration, sorted by key */
    size_t ncounted;
    size_t gpus_merged;      /* configurations measured on several GPUs (or for several profiles) of
                              * the file: the latest taken */
};

static int side_row(void *ctx, const struct mmb_row *row, const char *path, long line, char *err, size_t errlen)
{
    struct side *s = ctx;
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 256;
        struct mmb_row *r = realloc(s->rows, cap * sizeof *r);
        if (!r)
            return mmb_failf(err, errlen, "%s:%ld: out of memory", path, line);
        s->rows = r;
        s->cap = cap;
    }
    s->rows[s->n++] = *row;
    return 0;
}

static int keyed_cmp(const void *a, const void *b)
{
    const struct keyed *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->row > y->row) - (x->row < y->row);
}

/* Of the entries k[0..n), sorted by key then row, one per key: the row that counts
 * (folded in file order); returns how many, compacted at the front. *groups_over_one
 * counts the keys with more than one row. */
static size_t fold(const struct side *s, struct keyed *k, size_t n, size_t *groups_over_one)
{
    size_t out = 0;
    for (size_t i = 0; i < n;) {
        size_t end = i + 1, win = i;
        struct mmb_row_version vw, v;
        mmb_row_version_of(&s->rows[k[i].row], &vw);
        for (; end < n && !strcmp(k[end].key, k[i].key); end++) {
            mmb_row_version_of(&s->rows[k[end].row], &v);
            if (mmb_row_version_replaces(&vw, &v)) {
                win = end;
                vw = v;
            }
        }
        if (groups_over_one)
            *groups_over_one += end - i > 1;
        struct keyed keep = k[win];
        for (size_t j = i; j < end; j++)
            if (j != win)
                free(k[j].key);
        k[out++] = keep;
        i = end;
    }
    return out;
}

static int side_load(struct side *s, const char *path, char *err, size_t errlen)
{
    s->path = path;
    if (mmb_csv_read(path, side_row, s, err, errlen) != 0 || mmb_samples_load(path, &s->samples, err, errlen) != 0)
        return -1;
    s->counted = calloc(s->n ? s->n : 1, sizeof *s->counted);
    if (!s->counted)
        return mmb_failf(err, errlen, "%s: out of memory", path);
    /* the row that counts of each configuration on each GPU, then of each configuration */
    char key[MMB_ROW_KEY_LEN + 80];
    for (size_t i = 0; i < s->n; i++) {
        /* a file may hold the rows of several profiles (-o): each keeps its own first */
        size_t len = (size_t)snprintf(key, sizeof key, "%s\x1f", s->rows[i].profile);
        mmb_row_key(&s->rows[i], true, key + len, sizeof key - len);
        s->counted[i] = (struct keyed){strdup(key), i};
        s->ncounted = i + 1;
        if (!s->counted[i].key)
            return mmb_failf(err, errlen, "%s: out of memory", path);
    }
    qsort(s->counted, s->n, sizeof *s->counted, keyed_cmp);
    size_t m = fold(s, s->counted, s->n, NULL);
    s->ncounted = m;
    for (size_t i = 0; i < m; i++) {
        mmb_row_key(&s->rows[s->counted[i].row], false, key, sizeof key);
        free(s->counted[i].key);
        if (!(s->counted[i].key = strdup(key)))
            return mmb_failf(err, errlen, "%s: out of memory", path);
    }
    qsort(s->counted, m, sizeof *s->counted, keyed_cmp);
    s->ncounted = fold(s, s->counted, m, &s->gpus_merged);
    return 0;
}

static void side_free(struct side *s)
{
    for (size_t i = 0; s->counted && i < s->ncounted; i++)
        free(s->counted[i].key);
    free(s->rows);
    free(s->counted);
    mmb_samples_free(s->samples);
    memset(s, 0, sizeof *s);
}

static const struct mmb_row *side_find(const struct side *s, const char *key)
{
    size_t lo = 0, hi = s->ncounted;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (strcmp(s->counted[mid].key, key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->ncounted && !strcmp(s->counted[lo].key, key) ? &s->rows[s->counted[lo].row] : NULL;
}

/* ---- the output ------------------------------------------------------------------------- */

#define COLS 11
static const char *const headings[COLS] = {"kernel", "params", "dtype", "size",    "cache", "old ms",
                                           "new ms", "new/old", "95% interval", "verdict", "notes"};

struct table {
    char *(*cells)[COLS];
    size_t n, cap;
};

static int table_add(struct table *t, char cells[COLS][512])
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        char *(*c)[COLS] = realloc(t->cells, cap * sizeof *c);
        if (!c)
            return -1;
        t->cells = c;
        t->cap = cap;
    }
    for (int i = 0; i < COLS; i++)
        if (!(t->cells[t->n][i] = strdup(cells[i]))) {
            while (i--)
                free(t->cells[t->n][i]);
            return -1;
        }
    t->n++;
    return 0;
}

static void table_free(struct table *t)
{
    for (size_t r = 0; r < t->n; r++)
        for (int i = 0; i < COLS; i++)
            free(t->cells[r][i]);
    free(t->cells);
    memset(t, 0, sizeof *t);
}

/* A Markdown cell: '|' escaped. */
static void md_cell(FILE *f, const char *s)
{
    for (; *s; s++)
        fprintf(f, "%s", *s == '|' ? "\\|" : (char[2]){*s, 0});
}

static void table_print(const struct table *t, bool md, FILE *f)
{
    size_t width[COLS];
    for (int i = 0; i < COLS; i++) {
        width[i] = strlen(headings[i]);
        for (size_t r = 0; r < t->n; r++)
            if (strlen(t->cells[r][i]) > width[i])
                width[i] = strlen(t->cells[r][i]);
    }
    static const bool right[COLS] = {false, false, false, false, false, true, true, true, false, false, false};
    if (md) {
        for (int i = 0; i < COLS; i++)
            fprintf(f, "| %s ", headings[i]);
        fprintf(f, "|\n");
        for (int i = 0; i < COLS; i++)
            fprintf(f, "| %s ", right[i] ? "---:" : "---");
        fprintf(f, "|\n");
        for (size_t r = 0; r < t->n; r++) {
            for (int i = 0; i < COLS; i++) {
                fprintf(f, "| ");
                md_cell(f, t->cells[r][i]);
                fprintf(f, " ");
            }
            fprintf(f, "|\n");
        }
        return;
    }
    for (size_t r = 0; r <= t->n; r++) {
        for (int i = 0; i < COLS; i++) {
            const char *c = r == 0 ? headings[i] : t->cells[r - 1][i];
            fprintf(f, right[i] ? "%*s%s" : "%-*s%s", (int)(i + 1 < COLS ? width[i] : 0), c, i + 1 < COLS ? "  " : "");
        }
        fprintf(f, "\n");
    }
}

/* ---- comparing two files ---------------------------------------------------------------- */

struct tally {
    size_t verdicts[MMB_VERDICT_COUNT];
    size_t compared, samples_both, summary_only, not_ok, protocol_left_out, protocol_compared, unrecorded;
    size_t only_old, only_new, gpus_merged;
    char protocol_why[160];
    double largest;            /* |log ratio| of the largest FASTER or SLOWER */
    char largest_text[512];
};

static void size_text(const struct mmb_row *r, char *out, size_t len)
{
    if (r->m == r->n && r->n == r->k)
        snprintf(out, len, "%lld", r->m);
    else
        snprintf(out, len, "%lldx%lldx%lld", r->m, r->n, r->k);
}

static void ms_text(double v, char *out, size_t len)
{
    if (isnan(v))
        snprintf(out, len, "-");
    else
        snprintf(out, len, "%.4g", v);
}

/* One configuration both sides have: a table row and the tally. */
static int compare_pair(const struct mmb_cmd_settings *set, const struct side *a, const struct side *b,
                        const struct mmb_row *ro, const struct mmb_row *rn, struct table *t, struct tally *y)
{
    char c[COLS][512];
    snprintf(c[0], sizeof c[0], "%s", ro->kernel);
    snprintf(c[1], sizeof c[1], "%s", ro->params[0] ? ro->params : "-");
    snprintf(c[2], sizeof c[2], "%s", ro->dtype);
    size_text(ro, c[3], sizeof c[3]);
    snprintf(c[4], sizeof c[4], "%s", ro->cache[0] ? ro->cache : "-");
    ms_text(ro->status == MMB_STATUS_OK ? ro->time_ms_median : NAN, c[5], sizeof c[5]);
    ms_text(rn->status == MMB_STATUS_OK ? rn->time_ms_median : NAN, c[6], sizeof c[6]);
    if (ro->status != MMB_STATUS_OK || rn->status != MMB_STATUS_OK || isnan(ro->time_ms_median) ||
        isnan(rn->time_ms_median)) {
        y->not_ok++;
        snprintf(c[7], sizeof c[7], "-");
        snprintf(c[8], sizeof c[8], "-");
        snprintf(c[9], sizeof c[9], "-");
        snprintf(c[10], sizeof c[10], "not compared: old %s, new %s", mmb_status_text(ro->status),
                 mmb_status_text(rn->status));
        return table_add(t, c);
    }
    size_t no = 0, nn = 0;
    const double *so = mmb_samples_find(a->samples, ro, &no), *sn = mmb_samples_find(b->samples, rn, &nn);
    struct mmb_comparison cmp;
    mmb_compare_rows(ro, so, no, rn, sn, nn, set->threshold, &cmp);
    if (!cmp.timed_alike) {
        if (!y->protocol_why[0])
            snprintf(y->protocol_why, sizeof y->protocol_why, "%s", cmp.protocol_why);
        if (!set->any_protocol) {
            y->protocol_left_out++;
            return 0;
        }
        y->protocol_compared++;
    }
    y->compared++;
    y->verdicts[cmp.ratio.verdict]++;
    y->samples_both += cmp.old_basis == MMB_BASIS_SAMPLES && cmp.new_basis == MMB_BASIS_SAMPLES;
    y->summary_only += cmp.old_basis != MMB_BASIS_SAMPLES || cmp.new_basis != MMB_BASIS_SAMPLES;
    y->unrecorded += !cmp.protocol_recorded && cmp.timed_alike;
    snprintf(c[7], sizeof c[7], "%.4f", cmp.ratio.ratio);
    if (isnan(cmp.ratio.lo))
        snprintf(c[8], sizeof c[8], "-");
    else
        snprintf(c[8], sizeof c[8], "[%.4f, %.4f]", cmp.ratio.lo, cmp.ratio.hi);
    snprintf(c[9], sizeof c[9], "%s", mmb_verdict_text(cmp.ratio.verdict));
    char basis[160];
    mmb_compare_basis_note(&cmp, ro, rn, basis, sizeof basis);
    snprintf(c[10], sizeof c[10], "%s%s%s%s", basis, isnan(cmp.ratio.lo) ? ": no 95% interval" : "",
             !cmp.timed_alike ? "; protocol differs: " : !cmp.protocol_recorded ? "; protocol not recorded" : "",
             !cmp.timed_alike ? cmp.protocol_why : "");
    double d = fabs(log(cmp.ratio.ratio));
    if ((cmp.ratio.verdict == MMB_VERDICT_FASTER || cmp.ratio.verdict == MMB_VERDICT_SLOWER) && d > y->largest) {
        y->largest = d;
        snprintf(y->largest_text, sizeof y->largest_text, "%.64s %.256s %.8s %.40s %.8s: new/old %.16s %.40s %.8s",
                 c[0], c[1], c[2], c[3], c[4], c[7], c[8], c[9]);
    }
    return table_add(t, c);
}

/* Compares the files old_path and new_path: a heading, the table, their tally. */
static int compare_files(const struct mmb_cmd_settings *set, const char *old_path, const char *new_path,
                         struct tally *total, FILE *f)
{
    struct side a = {0}, b = {0};
    char err[2048];
    struct table t = {0};
    struct tally y = {0};
    int rc = 0;
    if (side_load(&a, old_path, err, sizeof err) != 0 || side_load(&b, new_path, err, sizeof err) != 0) {
        fprintf(stderr, "mmbench compare: %s\n", err);
        rc = MMB_EXIT_BAD_INPUT;
        goto out;
    }
    for (size_t i = 0; i < a.n && rc == 0; i++) {
        /* in the old file's order: the rows that count there */
        char key[MMB_ROW_KEY_LEN];
        mmb_row_key(&a.rows[i], false, key, sizeof key);
        const struct mmb_row *ro = side_find(&a, key);
        if (ro != &a.rows[i])
            continue;
        const struct mmb_row *rn = side_find(&b, key);
        if (!rn) {
            y.only_old++;
            continue;
        }
        if (compare_pair(set, &a, &b, ro, rn, &t, &y) != 0) {
            fprintf(stderr, "mmbench compare: out of memory\n");
            rc = MMB_EXIT_FAILED;
        }
    }
    y.only_new = b.ncounted - (a.ncounted - y.only_old);
    y.gpus_merged = a.gpus_merged + b.gpus_merged;
    bool md = set->format == MMB_FORMAT_MD;
    fprintf(f, md ? "### %s against %s\n\n" : "== %s (old) against %s (new)\n", old_path, new_path);
    if (t.n)
        table_print(&t, md, f);
    fprintf(f, "\n");
    for (int v = 0; v < MMB_VERDICT_COUNT; v++)
        total->verdicts[v] += y.verdicts[v];
    total->compared += y.compared;
    total->samples_both += y.samples_both;
    total->summary_only += y.summary_only;
    total->not_ok += y.not_ok;
    total->protocol_left_out += y.protocol_left_out;
    total->protocol_compared += y.protocol_compared;
    total->unrecorded += y.unrecorded;
    total->only_old += y.only_old;
    total->only_new += y.only_new;
    total->gpus_merged += y.gpus_merged;
    if (!total->protocol_why[0])
        snprintf(total->protocol_why, sizeof total->protocol_why, "%s", y.protocol_why);
    if (y.largest > total->largest) {
        total->largest = y.largest;
        snprintf(total->largest_text, sizeof total->largest_text, "%s", y.largest_text);
    }
out:
    table_free(&t);
    side_free(&a);
    side_free(&b);
    return rc;
}

/* The summary line, and what the counts rest on. */
static void summary_print(const struct mmb_cmd_settings *set, const struct tally *y, FILE *f)
{
    bool md = set->format == MMB_FORMAT_MD;
    fprintf(f, "%s%zu configurations compared (threshold %.3g%%, 95%% intervals):", md ? "**Summary.** " : "",
            y->compared, 100.0 * set->threshold);
    for (int v = 0; v < MMB_VERDICT_COUNT; v++)
        fprintf(f, "%s %zu %s", v ? "," : "", y->verdicts[v], mmb_verdict_text((enum mmb_verdict)v));
    fprintf(f, ".");
    if (y->compared)
        fprintf(f, " %zu with every launch's time on both sides, %zu from the rows' min and max (no samples)%s.",
                y->samples_both, y->summary_only,
                y->summary_only ? ": wider intervals, more UNSURE" : "");
    if (y->unrecorded)
        fprintf(f, " %zu of rows that recorded no protocol: they may have been timed otherwise.", y->unrecorded);
    if (y->protocol_compared)
        fprintf(f, " %zu timed under different protocols, compared anyway (--any-protocol; first difference: %s).",
                y->protocol_compared, y->protocol_why);
    if (y->protocol_left_out)
        fprintf(f, " %zu left out as timed under different protocols (first difference: %s): --any-protocol "
                "compares them.", y->protocol_left_out, y->protocol_why);
    if (y->not_ok)
        fprintf(f, " %zu not ok on a side, not compared.", y->not_ok);
    if (y->only_old || y->only_new)
        fprintf(f, " %zu configurations only in old, %zu only in new.", y->only_old, y->only_new);
    if (y->gpus_merged)
        fprintf(f, " %zu measured on several GPUs or for several profiles of one file: the latest row taken.",
                y->gpus_merged);
    if (y->largest > 0)
        fprintf(f, " Largest FASTER or SLOWER: %s.", y->largest_text);
    fprintf(f, "\n");
}

/* ---- what to compare -------------------------------------------------------------------- */

static bool is_folder(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The results CSVs directly in dir (not the side files of samples), sorted; with only,
 * just only.csv and tune-only.csv. */
static int folder_csvs(const char *dir, const char *only, char ***out, size_t *n)
{
    DIR *dp = opendir(dir);
    *out = NULL;
    *n = 0;
    if (!dp) {
        fprintf(stderr, "mmbench compare: %s: cannot open folder: %s\n", dir, strerror(errno));
        return MMB_EXIT_BAD_INPUT;
    }
    char want[2][160] = {"", ""};
    if (only) {
        snprintf(want[0], sizeof want[0], "%s.csv", only);
        char stem[128];
        if (mmb_csv_name_stem(only, true, stem, sizeof stem) == 0)
            snprintf(want[1], sizeof want[1], "%s.csv", stem);
    }
    size_t cap = 0;
    struct dirent *e;
    int rc = 0;
    while (rc == 0 && (e = readdir(dp))) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || len < 5 || strcmp(e->d_name + len - 4, ".csv") || mmb_samples_path_is(e->d_name))
            continue;
        if (only && strcmp(e->d_name, want[0]) && strcmp(e->d_name, want[1]))
            continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 16;
            char **v = realloc(*out, cap * sizeof *v);
            if (!v) {
                rc = MMB_EXIT_FAILED;
                break;
            }
            *out = v;
        }
        if (!((*out)[*n] = strdup(e->d_name)))
            rc = MMB_EXIT_FAILED;
        else
            ++*n;
    }
    closedir(dp);
    if (rc)
        fprintf(stderr, "mmbench compare: out of memory\n");
    else if (*n > 1)
        qsort(*out, *n, sizeof **out, name_cmp);
    return rc;
}

static void names_free(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* The CSVs of one name in both folders, compared in name order. */
static int compare_folders(const struct mmb_cmd_settings *set, const char *old_dir, const char *new_dir,
                           struct tally *y, size_t *pairs, FILE *f)
{
    char **a, **b;
    size_t na, nb;
    int rc = folder_csvs(old_dir, set->only, &a, &na);
    if (rc)
        return rc;
    if ((rc = folder_csvs(new_dir, set->only, &b, &nb)) != 0) {
        names_free(a, na);
        return rc;
    }
    for (size_t i = 0; i < na && (rc == 0 || rc == MMB_EXIT_OK); i++) {
        const char *key = a[i];
        if (!bsearch(&key, b, nb, sizeof *b, name_cmp))
            continue;
        char pa[8448], pb[8448];
        snprintf(pa, sizeof pa, "%.4096s/%.4096s", old_dir, a[i]);
        snprintf(pb, sizeof pb, "%.4096s/%.4096s", new_dir, a[i]);
        rc = compare_files(set, pa, pb, y, f);
        ++*pairs;
    }
    names_free(a, na);
    names_free(b, nb);
    return rc;
}

/* The two inputs: OLD NEW, or DATA/A DATA/B with --gpus A B (or --gpus A,B). */
static int inputs_of(const struct mmb_cmd_settings *s, char *old_in, char *new_in, size_t len)
{
    if (!s->gpus) {
        if (s->nargs != 2) {
            fprintf(stderr, "mmbench compare: expected OLD and NEW (two CSVs or two folders), or --gpus A B; got %zu "
                    "argument%s\n", s->nargs, s->nargs == 1 ? "" : "s");
            return -1;
        }
        snprintf(old_in, len, "%s", s->args[0]);
        snprintf(new_in, len, "%s", s->args[1]);
        return 0;
    }
    const char *comma = strchr(s->gpus, ',');
    if ((comma && s->nargs != 0) || (!comma && s->nargs != 1)) {
        fprintf(stderr, "mmbench compare: --gpus takes two GPU folders of %s, as --gpus A B or --gpus A,B, and no "
                "other argument\n", s->data_dir);
        return -1;
    }
    size_t la = comma ? (size_t)(comma - s->gpus) : strlen(s->gpus);
    const char *b = comma ? comma + 1 : s->args[0];
    if (la == 0 || !*b || memchr(s->gpus, '/', la) || strchr(b, '/')) {
        fprintf(stderr, "mmbench compare: --gpus %s%s%s: expected the names of two GPU folders of %s, such as "
                "--gpus h100-80gb-hbm3 h200\n", s->gpus, comma ? "" : " ", comma ? "" : b, s->data_dir);
        return -1;
    }
    snprintf(old_in, len, "%s/%.*s", s->data_dir, (int)la, s->gpus);
    snprintf(new_in, len, "%s/%s", s->data_dir, b);
    for (const char *p = old_in; p; p = p == old_in ? new_in : NULL)
        if (!is_folder(p)) {
            fprintf(stderr, "mmbench compare: %s: no such GPU folder; expected one of the folders of %s "
                    "(mmbench devices names each GPU's)\n", p, s->data_dir);
            return -1;
        }
    return 0;
}

int mmb_cmd_compare(int argc, char **argv)
{
    struct mmb_cmd_settings s;
    int rc = mmb_cmd_options_parse(MMB_CMD_COMPARE, argc, argv, &s);
    if (rc)
        return rc > 0 ? 0 : MMB_EXIT_BAD_INPUT;
    char old_in[4096], new_in[4096];
    if (inputs_of(&s, old_in, new_in, sizeof old_in) != 0)
        return MMB_EXIT_BAD_INPUT;
    bool fa = is_folder(old_in), fb = is_folder(new_in);
    if (fa != fb) {
        fprintf(stderr, "mmbench compare: %s is %s and %s %s; expected two CSVs or two folders\n", old_in,
                fa ? "a folder" : "not a folder", new_in, fb ? "a folder" : "not");
        return MMB_EXIT_BAD_INPUT;
    }
    if (!fa && s.only) {
        fprintf(stderr, "mmbench compare: --profile chooses the CSVs of folders; %s and %s are files\n", old_in,
                new_in);
        return MMB_EXIT_BAD_INPUT;
    }
    struct tally y = {0};
    size_t pairs = 0;
    FILE *f = stdout;
    if (fa) {
        rc = compare_folders(&s, old_in, new_in, &y, &pairs, f);
    } else {
        rc = compare_files(&s, old_in, new_in, &y, f);
        pairs = 1;
    }
    if (rc)
        return rc;
    if (fa && pairs == 0) {
        fprintf(stderr, "mmbench compare: %s and %s have no results CSV of one name%s%s; expected folders of the "
                "same profiles\n", old_in, new_in, s.only ? " for profile " : "", s.only ? s.only : "");
        return MMB_EXIT_BAD_INPUT;
    }
    summary_print(&s, &y, f);
    if (y.compared + y.not_ok + y.protocol_left_out == 0) {
        fprintf(stderr, "mmbench compare: %s and %s have no configuration in common; expected results of the same "
                "configurations\n", old_in, new_in);
        return MMB_EXIT_BAD_INPUT;
    }
    for (int v = 0; v < MMB_VERDICT_COUNT; v++)
        if ((s.fail_on & (1u << v)) && y.verdicts[v]) {
            fprintf(stderr, "mmbench compare: %zu %s (--fail-on)\n", y.verdicts[v], mmb_verdict_text((enum mmb_verdict)v));
            return MMB_EXIT_FAILED;
        }
    return MMB_EXIT_OK;
}
