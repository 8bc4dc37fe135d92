/* test_report_best.c - the report shows the same from counters = best as from
 * counters = all: the repository's measured CSVs (every configuration counted) and
 * the same rows with the counters of all but each group's fastest row taken away, as
 * counters = best writes them, give the same figure data, scripts, README and tables.
 * Both carry a theoretical occupancy in every row, which the tuning figures then
 * show for every configuration. */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_run.h"
#include "core/file.h"
#include "core/hash.h"
#include "csv_rows.h"
#include "report_run.h"
#include "results/columns.h"

static const char *const inputs[] = {"course", "ladder", "tune-seed", "tune-ladder", "dtypes", "quick"};
static const char *const gpus[] = {"h100-80gb-hbm3", "h200"};

/* The fastest ok row of r's group (GPU, profile, kernel, problem), the first of equals. */
static const struct mmb_row *fastest_of(const struct collected *c, const struct mmb_row *r)
{
    const struct mmb_row *best = NULL;
    for (size_t i = 0; i < c->n; i++) {
        const struct mmb_row *o = &c->rows[i];
        if (o->status == MMB_STATUS_OK && isfinite(o->time_ms_median) && !strcmp(o->gpu, r->gpu) &&
            !strcmp(o->profile, r->profile) && mmb_row_same_problem(o, r) &&
            (!best || o->time_ms_median < best->time_ms_median))
            best = o;
    }
    return best;
}

/* As counters = best leaves a row that is not its group's fastest: no counters, and
 * nothing derived from them. */
static void uncount(struct mmb_row *r)
{
    struct mmb_row empty;
    mmb_row_init(&empty);
    for (const struct mmb_column *c = mmb_columns; c->name; c++)
        if (c->role == MMB_ROLE_COUNTER || c->role == MMB_ROLE_DERIVED)
            memcpy((char *)r + c->offset, (const char *)&empty + c->offset, c->size);
    r->counter_status = MMB_STATUS_NOT_BEST;
    mmb_row_derive(r);
}

/* Writes the rows of csv into all/ and best/ (under data/<gpu>/); returns the rows
 * whose counters best/ lacks. */
static size_t write_pair(const char *csv, const char *gpu, const char *name)
{
    struct collected c = read_csv(csv);
    size_t stripped = 0;
    for (size_t i = 0; i < c.n; i++) /* an occupancy for every row, as a run now records */
        c.rows[i].theoretical_occupancy_pct = 6.25 * (double)(1 + mmb_hash_bytes(MMB_FNV_SEED, c.rows[i].params,
                                                                               strlen(c.rows[i].params)) % 16);
    char err[1024];
    for (int best = 0; best < 2; best++) {
        char dir[700], path[800];
        snprintf(dir, sizeof dir, "%s/%s/data/%s", tmpdir, best ? "best" : "all", gpu);
        ck_assert_msg(mmb_mkdir_p(dir, err, sizeof err) == 0, "%s", err);
        snprintf(path, sizeof path, "%s/%s.csv", dir, name);
        struct mmb_csv_writer *w = mmb_csv_writer_open(path, err, sizeof err);
        ck_assert_msg(w != NULL, "%s", err);
        for (size_t i = 0; i < c.n; i++) {
            struct mmb_row r = c.rows[i];
            if (best && r.status == MMB_STATUS_OK && fastest_of(&c, &c.rows[i]) != &c.rows[i]) {
                uncount(&r);
                stripped++;
            }
            ck_assert_msg(mmb_csv_append_row(w, &r, err, sizeof err) == 0, "%s", err);
        }
        mmb_csv_writer_close(w);
    }
    free(c.rows);
    return stripped;
}

static int report_in(const char *which)
{
    char dir[600], here[2048];
    snprintf(dir, sizeof dir, "%s/%s", tmpdir, which);
    ck_assert_ptr_nonnull(getcwd(here, sizeof here));
    ck_assert_int_eq(chdir(dir), 0);
    char *argv[] = {"report", "-q", "--no-plots", "-o", "out", "data", NULL};
    int rc = report_run(6, argv);
    ck_assert_int_eq(chdir(here), 0);
    return rc;
}

/* Where in text, before at, a table of two GPUs at one configuration (generations.c)
 * begins, its title ending "measured on both", and has not ended (a heading, or a
 * LaTeX environment's end); false elsewhere. */
static bool in_generations_table(const char *text, size_t at)
{
    static const char title[] = "measured on both";
    const char *start = NULL;
    for (const char *p = text; (p = strstr(p, title)) && (size_t)(p - text) < at; p++)
        start = p;
    if (!start)
        return false;
    for (const char *p = start; p < text + at; p++)
        if ((p[0] == '\n' && p[1] == '#') || !strncmp(p, "\\end{table", strlen("\\end{table")))
            return false;
    return true;
}

/* Whether b (best/) is a (all/) but for counters not read: counters = best counts each
 * GPU's fastest configuration, so the tables of two GPUs at one configuration miss
 * the newer GPU's counters where that configuration is not its fastest. The one
 * difference allowed: there, a number of a where b has the missing mark (Markdown's
 * "–", LaTeX's "--"). *at gets where they differ otherwise. */
static bool same_but_uncounted(const char *a, size_t la, const char *b, size_t lb, size_t *at)
{
    size_t i = 0, j = 0;
    while (i < la && j < lb) {
        if (a[i] == b[j]) {
            i++, j++;
            continue;
        }
        size_t mark = !strncmp(b + j, "–", strlen("–")) ? strlen("–") : !strncmp(b + j, "--", 2) ? 2 : 0;
        size_t digits = 0;
        while (i + digits < la && (strchr("0123456789.", a[i + digits]) != NULL))
            digits++;
        /* the number may have begun before the difference (a shared first digit: none here) */
        if (!mark || !digits || !in_generations_table(a, i))
            break;
        i += digits;
        j += mark;
    }
    *at = i;
    return i == la && j == lb;
}

/* Every file under all/out has its twin under best/out, byte for byte but for the
 * counters best does not read (same_but_uncounted); returns how many were compared. */
static size_t compare_tree(const char *rel)
{
    char a[1200], b[1200];
    snprintf(a, sizeof a, "%s/all/out%s", tmpdir, rel);
    DIR *dir = opendir(a);
    ck_assert_msg(dir != NULL, "%s", a);
    size_t n = 0;
    for (struct dirent *e; (e = readdir(dir));) {
        if (e->d_name[0] == '.')
            continue;
        char sub[600];
        snprintf(sub, sizeof sub, "%s/%s", rel, e->d_name);
        snprintf(a, sizeof a, "%s/all/out%s", tmpdir, sub);
        snprintf(b, sizeof b, "%s/best/out%s", tmpdir, sub);
        struct stat st;
        ck_assert_int_eq(stat(a, &st), 0);
        if (S_ISDIR(st.st_mode)) {
            n += compare_tree(sub);
            continue;
        }
        char why[256];
        size_t la = 0, lb = 0;
        char *ta = mmb_file_read(a, &la, why, sizeof why), *tb = mmb_file_read(b, &lb, why, sizeof why);
        ck_assert_msg(ta && tb, "%s: %s", sub, why);
        size_t at = 0;
        if ((la != lb || memcmp(ta, tb, la) != 0) && !same_but_uncounted(ta, la, tb, lb, &at)) {
            size_t from = at > 80 ? at - 80 : 0;
            ck_abort_msg("%s differs at byte %zu:\nall:  ...%.160s\nbest: ...%.160s", sub, at, ta + from, tb + from);
        }
        free(ta);
        free(tb);
        n++;
    }
    closedir(dir);
    return n;
}

START_TEST(test_report_same_from_best)
{
    size_t stripped = 0, files = 0;
    for (size_t g = 0; g < sizeof gpus / sizeof gpus[0]; g++)
        for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
            char csv[1200];
            snprintf(csv, sizeof csv, "%s/data/%s/%s.csv", root, gpus[g], inputs[i]);
            if (!exists("%s", csv))
                continue;
            stripped += write_pair(csv, gpus[g], inputs[i]);
            files++;
        }
    ck_assert_uint_ge(files, 8);
    ck_assert_uint_gt(stripped, 500); /* the course and tuning profiles time many configurations */
    ck_assert_msg(report_in("all") == 0, "%s", report_err);
    ck_assert_msg(report_in("best") == 0, "%s", report_err);
    size_t compared = compare_tree("");
    ck_assert_uint_gt(compared, 40);
    /* what is compared draws counters, and the tuning figures draw every configuration */
    ck_assert(exists("%s/all/out/gnuplot/roofline-h100-80gb-hbm3.dat", tmpdir));
    ck_assert(exists("%s/all/out/gnuplot/bandwidth-h100-80gb-hbm3.dat", tmpdir));
    char path[800];
    snprintf(path, sizeof path, "%s/all/out/gnuplot/tune-occupancy-tunable.gp", tmpdir);
    const char *gp = file_get(path);
    ck_assert_msg(gp && strstr(gp, "theoretical occupancy"), "%s", path);
    printf("report from counters = best: %zu files the same as from all (%zu rows without counters)\n", compared,
           stripped);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("report_best");
    TCase *tc = tcase_create("report_best");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, tmpdir_setup, tmpdir_teardown);
    tcase_add_test(tc, test_report_same_from_best);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
