/* test_cupti.c - every metric of the table (the tensor pipes' too) is accepted by
 * CUPTI's host API for GH100 and GA100 with no GPU, in the table's unit (passes
 * printed; `default` without the stall reasons within 10 passes, and each shipped
 * profile's set within its passes on GH100); opening the profiler where counters cannot
 * be read is a status and a message, not a crash; and, on a GPU, counters of known
 * kernels come out exact (FFMA count) or close (DRAM bytes), cold and hot. */
#include <check.h>
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "cuda/compile.h"
#include "cuda/cupti.h"
#include "cuda/cupti_host.h"
#include "cuda/gpu.h"
#include "model/profile.h"
#include "results/metrics.h"

static const char *const chips[] = {"GH100", "GA100"};

static bool have_gpu(void)
{
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

static void row_empty(struct mmb_row *row)
{
    memset(row, 0, sizeof *row);
    for (const struct mmb_metric *m = mmb_metrics; m->cupti; m++)
        if (m->column)
            *mmb_metric_field(row, m) = NAN;
    row->counter_status = MMB_STATUS_SKIPPED;
}

START_TEST(test_offline_each_metric)
{
    const char *chip = chips[_i];
    char err[512];
    for (size_t i = 0; mmb_metrics[i].cupti; i++) {
        struct mmb_metric_set one = {.count = 1, .index = {(unsigned char)i}};
        size_t passes = 0;
        ck_assert_msg(mmb_cupti_validate_offline(chip, &one, &passes, err, sizeof err) == 0, "%s: %s",
                      mmb_metrics[i].cupti, err);
        ck_assert_uint_ge(passes, 1);
        printf("%s  %-58s %zu pass%s\n", chip, mmb_metrics[i].cupti, passes, passes == 1 ? "" : "es");
    }
}
END_TEST

START_TEST(test_offline_named_sets)
{
    const char *chip = chips[_i];
    /* the last is default without the stall reasons and the instruction counts */
    const char *names[] = {"default",      "memory", "compute", "tensor", "stalls",
                           "instructions", "memory, compute, l1_util_pct, l2_util_pct"};
    enum { SETS = sizeof names / sizeof names[0] };
    size_t passes[SETS];
    char err[512];
    for (size_t i = 0; i < SETS; i++) {
        struct mmb_metric_set set;
        ck_assert_int_eq(mmb_metric_set_parse(names[i], &set, err, sizeof err), 0);
        ck_assert_msg(mmb_cupti_validate_offline(chip, &set, &passes[i], err, sizeof err) == 0, "%s", err);
        printf("%s  set %-8.8s %2zu metrics + duration: %zu passes\n", chip, names[i], set.count, passes[i]);
    }
    for (size_t i = 1; i < SETS; i++)
        ck_assert_uint_ge(passes[0], passes[i]);
    ck_assert_uint_ge(passes[1], 1);
    /* the tensor counters, the issue rate and the shared-memory wavefronts ride in the
     * passes the others needed; the eight stall reasons and their total cost 3 more
     * (on GH100; none on GA100) and the instrumented instruction counts one: every
     * replay of a profiled launch counts */
    ck_assert_uint_le(passes[SETS - 1], 9);
    ck_assert_uint_le(passes[0], passes[SETS - 1] + 4);
    ck_assert_uint_le(passes[4], 4);
    ck_assert_uint_le(passes[5], 2);
}
END_TEST

/* The passes of each shipped profile's metric set on GH100 (H100, H200), printed; the
 * story profile reads no stall reasons (the report reads them from the ladders only)
 * and so fits in default's passes less theirs, the ladders pay for them; neither the
 * story nor the FP32 ladder reads the instrumented instruction counts. */
START_TEST(test_offline_profile_passes)
{
    static const struct { const char *profile; size_t most; } profiles[] = {
        {"course.ini", 9}, {"ladder.ini", 12}, {"ladder-tc.ini", 13}, {"tune-seed.ini", 13},
    };
    const char *root = getenv("MMB_SOURCE_ROOT");
    ck_assert_ptr_nonnull(root);
    for (size_t i = 0; i < sizeof profiles / sizeof profiles[0]; i++) {
        char path[1024], err[2048];
        snprintf(path, sizeof path, "%s/profiles/%s", root, profiles[i].profile);
        struct mmb_profile *p = calloc(1, sizeof *p);
        ck_assert_ptr_nonnull(p);
        ck_assert_msg(mmb_profile_load(path, p, err, sizeof err) == 0, "%s", err);
        struct mmb_metric_set set;
        ck_assert_msg(mmb_metric_set_parse(p->metrics, &set, err, sizeof err) == 0, "%s", err);
        size_t passes = 0;
        ck_assert_msg(mmb_cupti_validate_offline("GH100", &set, &passes, err, sizeof err) == 0, "%s", err);
        printf("GH100  profiles/%-14s metrics = %s: %zu metrics + duration, %zu passes\n", profiles[i].profile,
               p->metrics[0] ? p->metrics : "default", set.count, passes);
        ck_assert_uint_le(passes, profiles[i].most);
        mmb_profile_free(p);
        free(p);
    }
}
END_TEST

START_TEST(test_offline_unknown_chip)
{
    char err[512];
    struct mmb_metric_set set;
    ck_assert_int_eq(mmb_metric_set_parse("memory", &set, err, sizeof err), 0);
    ck_assert_int_eq(mmb_cupti_validate_offline("GX999", &set, NULL, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "'GX999'") && strstr(err, "GH100"), "%s", err);
}
END_TEST

START_TEST(test_open_empty_set)
{
    struct mmb_profiler *p = (struct mmb_profiler *)&p; /* must come back NULL */
    struct mmb_metric_set none;
    char err[512] = "";
    ck_assert_int_eq(mmb_metric_set_parse("none", &none, err, sizeof err), 0);
    ck_assert_int_eq(mmb_profiler_open(&p, 0, &none, NULL, NULL, err, sizeof err), MMB_STATUS_SKIPPED);
    ck_assert_ptr_null(p);
    ck_assert(strlen(err) > 0);
}
END_TEST

START_TEST(test_open_denied_or_ok)
{
    struct mmb_profiler *p = (struct mmb_profiler *)&p;
    struct mmb_metric_set set;
    char err[512] = "";
    ck_assert_int_eq(mmb_metric_set_parse("default", &set, err, sizeof err), 0);
    struct mmb_l2_flush *flush = NULL; /* without a GPU there is none: the open fails before it is used */
    if (have_gpu())
        ck_assert_msg(mmb_l2_flush_open(&flush, 0, NULL, err, sizeof err) == MMB_STATUS_OK, "%s", err);
    enum mmb_status st = mmb_profiler_open(&p, 0, &set, flush, NULL, err, sizeof err);
    printf("mmb_profiler_open: %s%s%s\n", mmb_status_text(st), err[0] ? ": " : "", err);
    if (!have_gpu()) {
        ck_assert_int_eq(st, MMB_STATUS_PROFILING_DENIED);
        ck_assert_ptr_null(p);
        ck_assert_msg(strstr(err, "no usable CUDA device") && strstr(err, "--no-counters"), "%s", err);
        ck_assert_msg(strchr(err, '\n') == NULL, "one line: %s", err);
        mmb_profiler_close(NULL);
        return;
    }
    if (st == MMB_STATUS_PROFILING_DENIED) {
        ck_assert_ptr_null(p);
        ck_assert_msg(strstr(err, "--no-counters"), "%s", err);
        mmb_l2_flush_close(flush);
        return;
    }
    ck_assert_int_eq(st, MMB_STATUS_OK);
    printf("chip %s, %zu passes for default\n", mmb_profiler_chip(p), mmb_profiler_passes(p));
    ck_assert_uint_ge(mmb_profiler_passes(p), 1);
    mmb_profiler_close(p);
    mmb_l2_flush_close(flush);
}
END_TEST

/* GPU only: known kernels under the profiler. */
static const char kernels[] =
    "extern \"C\" __global__ void fma_chain(const float *x, float *y, int n, int iters)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i >= n) return;\n"
    "    float a = x[i], b = 0.5f;\n"
    "    for (int t = 0; t < iters; t++) b = fmaf(a, b, 1.0f);\n"
    "    y[i] = b;\n"
    "}\n"
    "extern \"C\" __global__ void read_only(const float *a, float *out, int n)\n"
    "{\n"
    "    float s = 0.0f;\n"
    "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s += a[i];\n"
    "    if (s == -1.0f) out[0] = s;\n"
    "}\n"
    "extern \"C\" __global__ void vec_add(const float *a, const float *b, float *c, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) c[i] = a[i] + b[i];\n"
    "}\n";

struct launch {
    struct mmb_module *mod;
    long long grid[3], block[3];
    void **args;
};

static enum mmb_status launch_cb(void *opaque, char *err, size_t errlen)
{
    struct launch *l = opaque;
    return mmb_module_launch(l->mod, l->grid, l->block, NULL, 0, l->args, NULL, err, errlen);
}

static struct mmb_module *load(const char *function)
{
    int dev = 0, major = 0, minor = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
    const char *const none[] = {NULL};
    struct mmb_compile_request req = {.source_path = "test_cupti.c", .source = kernels, .function = function,
                                      .defines = none, .arch = major * 10 + minor};
    struct mmb_cubin cubin;
    char err[1024];
    ck_assert_msg(mmb_compile(&req, &cubin, err, sizeof err) == MMB_STATUS_OK, "%s", err);
    struct mmb_module *mod = NULL;
    struct mmb_kernel_attrs attrs;
    ck_assert_msg(mmb_module_load(cubin.data, cubin.size, function, &mod, &attrs, err, sizeof err) == MMB_STATUS_OK,
                  "%s", err);
    mmb_cubin_free(&cubin);
    return mod;
}

/* The profiler and the L2 flush it runs before every pass (the session's, in mmbench). */
static struct mmb_profiler *open_or_skip(const char *set_text, struct mmb_l2_flush **flush)
{
    *flush = NULL;
    if (!have_gpu()) {
        printf("skipped: no GPU\n");
        return NULL;
    }
    struct mmb_metric_set set;
    char err[512];
    ck_assert_int_eq(mmb_metric_set_parse(set_text, &set, err, sizeof err), 0);
    ck_assert_msg(mmb_l2_flush_open(flush, 0, NULL, err, sizeof err) == MMB_STATUS_OK, "%s", err);
    struct mmb_profiler *p = NULL;
    enum mmb_status st = mmb_profiler_open(&p, 0, &set, *flush, NULL, err, sizeof err);
    if (st == MMB_STATUS_PROFILING_DENIED) {
        printf("skipped: %s\n", err);
        mmb_l2_flush_close(*flush);
        *flush = NULL;
        return NULL;
    }
    ck_assert_msg(st == MMB_STATUS_OK, "%s", err);
    return p;
}

/* One measurement of l in cache mode (cold or hot) into a fresh row. */
static enum mmb_status measure(struct mmb_profiler *p, struct launch *l, const char *mode, struct mmb_row *row,
                               double *ns, int *passes, char *err, size_t errlen)
{
    row_empty(row);
    *ns = NAN;
    *passes = 0;
    err[0] = '\0';
    return mmb_profiler_measure(p, launch_cb, l, strcmp(mode, "cold") == 0, row, ns, passes, NULL, err, errlen);
}

START_TEST(test_gpu_ffma_exact)
{
    struct mmb_l2_flush *flush;
    struct mmb_profiler *p = open_or_skip("default", &flush);
    if (!p)
        return;
    int n = 1 << 20, iters = 256;
    float *x = NULL, *y = NULL;
    ck_assert_int_eq(cudaMalloc((void **)&x, (size_t)n * 4), cudaSuccess);
    ck_assert_int_eq(cudaMalloc((void **)&y, (size_t)n * 4), cudaSuccess);
    ck_assert_int_eq(cudaMemset(x, 0, (size_t)n * 4), cudaSuccess);
    void *args[] = {&x, &y, &n, &iters};
    struct launch l = {load("fma_chain"), {n / 256, 1, 1}, {256, 1, 1}, args};
    const char *modes[] = {"cold", "hot"};
    for (int m = 0; m < 2; m++) {
        struct mmb_row row;
        double ns;
        int passes;
        char err[512];
        enum mmb_status st = measure(p, &l, modes[m], &row, &ns, &passes, err, sizeof err);
        printf("fma_chain %s: %s %s; %d passes, %.0f ns, ffma %.0f fadd %.0f fmul %.0f, sm %.1f%%, occ %.1f%%, "
               "dram r/w %.0f/%.0f B, %.1f GB/s, L2 hit %.1f%%\n", modes[m], mmb_status_text(st), err, passes, ns,
               row.ffma, row.fadd, row.fmul, row.sm_util_pct, row.occupancy_pct, row.dram_read_bytes,
               row.dram_write_bytes, row.dram_gbps, row.l2_hit_pct);
        ck_assert_msg(st == MMB_STATUS_OK, "%s", err);
        ck_assert_int_eq(row.counter_status, MMB_STATUS_OK);
        ck_assert(row.ffma == (double)n * iters); /* exact */
        ck_assert(row.fmul == 0.0);
        ck_assert(ns > 0.0);
        ck_assert_int_eq((size_t)passes, mmb_profiler_passes(p));
        ck_assert(row.occupancy_pct > 0.0 && row.occupancy_pct <= 100.0);
    }
    mmb_module_unload(l.mod);
    cudaFree(x);
    cudaFree(y);
    mmb_profiler_close(p);
    mmb_l2_flush_close(flush);
}
END_TEST

START_TEST(test_gpu_dram_bytes_cold)
{
    struct mmb_l2_flush *flush;
    struct mmb_profiler *p = open_or_skip("memory", &flush);
    if (!p)
        return;
    int n = 1 << 25; /* 128 MiB per vector: more than any L2 */
    size_t bytes = (size_t)n * 4;
    float *a = NULL, *b = NULL, *c = NULL;
    ck_assert_int_eq(cudaMalloc((void **)&a, bytes), cudaSuccess);
    ck_assert_int_eq(cudaMalloc((void **)&b, bytes), cudaSuccess);
    ck_assert_int_eq(cudaMalloc((void **)&c, bytes), cudaSuccess);
    ck_assert_int_eq(cudaMemset(a, 0, bytes), cudaSuccess);
    ck_assert_int_eq(cudaMemset(b, 0, bytes), cudaSuccess);
    void *args[] = {&a, &b, &c, &n};
    struct launch l = {load("vec_add"), {n / 256, 1, 1}, {256, 1, 1}, args};
    struct mmb_row row;
    double ns;
    int passes;
    char err[512];
    enum mmb_status st = measure(p, &l, "cold", &row, &ns, &passes, err, sizeof err);
    printf("vec_add cold: %s %s; %d passes, %.0f ns, dram r/w %.0f/%.0f B (reads expected %zu), %.1f GB/s, "
           "dram %.1f%%, L1 hit %.1f%%, L2 hit %.1f%%\n", mmb_status_text(st), err, passes, ns,
           row.dram_read_bytes, row.dram_write_bytes, 2 * bytes, row.dram_gbps, row.dram_util_pct,
           row.l1_hit_pct, row.l2_hit_pct);
    ck_assert_msg(st == MMB_STATUS_OK, "%s", err);
    ck_assert(fabs(row.dram_read_bytes - 2.0 * (double)bytes) < 0.03 * 2.0 * (double)bytes);
    /* bandwidth from the counters agrees with bytes over duration */
    double gbps = (row.dram_read_bytes + row.dram_write_bytes) / ns;
    ck_assert(fabs(row.dram_gbps - gbps) < 0.03 * gbps);
    ck_assert(isnan(row.ffma)); /* not in the memory set */
    ck_assert_msg(row.dram_write_bytes <= 1.01 * (double)bytes, "wrote %.0f B of %zu", row.dram_write_bytes, bytes);
    mmb_module_unload(l.mod);
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    mmb_profiler_close(p);
    mmb_l2_flush_close(flush);
}
END_TEST

/* A kernel that writes nothing writes nothing to DRAM: nothing left dirty in L2 by
 * earlier work or by the profiler itself (cuptiRangeProfilerStart left ~20 MB, which
 * a large kernel wrote back; harness/cuda/cupti.c run_pass) is counted against it. */
START_TEST(test_gpu_read_only_writes_nothing)
{
    struct mmb_l2_flush *flush;
    struct mmb_profiler *p = open_or_skip("memory", &flush);
    if (!p)
        return;
    int n = 1 << 26; /* 256 MiB: evicts everything an L2 holds */
    size_t bytes = (size_t)n * 4;
    float *a = NULL, *out = NULL;
    ck_assert_int_eq(cudaMalloc((void **)&a, bytes), cudaSuccess);
    ck_assert_int_eq(cudaMalloc((void **)&out, 4), cudaSuccess);
    ck_assert_int_eq(cudaMemset(a, 0, bytes), cudaSuccess);
    int sms = 0;
    ck_assert_int_eq(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
    void *args[] = {&a, &out, &n};
    struct launch l = {load("read_only"), {8LL * sms, 1, 1}, {256, 1, 1}, args};
    const char *modes[] = {"cold", "hot"};
    for (int m = 0; m < 2; m++) {
        struct mmb_row row;
        double ns;
        int passes;
        char err[512];
        enum mmb_status st = measure(p, &l, modes[m], &row, &ns, &passes, err, sizeof err);
        printf("read_only %s: %s %s; dram r/w %.0f/%.0f B (read %zu)\n", modes[m], mmb_status_text(st), err,
               row.dram_read_bytes, row.dram_write_bytes, bytes);
        ck_assert_msg(st == MMB_STATUS_OK, "%s", err);
        ck_assert_msg(row.dram_write_bytes < 1e6, "%s: %.0f B written", modes[m], row.dram_write_bytes);
        ck_assert(fabs(row.dram_read_bytes - (double)bytes) < 0.03 * (double)bytes);
    }
    mmb_module_unload(l.mod);
    cudaFree(a);
    cudaFree(out);
    mmb_profiler_close(p);
    mmb_l2_flush_close(flush);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cupti");
    TCase *offline = tcase_create("offline");
    tcase_add_loop_test(offline, test_offline_each_metric, 0, 2);
    tcase_add_loop_test(offline, test_offline_named_sets, 0, 2);
    tcase_add_test(offline, test_offline_unknown_chip);
    tcase_add_test(offline, test_offline_profile_passes);
    suite_add_tcase(s, offline);
    TCase *device = tcase_create("device");
    tcase_add_test(device, test_open_empty_set);
    tcase_add_test(device, test_open_denied_or_ok);
    tcase_add_test(device, test_gpu_ffma_exact);
    tcase_add_test(device, test_gpu_dram_bytes_cold);
    tcase_add_test(device, test_gpu_read_only_writes_nothing);
    suite_add_tcase(s, device);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
