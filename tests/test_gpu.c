/* test_gpu.c - on a GPU: every shipped kernel verified against the reference at
 * awkward sizes in every dtype, each failure mode gets its status, a wrong kernel
 * fails wherever the protocol puts the verified launch, an interrupted
 * sweep resumes, counters are exact where exactness is known, two shards merged are
 * one run, a resumed run measures an edited kernel again (rows with their origin and
 * launch times), the rounding dtypes pass and fail as their tolerance rule says, and
 * Hopper's launch features (clusters seen from inside, TMA tensor maps element by
 * element, the sm_90a target) through the whole harness. Exits 77 (skipped) without
 * a GPU. */
#include <check.h>
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_run.h"
#include "csv_rows.h"
#include "core/array.h"
#include "core/file.h"
#include "cuda/compile.h"
#include "cuda/gpu.h"
#include "cuda/tensor_map.h"
#include "model/profile.h"
#include "cmd/sweep.h"
#include "model/space.h"
#include "results/csv_samples.h"
#include "tmpdir.h"

#define EXIT_SKIP 77


static void fixture(const char *name, char *out, size_t len)
{
    const char *source_root = getenv("MMB_SOURCE_ROOT");
    ck_assert_ptr_nonnull(source_root);
    snprintf(out, len, "%s/tests/fixtures/gpu/%s", source_root, name);
}

static struct mmb_run_summary run_mode(const char *profile_name, const char *csv, enum mmb_counters counters,
                                       struct mmb_profile *p, struct collected *rows)
{
    char path[1024], err[2048];
    fixture(profile_name, path, sizeof path);
    ck_assert_msg(mmb_profile_load(path, p, err, sizeof err) == 0, "%s", err);
    struct mmb_metric_set set;
    ck_assert_msg(mmb_metric_set_parse(p->metrics, &set, err, sizeof err) == 0, "%s", err);
    /* energy off, as `mmbench run` without --energy: with energy = best, counters = all
     * reads a held row's counters alone (sweep.c), which the batch test must not see */
    struct mmb_run_options o = {.device = 0, .output = csv, .cache_dir = tmpdir,
                                .counters = counters, .energy = MMB_ENERGY_OFF,
                                .metrics = &set, .warmup = -1};
    struct mmb_run_summary sum;
    ck_assert_msg(mmb_run_profile(p, &o, &sum, err, sizeof err) == 0, "%s", err);
    memset(rows, 0, sizeof *rows);
    ck_assert_msg(mmb_csv_read(csv, collect, rows, err, sizeof err) == 0, "%s", err);
    return sum;
}

static struct mmb_run_summary run(const char *profile_name, const char *csv, bool counters, struct mmb_profile *p,
                                  struct collected *rows)
{
    return run_mode(profile_name, csv, counters ? MMB_COUNTERS_ALL : MMB_COUNTERS_NONE, p, rows);
}

/* Rows the awkward profile must produce, counted from its space independently of run.c. */
static size_t expected_rows(const struct mmb_profile *p)
{
    size_t n = 0;
    for (int ki = 0; ki < p->nkernels; ki++)
        for (int d = 0; d < MMB_DTYPE_COUNT; d++) {
            unsigned mask = (p->kernels[ki].dtypes ? p->kernels[ki].dtypes : p->dtypes) & p->dtypes;
            if (!(mask & (1u << d)))
                continue;
            for (int si = 0; si < p->nsizes; si++)
                for (size_t i = 0; i < mmb_space_size(&p->kernels[ki]); i++) {
                    struct mmb_config cfg;
                    int which;
                    char err[256];
                    mmb_space_config_at(&p->kernels[ki], i, &cfg);
                    n += mmb_space_allowed(&p->kernels[ki], &cfg, &p->sizes[si],
                                           mmb_dtype_info((enum mmb_dtype)d)->size, &which, err, sizeof err) == 1;
                }
        }
    return n;
}

START_TEST(test_every_kernel_correct_at_awkward_sizes)
{
    char csv[1100];
    snprintf(csv, sizeof csv, "%s/awkward.csv", tmpdir);
    struct mmb_profile *p = calloc(1, sizeof *p);
    struct collected rows;
    struct mmb_run_summary sum = run("awkward.ini", csv, false, p, &rows);
    size_t want = expected_rows(p);
    ck_assert_uint_eq(sum.rows_written, want);
    ck_assert_uint_eq(rows.n, want);
    for (size_t i = 0; i < rows.n; i++) {
        const struct mmb_row *r = &rows.rows[i];
        ck_assert_msg(r->status == MMB_STATUS_OK, "%s %s [%s] %lldx%lldx%lld: %s: %s", r->kernel, r->params, r->dtype,
                      r->m, r->n, r->k, mmb_status_text(r->status), r->reason);
        ck_assert_msg(r->time_ms_median > 0.0, "%s: no time", r->kernel);
        if (strcmp(r->dtype, "i32") == 0)
            ck_assert(r->max_rel_err == 0.0);
    }
    /* Run again into the same file: everything is already there. */
    free(rows.rows);
    sum = run("awkward.ini", csv, false, p, &rows);
    ck_assert_uint_eq(sum.rows_written, 0);
    ck_assert_uint_eq(sum.rows_resumed, want);
    ck_assert_uint_eq(rows.n, want);
    free(rows.rows);
    mmb_profile_free(p);
    free(p);
}
END_TEST

START_TEST(test_each_failure_has_its_status)
{
    /* Through the program: after the sticky error of out_of_bounds only a fresh
     * process has a GPU again, and `mmbench run` restarts itself to go on. */
    const char *mmbench = getenv("MMBENCH");
    ck_assert_msg(mmbench != NULL, "MMBENCH must name the mmbench program");
    char csv[1100], profile[1024], cmd[4096];
    snprintf(csv, sizeof csv, "%s/broken.csv", tmpdir);
    fixture("broken.ini", profile, sizeof profile);
    snprintf(cmd, sizeof cmd, "'%s' run --no-counters --cache-dir '%s' -o '%s' '%s'", mmbench, tmpdir, csv, profile);
    ck_assert_int_eq(system(cmd), 0);
    struct collected rows = {0};
    char err[1024];
    ck_assert_msg(mmb_csv_read(csv, collect, &rows, err, sizeof err) == 0, "%s", err);
    static const struct { const char *kernel; enum mmb_status status; const char *reason; } want[] = {
        {"skips_a_row", MMB_STATUS_WRONG_RESULT, "beyond tolerance"},
        {"too_many_threads", MMB_STATUS_INVALID_CONFIG, "2048 threads"},
        {"syntax_error", MMB_STATUS_COMPILE_ERROR, "undeclared_name"},
        {"out_of_bounds", MMB_STATUS_LAUNCH_ERROR, "illegal"},
        {"naive_after", MMB_STATUS_OK, ""},
    };
    ck_assert_uint_eq(rows.n, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < rows.n; i++) {
        const struct mmb_row *r = &rows.rows[i];
        ck_assert_str_eq(r->kernel, want[i].kernel);
        ck_assert_msg(r->status == want[i].status, "%s: %s (%s)", r->kernel, mmb_status_text(r->status), r->reason);
        ck_assert_msg(strstr(r->reason, want[i].reason) != NULL, "%s: reason '%s'", r->kernel, r->reason);
    }
    free(rows.rows);
}
END_TEST

/* The verified launch is the first timed one (cold, no warm-up), the first warm-up,
 * or one of its own (hot, no warm-up), its output compared at once or (hot, one
 * warm-up) after the timed launches: in every case a wrong kernel is wrong_result
 * with no time, a right one ok with its timed launches and its error. */
START_TEST(test_every_verified_launch_catches_a_wrong_kernel)
{
    static const char *const profiles[] = {"verify-cold.ini", "verify-hot.ini"};
    for (size_t pi = 0; pi < 2; pi++)
        for (int warmup = 0; warmup <= 2; warmup++) {
            char path[1024], csv[1100], err[2048];
            fixture(profiles[pi], path, sizeof path);
            snprintf(csv, sizeof csv, "%s/verify-%zu-%d.csv", tmpdir, pi, warmup);
            struct mmb_profile *p = calloc(1, sizeof *p);
            ck_assert_msg(mmb_profile_load(path, p, err, sizeof err) == 0, "%s", err);
            struct mmb_metric_set set = {0};
            struct mmb_run_options o = {.device = 0, .output = csv, .cache_dir = tmpdir,
                                        .counters = MMB_COUNTERS_NONE, .energy = MMB_ENERGY_OFF, .metrics = &set,
                                        .warmup = warmup};
            struct mmb_run_summary sum;
            ck_assert_msg(mmb_run_profile(p, &o, &sum, err, sizeof err) == 0, "%s", err);
            struct collected rows = {0};
            ck_assert_msg(mmb_csv_read(csv, collect, &rows, err, sizeof err) == 0, "%s", err);
            ck_assert_uint_eq(rows.n, 2);
            for (size_t i = 0; i < rows.n; i++) {
                const struct mmb_row *r = &rows.rows[i];
                printf("%s warmup %d: %-12s %s %lld launches, max_rel_err %g %s\n", profiles[pi], warmup, r->kernel,
                       mmb_status_text(r->status), r->repeats, r->max_rel_err, r->reason);
                if (strcmp(r->kernel, "skips_a_row") == 0) {
                    ck_assert_msg(r->status == MMB_STATUS_WRONG_RESULT && strstr(r->reason, "beyond tolerance"),
                                  "%s warmup %d: %s (%s)", profiles[pi], warmup, mmb_status_text(r->status), r->reason);
                    ck_assert(!(r->time_ms_median > 0.0));
                } else {
                    ck_assert_msg(r->status == MMB_STATUS_OK, "%s warmup %d: %s (%s)", profiles[pi], warmup,
                                  mmb_status_text(r->status), r->reason);
                    ck_assert_int_eq(r->repeats, 3);
                    ck_assert(r->time_ms_median > 0.0 && r->max_rel_err <= 1e-4);
                }
            }
            free(rows.rows);
            mmb_profile_free(p);
            free(p);
        }
}
END_TEST

/* run --shard 1/2 and 2/2, then merge, give the rows of one unsharded run: the same
 * configurations, each once, with the same statuses (times are measured again). */
START_TEST(test_shards_merge_to_one_run)
{
    const char *mmbench = getenv("MMBENCH");
    ck_assert_msg(mmbench != NULL, "MMBENCH must name the mmbench program");
    char profile[1024], cmd[8192];
    fixture("awkward.ini", profile, sizeof profile);
    snprintf(cmd, sizeof cmd,
             "cd '%s' && M='%s' && P='%s' && "
             "$M run --no-counters --cache-dir . --data-dir whole \"$P\" && "
             "$M run --no-counters --cache-dir . --data-dir sharded --shard 1/2 \"$P\" && "
             "$M run --no-counters --cache-dir . --data-dir sharded --shard 2/2 \"$P\" && "
             "$M merge --data-dir sharded \"$P\" && "
             "tail -n +2 whole/*/awkward.csv | cut -d, -f8-14 | sort > whole.keys && "
             "tail -n +2 sharded/*/awkward.csv | cut -d, -f8-14 | sort > sharded.keys && "
             "test -s whole.keys && cmp whole.keys sharded.keys && test -z \"$(uniq -d whole.keys)\"",
             tmpdir, mmbench, profile);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(test_counters_count_every_ffma)
{
    char csv[1100];
    snprintf(csv, sizeof csv, "%s/counters.csv", tmpdir);
    struct mmb_profile *p = calloc(1, sizeof *p);
    struct collected rows;
    run("counters.ini", csv, true, p, &rows);
    ck_assert_uint_gt(rows.n, 0);
    for (size_t i = 0; i < rows.n; i++) {
        const struct mmb_row *r = &rows.rows[i];
        ck_assert_msg(r->status == MMB_STATUS_OK, "%s: %s", r->kernel, r->reason);
        if (r->counter_status == MMB_STATUS_PROFILING_DENIED) {
            printf("counters denied here: FFMA check not made\n");
            continue;
        }
        ck_assert_int_eq(r->counter_status, MMB_STATUS_OK);
        /* The naive kernel does exactly one FFMA per (row, column, k). */
        if (strcmp(r->kernel, "naive") == 0)
            ck_assert_double_eq(r->ffma, (double)r->m * (double)r->n * (double)r->k);
        ck_assert(r->dram_read_bytes > 0.0);
        ck_assert(r->sm_util_pct > 0.0 && r->sm_util_pct <= 100.0);
        ck_assert(isfinite(r->intensity) && r->intensity > 0.0);
    }
    free(rows.rows);
    mmb_profile_free(p);
    free(p);
}
END_TEST

/* Counters read in batches (session_batch.c) are those of each launch alone: the
 * same instruction counts, the same DRAM and L1 bytes to within 1%, in fewer passes,
 * for a batch of 18 launches (batch.ini), for batches with cuBLAS (its kernel count
 * from a graph capture, or, where the capture holds more than kernels, what a pass
 * leaves: batch-cublas.ini), and for one batch that spans three problems
 * (batch-sizes.ini). */
START_TEST(test_batched_counters_equal_alone)
{
    static const char *const profiles[] = {"batch.ini", "batch-cublas.ini", "batch-sizes.ini"};
    const char *profile = profiles[_i];
    char csv[2][1100];
    struct mmb_run_summary sum[2];
    struct collected rows[2];
    struct mmb_profile *p = calloc(1, sizeof *p);
    for (int alone = 0; alone < 2; alone++) {
        snprintf(csv[alone], sizeof csv[alone], "%s/counters-%d-%s.csv", tmpdir, _i, alone ? "alone" : "batched");
        if (alone)
            setenv("MMB_COUNTER_BATCH", "1", 1);
        sum[alone] = run(profile, csv[alone], true, p, &rows[alone]);
        unsetenv("MMB_COUNTER_BATCH");
        mmb_profile_free(p);
    }
    ck_assert_uint_eq(rows[0].n, rows[1].n);
    if (rows[0].n && rows[0].rows[0].counter_status == MMB_STATUS_PROFILING_DENIED) {
        printf("counters denied here: batch check not made\n");
        goto out;
    }
    ck_assert_msg(sum[0].counter_passes < sum[1].counter_passes, "batched %zu passes, alone %zu",
                  sum[0].counter_passes, sum[1].counter_passes);
    if (_i == 2) { /* 12 launches at three sizes: one batch, the problems kept open for it */
        size_t per_measurement = sum[1].counter_passes / rows[1].n;
        ck_assert_msg(sum[0].counter_passes == per_measurement, "batched %zu passes, %zu a measurement",
                      sum[0].counter_passes, per_measurement);
    }
    for (size_t i = 0; i < rows[0].n; i++) {
        const struct mmb_row *b = &rows[0].rows[i], *a = &rows[1].rows[i];
        ck_assert_str_eq(b->kernel, a->kernel);
        ck_assert_int_eq(b->counter_status, MMB_STATUS_OK);
        ck_assert_int_eq(a->counter_status, MMB_STATUS_OK);
        ck_assert_double_eq(b->ffma, a->ffma);
        ck_assert_double_eq(b->fadd, a->fadd);
        ck_assert_double_eq(b->fmul, a->fmul);
        /* Within 1% or 64 KB, and DRAM writes within the output's size more: an output
         * that fits in L2 reaches DRAM only as L2 evicts it, whenever that falls (the
         * naive kernel at 256, a 256 KB output, wrote 0, 16 KB and 72 KB to DRAM in one
         * range or another on the H100, batched or alone). Not L2 bytes: what reaches
         * L2 depends on L1 hits, and for the naive kernel at 512 it moved between 29.4
         * and 32.2 MB from one lone measurement to another (H100), batched or not. */
        const double output_bytes = (double)b->m * (double)b->n * sizeof(float);
        const struct { const char *what; double batched, alone, within, slack; } bytes[] = {
            {"DRAM read", b->dram_read_bytes, a->dram_read_bytes, 0.01, 65536},
            {"DRAM write", b->dram_write_bytes, a->dram_write_bytes, 0.01, 65536 + output_bytes},
            {"L1", b->l1_bytes, a->l1_bytes, 0.01, 65536},
        };
        for (size_t j = 0; j < sizeof bytes / sizeof bytes[0]; j++)
            ck_assert_msg(fabs(bytes[j].batched - bytes[j].alone) <= bytes[j].within * bytes[j].alone + bytes[j].slack,
                          "%s %lldx%lldx%lld, %s bytes: batched %.0f, alone %.0f", b->kernel, b->m, b->n, b->k,
                          bytes[j].what, bytes[j].batched, bytes[j].alone);
    }
out:
    free(rows[0].rows);
    free(rows[1].rows);
    free(p);
}
END_TEST

/* counters = best: in every group (kernel x size x dtype) the fastest ok row, as the
 * report picks it, has counters (or profiling_denied where the GPU refuses them), and
 * no other row of the group does (not_best); every ok row has its theoretical
 * occupancy. */
static void best_check(const struct collected *c)
{
    for (size_t i = 0; i < c->n; i++) {
        const struct mmb_row *r = &c->rows[i];
        if (r->status != MMB_STATUS_OK)
            continue;
        ck_assert_msg(strcmp(r->kernel, "naive") != 0 ||
                      (r->theoretical_occupancy_pct > 0 && r->theoretical_occupancy_pct <= 100),
                      "%s %s: theoretical occupancy %g", r->kernel, r->params, r->theoretical_occupancy_pct);
        const struct mmb_row *fastest = NULL;
        for (size_t j = 0; j < c->n; j++) {
            const struct mmb_row *o = &c->rows[j];
            if (o->status == MMB_STATUS_OK && mmb_row_same_problem(o, r) &&
                (!fastest || o->time_ms_median < fastest->time_ms_median))
                fastest = o;
        }
        bool counted = r->counter_status == MMB_STATUS_OK || r->counter_status == MMB_STATUS_PROFILING_DENIED;
        if (r == fastest)
            ck_assert_msg(counted, "%s %s %lldx%lldx%lld: the fastest, counter_status %s", r->kernel, r->params, r->m,
                          r->n, r->k, mmb_status_text(r->counter_status));
        else if (!counted)
            ck_assert_msg(r->counter_status == MMB_STATUS_NOT_BEST, "%s %s: counter_status %s", r->kernel, r->params,
                          mmb_status_text(r->counter_status));
    }
}

/* The first n rows of from (and its header) into to: what a stopped run leaves. */
static void csv_head(const char *from, const char *to, size_t n)
{
    char cmd[2400];
    snprintf(cmd, sizeof cmd, "head -n %zu '%s' > '%s'", n + 1, from, to);
    ck_assert_int_eq(system(cmd), 0);
}

START_TEST(test_best_counts_each_fastest)
{
    char all[1100], best[1100], part[1100];
    snprintf(all, sizeof all, "%s/batch-all.csv", tmpdir);
    snprintf(best, sizeof best, "%s/batch-best.csv", tmpdir);
    struct mmb_profile *p = calloc(1, sizeof *p);
    struct collected rows;
    struct mmb_run_summary sum = run_mode("batch.ini", best, MMB_COUNTERS_BEST, p, &rows);
    mmb_profile_free(p);
    ck_assert_uint_eq(rows.n, 18);
    size_t counted = 0;
    for (size_t i = 0; i < rows.n; i++)
        counted += rows.rows[i].counter_status != MMB_STATUS_NOT_BEST;
    ck_assert_uint_eq(counted, 1); /* one group: naive at 256 */
    best_check(&rows);
    /* every ok row, held with its group and appended with it, has its launch times in
     * the samples side file; its protocol names the counting mode */
    char err[512];
    struct mmb_samples_set *set;
    ck_assert_msg(mmb_samples_load(best, &set, err, sizeof err) == 0, "%s", err);
    for (size_t i = 0; i < rows.n; i++) {
        const struct mmb_row *r = &rows.rows[i];
        if (r->status != MMB_STATUS_OK)
            continue;
        size_t n = 0;
        const double *t = mmb_samples_find(set, r, &n);
        ck_assert_msg(t && n == (size_t)r->repeats, "%s %s: %zu launch times of %lld", r->kernel, r->params, n,
                      r->repeats);
        ck_assert_msg(strstr(r->protocol, ";counters=none") || strstr(r->protocol, ";counter_mode=best;"), "%s",
                      r->protocol);
    }
    mmb_samples_free(set);
    printf("counters = best: %zu passes for 18 configurations\n", sum.counter_passes);
    free(rows.rows);

    /* Resumed groups: half of a run of all counted rows, then of a best run; the
     * rest measured by best. The fastest of each whole group has its counters. */
    run("batch.ini", all, true, p, &rows);
    mmb_profile_free(p);
    free(rows.rows);
    for (int from_best = 0; from_best < 2; from_best++) {
        snprintf(part, sizeof part, "%s/batch-part-%d.csv", tmpdir, from_best);
        csv_head(from_best ? best : all, part, 9);
        run_mode("batch.ini", part, MMB_COUNTERS_BEST, p, &rows);
        mmb_profile_free(p);
        ck_assert_uint_eq(rows.n, 18);
        best_check(&rows);
        free(rows.rows);
    }
    free(p);
}
END_TEST

/* The rounding dtypes against the tolerance rule, on the GPU (precision.ini): correct
 * kernels pass at K = 8192 and at awkward sizes, i8 exactly; the kernel that
 * accumulates in f16 or bf16 fails at K = 8192, the one that truncates its output at
 * K = 256. Every row says which pipe it is measured against. */
START_TEST(test_precisions_round_as_the_rule_says)
{
    char csv[1100];
    snprintf(csv, sizeof csv, "%s/precision.csv", tmpdir);
    struct mmb_profile *p = calloc(1, sizeof *p);
    struct collected rows;
    struct mmb_run_summary sum = run("precision.ini", csv, false, p, &rows);
    ck_assert_uint_eq(sum.rows_written, expected_rows(p));
    ck_assert_uint_eq(rows.n, 42);
    for (size_t i = 0; i < rows.n; i++) {
        const struct mmb_row *r = &rows.rows[i];
        bool accumulates = strcmp(r->kernel, "accumulates_in_elem") == 0;
        bool truncates = strcmp(r->kernel, "truncates_output") == 0;
        bool cublas = strcmp(r->kernel, "cublas") == 0;
        printf("%-20s %-5s %5lldx%lldx%-5lld %-14s max_rel_err %-10.3g pipe %-12s %s\n", r->kernel, r->dtype, r->m,
               r->n, r->k, mmb_status_text(r->status), r->max_rel_err, r->pipe, r->reason);
        if ((accumulates && r->k == 8192) || (truncates && r->k == 256)) {
            ck_assert_msg(r->status == MMB_STATUS_WRONG_RESULT && strstr(r->reason, "beyond tolerance"),
                          "%s %s %lld: %s (%s)", r->kernel, r->dtype, r->k, mmb_status_text(r->status), r->reason);
            continue;
        }
        if (accumulates || truncates) /* elsewhere either verdict may be right */
            continue;
        if (r->status == MMB_STATUS_SKIPPED && cublas && strstr(r->reason, "needs compute capability"))
            continue; /* a GPU without this library call */
        if (cublas && (strcmp(r->dtype, "e4m3") == 0 || strcmp(r->dtype, "i8") == 0) &&
            r->status == MMB_STATUS_INVALID_CONFIG) { /* 8-bit kernels need aligned K-major rows */
            ck_assert_msg((r->m % 16 || r->n % 16 || r->k % 16) && strstr(r->reason, "cublas"),
                          "%s %lldx%lldx%lld: %s", r->dtype, r->m, r->n, r->k, r->reason);
            continue;
        }
        ck_assert_msg(r->status == MMB_STATUS_OK, "%s %s %lldx%lldx%lld: %s: %s", r->kernel, r->dtype, r->m, r->n,
                      r->k, mmb_status_text(r->status), r->reason);
        if (strcmp(r->dtype, "i8") == 0)
            ck_assert(r->max_rel_err == 0.0);
        ck_assert_msg(strncmp(r->pipe, "tensor_", 7) == 0, "%s %s: pipe %s", r->kernel, r->dtype, r->pipe);
    }
    free(rows.rows);
    mmb_profile_free(p);
    free(p);
}
END_TEST

/* ---- Hopper's launch features ---- */

static struct mmb_device_info device;

/* Compiled for the device's own arch and loaded. */
static struct mmb_module *load_fixture(const char *file, const char *function, const char *const *defines)
{
    char path[1024], err[4096];
    fixture(file, path, sizeof path);
    char *text = mmb_file_read(path, NULL, err, sizeof err);
    ck_assert_msg(text != NULL, "%s", err);
    struct mmb_compile_request req = {.source_path = path, .source = text, .function = function,
                                      .defines = defines, .arch = device.cc_major * 10 + device.cc_minor};
    struct mmb_module *mod = NULL;
    struct mmb_kernel_attrs attrs;
    enum mmb_status st = mmb_module_build(&req, &mod, &attrs, err, sizeof err);
    free(text);
    ck_assert_msg(st == MMB_STATUS_OK, "%s: %s", file, err);
    return mod;
}

static bool hopper_or_newer(const char *what)
{
    if (device.cluster_launch)
        return true;
    printf("%s needs compute capability 9.0; not checked on %d.%d\n", what, device.cc_major, device.cc_minor);
    return false;
}

/* Each block of a cluster launch writes what it finds of its cluster from inside
 * (tma_copy.cu's cluster_ids): its rank and place, the cluster's shape, and the
 * block that the next rank's shared memory names; every value is what the launch's
 * shape makes of the block's index. Portable (2 x 2, 3 x 1), non-portable (4 x 4 =
 * 16) and no cluster; a cluster larger than the device allows is invalid_config. */
START_TEST(test_clusters_seen_from_inside)
{
    if (!hopper_or_newer("thread-block clusters"))
        return;
    static const char *const defines[] = {"BOX_I=32", "BOX_O=16", NULL};
    struct mmb_module *mod = load_fixture("tma_copy.cu", "cluster_ids", defines);
    static const struct { long long grid[3], cluster[3]; } shapes[] = {
        {{4, 4, 1}, {2, 2, 1}}, {{6, 2, 1}, {3, 1, 1}}, {{8, 4, 1}, {4, 4, 1}}, {{3, 2, 1}, {1, 1, 1}},
    };
    const long long block[3] = {128, 1, 1};
    char err[1024];
    unsigned *d_out = NULL, h_out[64 * 8];
    ck_assert_int_eq(cudaMalloc((void **)&d_out, sizeof h_out), cudaSuccess);
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const long long *g = shapes[s].grid, *c = shapes[s].cluster;
        long long active = 0;
        ck_assert_msg(mmb_module_occupancy(mod, block, c, 0, device.sm_count, &active, err, sizeof err) ==
                      MMB_STATUS_OK, "%s", err);
        ck_assert_msg(active >= 1, "cluster %lldx%lld: %lld resident", c[0], c[1], active);
        printf("cluster %lldx%lldx%lld of 128 threads: %lld resident at once\n", c[0], c[1], c[2], active);
        ck_assert_int_eq(cudaMemset(d_out, 0, sizeof h_out), cudaSuccess);
        void *args[] = {&d_out};
        ck_assert_msg(mmb_module_launch(mod, g, block, c, 0, args, NULL, err, sizeof err) == MMB_STATUS_OK, "%s", err);
        ck_assert_int_eq(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost), cudaSuccess);
        for (unsigned by = 0; by < g[1]; by++)
            for (unsigned bx = 0; bx < g[0]; bx++) {
                const unsigned *o = &h_out[(bx + by * g[0]) * 8];
                const unsigned cx = (unsigned)c[0], cy = (unsigned)c[1], px = bx % cx, py = by % cy;
                const unsigned rank = px + py * cx, n = cx * cy, next = (rank + 1) % n;
                const unsigned want[8] = {rank, n, px, py, cx, cy,
                                          (bx - px + next % cx) + (by - py + next / cx) * (unsigned)g[0], 0xc1u};
                for (int i = 0; i < 8; i++)
                    ck_assert_msg(o[i] == want[i], "cluster %ux%u, block (%u, %u), value %d: %u, expected %u", cx, cy,
                                  bx, by, i, o[i], want[i]);
            }
    }
    /* Larger than any cluster the device runs: refused before a launch. */
    const long long huge[3] = {32, 1, 1};
    long long active = -1;
    enum mmb_status st = mmb_module_occupancy(mod, block, huge, 0, device.sm_count, &active, err, sizeof err);
    ck_assert_msg(st == MMB_STATUS_INVALID_CONFIG, "%s: %s", mmb_status_text(st), err);
    printf("a cluster of 32: %s\n", err);
    ck_assert_int_eq(cudaFree(d_out), cudaSuccess);
    mmb_module_unload(mod);
}
END_TEST

/* A 100 x 72 f32 matrix copied box by box (32 x 16) through a tensor map into shared
 * memory and back out (tma_copy.cu): every element arrives, the boxes past the edges
 * bring zeros; a 128-byte swizzle is undone by its pattern and only by it; the rules
 * refuse what the driver would. */
START_TEST(test_tma_copies_every_element)
{
    if (!hopper_or_newer("TMA"))
        return;
    static const char *const defines[] = {"BOX_I=32", "BOX_O=16", NULL};
    struct mmb_module *mod = load_fixture("tma_copy.cu", "tma_copy", defines);
    enum { ROWS = 100, COLS = 72, GX = 3, GY = 7, OUT_COLS = GX * 32, OUT_ROWS = GY * 16 };
    const struct mmb_size size = {ROWS, 1, COLS}; /* A is M x K */
    static float h_a[ROWS * COLS], h_out[OUT_ROWS * OUT_COLS];
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++)
            h_a[r * COLS + c] = (float)(r * 1000 + c + 1);
    float *d_a = NULL, *d_out = NULL;
    ck_assert_int_eq(cudaMalloc((void **)&d_a, sizeof h_a), cudaSuccess);
    ck_assert_int_eq(cudaMalloc((void **)&d_out, sizeof h_out), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(d_a, h_a, sizeof h_a, cudaMemcpyHostToDevice), cudaSuccess);
    static const struct { int swizzle, unswizzle; bool exact; } runs[] = {{0, 0, true}, {128, 1, true}, {128, 0, false}};
    char err[1024];
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        CUtensorMap map;
        const struct mmb_tma_box box = {MMB_ARG_A, 32, 16, runs[i].swizzle};
        ck_assert_msg(mmb_tensor_map_encode(&map, &box, MMB_TMA_F32, d_a, &size, err, sizeof err) == MMB_STATUS_OK,
                      "%s", err);
        ck_assert_int_eq(cudaMemset(d_out, 0xff, sizeof h_out), cudaSuccess); /* NaN everywhere */
        int out_cols = OUT_COLS, unswizzle = runs[i].unswizzle;
        void *args[] = {&map, &d_out, &out_cols, &unswizzle};
        const long long grid[3] = {GX, GY, 1}, block[3] = {128, 1, 1};
        ck_assert_msg(mmb_module_launch(mod, grid, block, NULL, 0, args, NULL, err, sizeof err) == MMB_STATUS_OK,
                      "%s", err);
        ck_assert_int_eq(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost), cudaSuccess);
        size_t wrong = 0, first = 0;
        for (int r = 0; r < OUT_ROWS; r++)
            for (int c = 0; c < OUT_COLS; c++) {
                float want = r < ROWS && c < COLS ? h_a[r * COLS + c] : 0.0f;
                if (memcmp(&want, &h_out[r * OUT_COLS + c], sizeof want) != 0 && !wrong++)
                    first = (size_t)r * OUT_COLS + (size_t)c;
            }
        if (runs[i].exact)
            ck_assert_msg(wrong == 0, "swizzle %d: %zu of %d elements wrong, the first at row %zu column %zu: %g",
                          runs[i].swizzle, wrong, OUT_ROWS * OUT_COLS, first / OUT_COLS, first % OUT_COLS,
                          (double)h_out[first]);
        else
            ck_assert_msg(wrong > 0, "a 128-byte swizzle left the box in order");
    }
    CUtensorMap map;
    const struct mmb_tma_box box = {MMB_ARG_A, 32, 16, 0};
    const struct mmb_size narrow = {ROWS, 1, 71};
    ck_assert_int_eq(mmb_tensor_map_encode(&map, &box, MMB_TMA_F32, d_a, &narrow, err, sizeof err),
                     MMB_STATUS_INVALID_CONFIG);
    ck_assert_msg(strstr(err, "tma(A): A's row pitch is 71 x 4 = 284 bytes"), "%s", err);
    ck_assert_int_eq(mmb_tensor_map_encode(&map, &box, MMB_TMA_F32, d_a + 1, &size, err, sizeof err),
                     MMB_STATUS_INVALID_CONFIG);
    ck_assert_msg(strstr(err, "a tensor map needs a multiple of 16 bytes"), "%s", err);
    ck_assert_int_eq(cudaFree(d_a), cudaSuccess);
    ck_assert_int_eq(cudaFree(d_out), cudaSuccess);
    mmb_module_unload(mod);
}
END_TEST

/* What hopper.ini must give, row by row: clusters, a persistent cluster grid, TMA
 * loads and stores in every dtype (swizzled, at awkward sizes, with 64 KB more shared
 * memory) and the sm_90a kernel all verified and timed on a flushed L2, with exact
 * FFMA counts where they are known; a grid that is not a whole number of clusters
 * and a row pitch no tensor map can have are invalid_config with their reasons. */
static const char *hopper_expected(const struct mmb_row *r, enum mmb_status *status)
{
    *status = MMB_STATUS_INVALID_CONFIG;
    if (!device.cluster_launch)
        return "its target, and not for sm_";
    if (!strcmp(r->kernel, "cluster") && r->m == 272 && strcmp(r->params, "cx=1;cy=1") != 0)
        return "is not a whole number of clusters";
    if (!strcmp(r->kernel, "tma") && r->k == 30 && strcmp(r->dtype, "f64") != 0)
        return "A's row pitch is 30 x 4 = 120 bytes; a tensor map needs a multiple of 16";
    if (!strcmp(r->kernel, "sm90a") && !(device.cc_major == 9 && device.cc_minor == 0))
        return "sm_90a (compute capability 9.0 only)";
    *status = MMB_STATUS_OK;
    return "";
}

START_TEST(test_hopper_features_through_the_harness)
{
    char csv[1100];
    snprintf(csv, sizeof csv, "%s/hopper.csv", tmpdir);
    struct mmb_profile *p = calloc(1, sizeof *p);
    struct collected rows;
    run("hopper.ini", csv, true, p, &rows);
    ck_assert_uint_eq(rows.n, expected_rows(p));
    size_t ok = 0, counted = 0;
    for (size_t i = 0; i < rows.n; i++) {
        const struct mmb_row *r = &rows.rows[i];
        enum mmb_status want;
        const char *reason = hopper_expected(r, &want);
        ck_assert_msg(r->status == want && strstr(r->reason, reason), "%s %s [%s] %lldx%lldx%lld: %s (%s); expected %s "
                      "(%s)", r->kernel, r->params, r->dtype, r->m, r->n, r->k, mmb_status_text(r->status), r->reason,
                      mmb_status_text(want), reason);
        if (r->status != MMB_STATUS_OK)
            continue;
        ok++;
        ck_assert_msg(r->time_ms_median > 0.0, "%s: no time", r->kernel);
        if (strcmp(r->dtype, "i32") == 0)
            ck_assert(r->max_rel_err == 0.0);
        if (r->counter_status == MMB_STATUS_PROFILING_DENIED)
            continue;
        ck_assert_msg(r->counter_status == MMB_STATUS_OK, "%s: counters %s", r->kernel,
                      mmb_status_text(r->counter_status));
        ck_assert(r->dram_read_bytes > 0.0);
        counted++;
        /* One FFMA per product, whatever the cluster. */
        if (!strcmp(r->kernel, "cluster") || !strcmp(r->kernel, "persistent"))
            ck_assert_msg(r->ffma == (double)r->m * (double)r->n * (double)r->k, "%s %s: ffma %.0f", r->kernel,
                          r->params, r->ffma);
    }
    printf("hopper.ini: %zu rows, %zu ok, %zu with counters\n", rows.n, ok, counted);
    if (device.cluster_launch)
        ck_assert_uint_gt(ok, 30);
    free(rows.rows);
    mmb_profile_free(p);
    free(p);
}
END_TEST


/* `mmbench run` in dir with extra options, its output in out (stdout and stderr);
 * returns the exit status. */
static int run_in(const char *dir, const char *extra, char *out, size_t len)
{
    const char *mmbench = getenv("MMBENCH");
    ck_assert_msg(mmbench != NULL, "MMBENCH must name the mmbench program");
    char cmd[4096], log[1200];
    snprintf(log, sizeof log, "%s/run.log", dir);
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' run --no-counters --cache-dir . -o r.csv %s p.ini >run.log 2>&1", dir,
             mmbench, extra);
    int status = system(cmd);
    FILE *f = fopen(log, "r");
    size_t n = f ? fread(out, 1, len - 1, f) : 0;
    out[n] = '\0';
    if (f)
        fclose(f);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void file_append(const char *path, const char *text)
{
    FILE *f = fopen(path, "a");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

/* Every row of a run names its origin and protocol and has its launch times; a resumed
 * run measures nothing again; after an edit of the kernel only its rows are measured
 * again (the new ones superseding the old), after a change of protocol every row, and
 * --keep-stale keeps what is there. */
START_TEST(test_resume_measures_an_edited_kernel_again)
{
    char dir[256], path[512], out[1 << 14], cmd[2048];
    snprintf(dir, sizeof dir, "%s/resume", tmpdir);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && cp '%s/kernels/naive.cu' '%s/k.cu'", dir, getenv("MMB_SOURCE_ROOT"),
             dir);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(path, sizeof path, "%s/p.ini", dir);
    FILE *f = fopen(path, "w");
    fputs("[profile]\nname = resume\nsizes = 64, 96\nrepeats = 7\nwarmup = 2\n"
          "[kernel naive]\nsource = k.cu\nfunction = matmul_naive\nparam.block_size_x = 8, 16\n"
          "param.block_size_y = 8\n[kernel cublas]\nlibrary = cublas\n", f);
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_msg(run_in(dir, "", out, sizeof out) == 0, "%s", out);
    ck_assert_msg(strstr(out, "6 rows written, 0 already there"), "%s", out);
    char csv[512];
    snprintf(csv, sizeof csv, "%s/r.csv", dir);
    struct collected rows = {0};
    char err[1024];
    ck_assert_msg(mmb_csv_read(csv, collect, &rows, err, sizeof err) == 0, "%s", err);
    struct mmb_samples_set *set;
    ck_assert_msg(mmb_samples_load(csv, &set, err, sizeof err) == 0, "%s", err);
    for (size_t i = 0; i < rows.n; i++) {
        const struct mmb_row *r = &rows.rows[i];
        ck_assert_int_eq(r->status, MMB_STATUS_OK);
        ck_assert_msg(strstr(r->protocol, "mmbench=") && strstr(r->protocol, ";warmup=2;repeats=7;cache=cold;"),
                      "%s", r->protocol);
        size_t n;
        const double *t = mmb_samples_find(set, r, &n);
        ck_assert_msg(t && n == 7, "%s %s: no samples", r->kernel, r->params);
        if (!strcmp(r->kernel, "cublas")) {
            ck_assert_msg(!strncmp(r->source_digest, "cuBLAS ", 7) && !r->compile_options[0], "%s", r->source_digest);
        } else {
            ck_assert_uint_eq(strlen(r->source_digest), 16);
            ck_assert_msg(strstr(r->compile_options, "--gpu-architecture=sm_") &&
                              strstr(r->compile_options, "-Delem_t=float") && strstr(r->compile_options, "(NVRTC ") &&
                              !strstr(r->compile_options, "block_size"),
                          "%s", r->compile_options);
        }
    }
    mmb_samples_free(set);
    free(rows.rows);

    ck_assert_msg(run_in(dir, "", out, sizeof out) == 0, "%s", out);
    ck_assert_msg(strstr(out, "0 rows written, 6 already there") && !strstr(out, "measured otherwise"), "%s", out);

    snprintf(path, sizeof path, "%s/k.cu", dir);
    file_append(path, "/* edited */\n");
    ck_assert_msg(run_in(dir, "", out, sizeof out) == 0, "%s", out);
    ck_assert_msg(strstr(out, "4 rows of r.csv were measured otherwise than this run measures: 4 kernel source (or a "
                              "file it includes) changed (naive); measuring them again") &&
                      strstr(out, "4 rows written, 2 already there"),
                  "%s", out);
    memset(&rows, 0, sizeof rows);
    ck_assert_msg(mmb_csv_read(csv, collect, &rows, err, sizeof err) == 0, "%s", err);
    ck_assert_uint_eq(rows.n, 10);
    ck_assert_str_ne(rows.rows[0].source_digest, rows.rows[9].source_digest);
    free(rows.rows);

    ck_assert_msg(run_in(dir, "--warmup 3", out, sizeof out) == 0, "%s", out);
    ck_assert_msg(strstr(out, "6 timed or counted otherwise (protocol changed) (naive, cublas; warmup 2 against 3)") &&
                      strstr(out, "6 rows written, 0 already there"),
                  "%s", out);
    file_append(path, "/* edited again */\n");
    ck_assert_msg(run_in(dir, "--warmup 3 --keep-stale", out, sizeof out) == 0, "%s", out);
    ck_assert_msg(strstr(out, "kept as they are (--keep-stale)") && strstr(out, "0 rows written, 6 already there"),
                  "%s", out);
}
END_TEST

int main(void)
{
    char err[512];
    if (mmb_gpu_count(err, sizeof err) <= 0) {
        printf("SKIP: no GPU (%s)\n", err);
        return EXIT_SKIP;
    }
    if (mmb_gpu_query(0, &device, err, sizeof err) != 0) {
        printf("device 0: %s\n", err);
        return EXIT_FAILURE;
    }
    if (tmpdir_make() != 0) {
        perror(tmpdir);
        return EXIT_FAILURE;
    }
    Suite *s = suite_create("gpu");
    TCase *tc = tcase_create("gpu");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_every_kernel_correct_at_awkward_sizes);
    tcase_add_test(tc, test_each_failure_has_its_status);
    tcase_add_test(tc, test_every_verified_launch_catches_a_wrong_kernel);
    tcase_add_test(tc, test_counters_count_every_ffma);
    tcase_add_loop_test(tc, test_batched_counters_equal_alone, 0, 3);
    tcase_add_test(tc, test_best_counts_each_fastest);
    tcase_add_test(tc, test_shards_merge_to_one_run);
    tcase_add_test(tc, test_resume_measures_an_edited_kernel_again);
    suite_add_tcase(s, tc);
    TCase *precision = tcase_create("precision"); /* CK_RUN_CASE=precision runs it alone */
    tcase_set_timeout(precision, 600);
    tcase_add_test(precision, test_precisions_round_as_the_rule_says);
    suite_add_tcase(s, precision);
    /* Apart, so that CK_RUN_CASE=hopper runs them alone. */
    TCase *hopper = tcase_create("hopper");
    tcase_set_timeout(hopper, 600);
    tcase_add_test(hopper, test_clusters_seen_from_inside);
    tcase_add_test(hopper, test_tma_copies_every_element);
    tcase_add_test(hopper, test_hopper_features_through_the_harness);
    suite_add_tcase(s, hopper);
    return mmb_test_failures(s, true) ? EXIT_FAILURE : EXIT_SUCCESS;
}
