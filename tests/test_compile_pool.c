/* test_compile_pool.c - NVRTC on worker threads (no GPU needed): every submitted
 * configuration compiles exactly once into the cubin cache, in the key the
 * session looks up; a second pool finds them all in the cache; waiting on a queued
 * job compiles it on the caller; a job never submitted returns at once; failures
 * are counted, and remembered by the cache. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_run.h"
#include "core/file.h"
#include "cuda/compile.h"
#include "cuda/compile_pool.h"
#include "tmpdir.h"

static const struct mmb_size size = {256, 256, 256};
static char *source;
static struct mmb_kernel_spec naive;

static void setup(void)
{
    tmpdir_setup();
    memset(&naive, 0, sizeof naive);
    snprintf(naive.name, sizeof naive.name, "naive");
    snprintf(naive.source, sizeof naive.source, "%.900s/kernels/naive.cu", root);
    snprintf(naive.function, sizeof naive.function, "matmul_naive");
    naive.nparams = 2;
    snprintf(naive.params[0].name, sizeof naive.params[0].name, "block_size_x");
    snprintf(naive.params[1].name, sizeof naive.params[1].name, "block_size_y");
    char err[256];
    source = mmb_file_read(naive.source, NULL, err, sizeof err);
    ck_assert_msg(source != NULL, "%s", err);
}

static void teardown(void)
{
    free(source);
    tmpdir_teardown();
}

static void configs(struct mmb_config *cfgs, int n)
{
    for (int i = 0; i < n; i++) {
        memset(&cfgs[i], 0, sizeof cfgs[i]);
        cfgs[i].values[0] = 8 << (i % 4);
        cfgs[i].values[1] = 1 << (i / 4);
    }
}

static int cubins_in_cache(void)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "ls '%s' | grep -c 'cubin$'", tmpdir);
    FILE *f = popen(cmd, "r");
    ck_assert_ptr_nonnull(f);
    int n = -1;
    ck_assert_int_eq(fscanf(f, "%d", &n), 1);
    pclose(f);
    return n;
}

START_TEST(test_pool_compiles_once_then_caches)
{
    enum { N = 8 };
    struct mmb_config cfgs[N];
    configs(cfgs, N);
    char err[256];
    struct mmb_compile_pool *pool;
    ck_assert_msg(mmb_compile_pool_open(&pool, 2, 90, tmpdir, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(mmb_compile_pool_submit(pool, &naive, source, cfgs, N, &size, MMB_F32), 0);
    ck_assert_int_eq(mmb_compile_pool_submit(pool, &naive, source, cfgs, N, &size, MMB_F32), 0); /* again: no new job */
    for (int i = N - 1; i >= 0; i--) { /* out of order: some are queued, some done */
        double ms;
        bool cached;
        mmb_compile_pool_wait(pool, &naive, &cfgs[i], &size, MMB_F32, &ms, &cached);
        ck_assert(!isnan(ms) && ms > 0);
        ck_assert(!cached);
    }
    struct mmb_compile_pool_stats st;
    mmb_compile_pool_stats(pool, &st);
    ck_assert_uint_eq(st.submitted, N);
    ck_assert_uint_eq(st.compiled, N);
    ck_assert_uint_eq(st.cache_hits + st.failed, 0);
    ck_assert(st.nvrtc_seconds > 0);
    mmb_compile_pool_close(pool);
    ck_assert_int_eq(cubins_in_cache(), N);

    /* What the session asks mmb_compile for is there: a cache hit, no NVRTC. */
    struct mmb_defines defines;
    ck_assert_int_eq(mmb_compile_defines(&naive, &cfgs[3], &size, MMB_F32, &defines, err, sizeof err), 0);
    struct mmb_compile_request req = {.source_path = naive.source, .source = source, .function = defines.function,
                                      .defines = defines.list, .arch = 90, .extra_options = naive.nvrtc_options,
                                      .cache_dir = tmpdir};
    struct mmb_cubin cubin;
    ck_assert_int_eq(mmb_compile(&req, &cubin, err, sizeof err), MMB_STATUS_OK);
    ck_assert(cubin.from_cache);
    mmb_cubin_free(&cubin);

    /* A second pool (a second tune) compiles nothing. */
    ck_assert_int_eq(mmb_compile_pool_open(&pool, 2, 90, tmpdir, err, sizeof err), 0);
    ck_assert_int_eq(mmb_compile_pool_submit(pool, &naive, source, cfgs, N, &size, MMB_F32), 0);
    for (int i = 0; i < N; i++) {
        double ms;
        bool cached;
        mmb_compile_pool_wait(pool, &naive, &cfgs[i], &size, MMB_F32, &ms, &cached);
        ck_assert(cached);
    }
    mmb_compile_pool_stats(pool, &st);
    ck_assert_uint_eq(st.compiled, 0);
    ck_assert_uint_eq(st.cache_hits, N);
    ck_assert(st.nvrtc_seconds == 0);
    mmb_compile_pool_close(pool);
}
END_TEST

START_TEST(test_pool_wait_unknown_and_inline)
{
    struct mmb_config cfgs[6];
    configs(cfgs, 6);
    char err[256];
    struct mmb_compile_pool *pool;
    ck_assert_int_eq(mmb_compile_pool_open(&pool, 1, 90, tmpdir, err, sizeof err), 0);
    double ms;
    bool cached;
    mmb_compile_pool_wait(pool, &naive, &cfgs[0], &size, MMB_F32, &ms, &cached); /* never submitted */
    ck_assert(isnan(ms));
    ck_assert_int_eq(mmb_compile_pool_submit(pool, &naive, source, cfgs, 6, &size, MMB_F32), 0);
    /* The last of the batch is (all but surely) still queued behind the single
     * worker: taken and compiled by the caller. */
    mmb_compile_pool_wait(pool, &naive, &cfgs[5], &size, MMB_F32, &ms, &cached);
    ck_assert(!isnan(ms));
    struct mmb_compile_pool_stats st;
    mmb_compile_pool_stats(pool, &st);
    ck_assert_uint_le(st.inline_compiles, 1);
    ck_assert(st.wait_seconds > 0);
    /* f64 is another configuration (elem_t differs). */
    ck_assert_int_eq(mmb_compile_pool_submit(pool, &naive, source, cfgs, 1, &size, MMB_F64), 0);
    mmb_compile_pool_close(pool); /* drops what is queued, joins */
}
END_TEST

START_TEST(test_pool_counts_failures)
{
    struct mmb_kernel_spec broken = naive;
    snprintf(broken.nvrtc_options, sizeof broken.nvrtc_options, "-Dmatmul_naive=\"oops(\"");
    struct mmb_config cfg;
    configs(&cfg, 1);
    char err[256];
    struct mmb_compile_pool *pool;
    ck_assert_int_eq(mmb_compile_pool_open(&pool, 2, 90, tmpdir, err, sizeof err), 0);
    ck_assert_int_eq(mmb_compile_pool_submit(pool, &broken, source, &cfg, 1, &size, MMB_F32), 0);
    double ms;
    bool cached;
    mmb_compile_pool_wait(pool, &broken, &cfg, &size, MMB_F32, &ms, &cached);
    struct mmb_compile_pool_stats st;
    mmb_compile_pool_stats(pool, &st);
    ck_assert_uint_eq(st.failed, 1);
    ck_assert_uint_eq(st.compiled, 1);
    ck_assert(!cached);
    mmb_compile_pool_close(pool);
    ck_assert_int_eq(cubins_in_cache(), 0);

    /* The cache remembers the rejection: a second tune runs no NVRTC for it, and the
     * session (mmb_compile) gets the same message. */
    ck_assert_int_eq(mmb_compile_pool_open(&pool, 2, 90, tmpdir, err, sizeof err), 0);
    ck_assert_int_eq(mmb_compile_pool_submit(pool, &broken, source, &cfg, 1, &size, MMB_F32), 0);
    mmb_compile_pool_wait(pool, &broken, &cfg, &size, MMB_F32, &ms, &cached);
    ck_assert(cached);
    mmb_compile_pool_stats(pool, &st);
    ck_assert_uint_eq(st.failed, 1);
    ck_assert_uint_eq(st.compiled, 0);
    ck_assert_uint_eq(st.cache_hits, 1);
    mmb_compile_pool_close(pool);
    struct mmb_defines defines;
    char derr[256];
    ck_assert_int_eq(mmb_compile_defines(&broken, &cfg, &size, MMB_F32, &defines, derr, sizeof derr), 0);
    struct mmb_compile_request req = {.source_path = broken.source, .source = source, .function = defines.function,
                                      .defines = defines.list, .arch = 90, .extra_options = broken.nvrtc_options,
                                      .cache_dir = tmpdir};
    struct mmb_cubin cubin;
    char log[1024];
    ck_assert_int_eq(mmb_compile(&req, &cubin, log, sizeof log), MMB_STATUS_COMPILE_ERROR);
    ck_assert(cubin.from_cache);
    ck_assert_ptr_nonnull(strstr(log, "NVRTC_ERROR_COMPILATION"));
    /* Without a cache nothing is remembered: NVRTC runs and says the same. */
    req.cache_dir = NULL;
    ck_assert_int_eq(mmb_compile(&req, &cubin, log, sizeof log), MMB_STATUS_COMPILE_ERROR);
    ck_assert(!cubin.from_cache);
}
END_TEST

/* Without a cache (a compile check): each job's outcome and the compiler's message,
 * and a job never submitted said to be so; nothing written anywhere. */
START_TEST(test_pool_results_without_cache)
{
    struct mmb_kernel_spec broken = naive;
    snprintf(broken.nvrtc_options, sizeof broken.nvrtc_options, "-Dmatmul_naive=\"oops(\"");
    struct mmb_config cfgs[2];
    configs(cfgs, 2);
    char err[2048];
    struct mmb_compile_pool *pool;
    ck_assert_int_eq(mmb_compile_pool_open(&pool, 2, 80, NULL, err, sizeof err), 0);
    ck_assert_int_eq(mmb_compile_pool_submit(pool, &naive, source, cfgs, 1, &size, MMB_F32), 0);
    ck_assert_int_eq(mmb_compile_pool_submit(pool, &broken, source, cfgs, 1, &size, MMB_F32), 0);
    ck_assert_int_eq(mmb_compile_pool_result(pool, &naive, &cfgs[0], &size, MMB_F32, err, sizeof err), MMB_STATUS_OK);
    ck_assert_int_eq(mmb_compile_pool_result(pool, &broken, &cfgs[0], &size, MMB_F32, err, sizeof err),
                     MMB_STATUS_COMPILE_ERROR);
    ck_assert_msg(strstr(err, "NVRTC_ERROR_COMPILATION") && strstr(err, "oops"), "%s", err);
    ck_assert_int_eq(mmb_compile_pool_result(pool, &naive, &cfgs[1], &size, MMB_F32, err, sizeof err),
                     MMB_STATUS_SKIPPED);
    ck_assert_ptr_nonnull(strstr(err, "not submitted"));
    struct mmb_compile_pool_stats st;
    mmb_compile_pool_stats(pool, &st);
    ck_assert_uint_eq(st.compiled, 2);
    ck_assert_uint_eq(st.failed, 1);
    mmb_compile_pool_close(pool);
    ck_assert_int_eq(cubins_in_cache(), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("compile_pool");
    TCase *tc = tcase_create("compile_pool");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_pool_compiles_once_then_caches);
    tcase_add_test(tc, test_pool_wait_unknown_and_inline);
    tcase_add_test(tc, test_pool_counts_failures);
    tcase_add_test(tc, test_pool_results_without_cache);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
