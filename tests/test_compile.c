/* test_compile.c - every configuration of every shipped profile compiles with NVRTC
 * for sm_80 and sm_90, in every dtype its kernel runs, on a thread per core (the
 * compile pool of `tune`). NVRTC needs no GPU, so this runs in CI; a kernel or
 * profile change that breaks a configuration fails here. */
#include <check.h>
#include <glob.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_run.h"
#include "cuda/compile.h"
#include "cuda/compile_pool.h"
#include "model/profile.h"
#include "model/space.h"
#include "core/util.h"

static const int archs[] = {80, 90};

/* Configurations already compiled, by compile key: the ladder's profiles share most of
 * theirs (ladder.ini's are in tune-ladder.ini's spaces, which ladder-awkward.ini
 * repeats), and so do precisions.ini and the GPU fixtures; compiling each once keeps
 * the test inside its time limit. */
#define SEEN_MAX 16384
static uint64_t seen[SEEN_MAX];
static size_t nseen;

/* The compile key of cfg with the kernel's source named by its real path: profiles in
 * different folders (profiles/, tests/fixtures/gpu/) reach one kernel file by
 * different relative paths. */
static uint64_t key_of(const struct mmb_kernel_spec *k, const char *const *defines)
{
    char real[4096];
    const char *path = realpath(k->source, real) ? real : k->source;
    uint64_t key = mmb_hash_bytes(MMB_FNV_SEED, path, strlen(path) + 1);
    key = mmb_hash_bytes(key, k->function, strlen(k->function) + 1);
    key = mmb_hash_bytes(key, k->nvrtc_options, strlen(k->nvrtc_options) + 1);
    for (const char *const *d = defines; *d; d++)
        key = mmb_hash_bytes(key, *d, strlen(*d) + 1);
    return key;
}

static bool seen_before(uint64_t key)
{
    for (size_t i = 0; i < nseen; i++)
        if (seen[i] == key)
            return true;
    if (nseen < SEEN_MAX)
        seen[nseen++] = key;
    return false;
}

/* One configuration to compile: its parameters, dtype and first allowed size. */
struct job {
    struct mmb_config cfg;
    enum mmb_dtype dtype;
    int size;
};

/* The configurations of kernel k not compiled before (at their first allowed size, in
 * every dtype the kernel runs), into a new array *out. */
static size_t new_jobs(const struct mmb_profile *p, const struct mmb_kernel_spec *k, struct job **out)
{
    char err[2048];
    size_t n = 0, cap = 64;
    struct job *jobs = malloc(cap * sizeof *jobs);
    ck_assert_ptr_nonnull(jobs);
    for (size_t i = 0; i < mmb_space_size(k); i++) {
        struct mmb_config cfg;
        mmb_space_config_at(k, i, &cfg);
        for (int d = 0; d < MMB_DTYPE_COUNT; d++) {
            if (!mmb_kernel_runs_dtype(p, k, (enum mmb_dtype)d))
                continue;
            int allowed_at = -1;
            for (int si = 0; si < p->nsizes && allowed_at < 0; si++) {
                int which;
                if (mmb_space_allowed(k, &cfg, &p->sizes[si], mmb_dtype_info((enum mmb_dtype)d)->size, &which,
                                      err, sizeof err) == 1)
                    allowed_at = si;
            }
            if (allowed_at < 0)
                continue;
            struct mmb_defines defs;
            ck_assert_msg(mmb_compile_defines(k, &cfg, &p->sizes[allowed_at], (enum mmb_dtype)d, &defs, err,
                                              sizeof err) == 0, "%s", err);
            if (seen_before(key_of(k, defs.list)))
                continue;
            if (n == cap) {
                cap *= 2;
                jobs = realloc(jobs, cap * sizeof *jobs);
                ck_assert_ptr_nonnull(jobs);
            }
            jobs[n++] = (struct job){cfg, (enum mmb_dtype)d, allowed_at};
        }
    }
    *out = jobs;
    return n;
}

/* Every new configuration of the profile for each arch: handed to the pools (one per
 * arch, a thread per core), which compile them into the cache at cache_dir, then
 * each compiled here through that cache (a hit, or the compile itself when its pool
 * had not reached it) and checked. */
static void compile_profile(const char *path, struct mmb_compile_pool *const pools[], const char *cache_dir,
                            size_t *compiled)
{
    char err[2048];
    struct mmb_profile *p = calloc(1, sizeof *p);
    ck_assert_ptr_nonnull(p);
    ck_assert_msg(mmb_profile_load(path, p, err, sizeof err) == 0, "%s", err);
    for (int ki = 0; ki < p->nkernels; ki++) {
        const struct mmb_kernel_spec *k = &p->kernels[ki];
        if (k->kind != MMB_KERNEL_SOURCE)
            continue;
        char *text = mmb_file_read(k->source, NULL, err, sizeof err);
        ck_assert_msg(text != NULL, "%s", err);
        struct job *jobs;
        size_t n = new_jobs(p, k, &jobs);
        for (size_t a = 0; a < sizeof archs / sizeof archs[0]; a++)
            for (size_t j = n; j-- > 0;) /* the pool takes the latest first: this order compiles the first first */
                mmb_compile_pool_submit(pools[a], k, text, &jobs[j].cfg, 1, &p->sizes[jobs[j].size], jobs[j].dtype);
        for (size_t j = 0; j < n; j++) {
            struct mmb_defines defs;
            ck_assert_msg(mmb_compile_defines(k, &jobs[j].cfg, &p->sizes[jobs[j].size], jobs[j].dtype, &defs, err,
                                              sizeof err) == 0, "%s", err);
            for (size_t a = 0; a < sizeof archs / sizeof archs[0]; a++) {
                double ms;
                bool from_cache;
                mmb_compile_pool_wait(pools[a], k, &jobs[j].cfg, &p->sizes[jobs[j].size], jobs[j].dtype, &ms,
                                      &from_cache);
                struct mmb_compile_request req = {.source_path = k->source, .source = text,
                                                  .function = defs.function, .defines = defs.list,
                                                  .arch = archs[a], .extra_options = k->nvrtc_options,
                                                  .prelude = k->prelude, .cuda_headers = defs.cuda_headers,
                                                  .headers = defs.headers, .cache_dir = cache_dir};
                struct mmb_cubin cubin;
                char params[256];
                mmb_space_format_params(k, &jobs[j].cfg, params, sizeof params);
                enum mmb_status st = mmb_compile(&req, &cubin, err, sizeof err);
                /* A tuning profile keeps the seeds' whole spaces: tiles beyond 48 KB of
                 * static shared memory are compile_error rows there, on purpose. */
                if (st != MMB_STATUS_OK && p->tune.line && strstr(err, "uses too much shared data"))
                    continue;
                ck_assert_msg(st == MMB_STATUS_OK, "%s: %s %s [%s] sm_%d: %s", path, k->name, params,
                              mmb_dtype_info(jobs[j].dtype)->text, archs[a], err);
                ck_assert_uint_gt(cubin.size, 0);
                mmb_cubin_free(&cubin);
                (*compiled)++;
            }
        }
        free(jobs);
        free(text); /* every job of this kernel is done: no worker holds it */
    }
    mmb_profile_free(p);
    free(p);
}

START_TEST(test_every_shipped_configuration_compiles)
{
    const char *root = getenv("MMB_SOURCE_ROOT");
    ck_assert_ptr_nonnull(root);
    char pattern[1024];
    snprintf(pattern, sizeof pattern, "%s/profiles/*.ini", root);
    glob_t g;
    ck_assert_int_eq(glob(pattern, 0, NULL, &g), 0);
    ck_assert_uint_ge(g.gl_pathc, 3);
    size_t compiled = 0;
    char cache[] = "/tmp/mmb-test-compile-XXXXXX", err[512];
    ck_assert_ptr_nonnull(mkdtemp(cache));
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int threads = cores < 1 ? 1 : cores > 16 ? 16 : (int)cores;
    struct mmb_compile_pool *pools[sizeof archs / sizeof archs[0]];
    for (size_t a = 0; a < sizeof archs / sizeof archs[0]; a++)
        ck_assert_msg(mmb_compile_pool_open(&pools[a], threads, archs[a], cache, err, sizeof err) == 0, "%s", err);
    for (size_t i = 0; i < g.gl_pathc; i++)
        if (!strstr(g.gl_pathv[i], "/seeds-as-written.ini")) /* fails on purpose: its own test */
            compile_profile(g.gl_pathv[i], pools, cache, &compiled);
    char fixture[1024];
    snprintf(fixture, sizeof fixture, "%s/tests/fixtures/gpu/awkward.ini", root);
    compile_profile(fixture, pools, cache, &compiled);
    /* the GPU test's kernels that round badly compile too: they must fail by their results */
    snprintf(fixture, sizeof fixture, "%s/tests/fixtures/gpu/precision.ini", root);
    compile_profile(fixture, pools, cache, &compiled);
    globfree(&g);
    for (size_t a = 0; a < sizeof archs / sizeof archs[0]; a++)
        mmb_compile_pool_close(pools[a]);
    char rm[1100];
    snprintf(rm, sizeof rm, "rm -rf '%s'", cache);
    ck_assert_int_eq(system(rm), 0);
    printf("compiled %zu configurations\n", compiled);
    ck_assert_uint_gt(compiled, 40);
}
END_TEST

/* The seeds' kernels as written, through each form of binding (argument orders,
 * defines from the problem, templates by name expression, C++ names, a prelude):
 * those the documents print with a bug fail to compile with NVRTC's reason, the rest
 * compile and are found under their lowered names. */
START_TEST(test_seeds_as_written_bind)
{
    static const struct {
        const char *kernel, *fails_with, *lowered;
    } expect[] = {
        {"000_naive", NULL, "_Z13matmul_kernelPfS_S_"},
        {"000_data_reuse", "identifier \"__synchthreads\" is undefined", NULL},
        {"002_naive", "identifier \"i\" is undefined", NULL},
        {"002_shared", "identifier \"__synchthreads\" is undefined", NULL},
        {"002_tiled_1xN", NULL, "_Z13matmul_kernelPfS_S_"},
        {"003_default", NULL, "_Z14MM_Mul_DefaultPiS_S_i"},
        {"003_optimized", NULL, "_Z16MM_MUl_OptimizedPiS_S_ii"},
        {"004_basic", NULL, "_Z11mat_mat_mulI"},
        {"004_tiles", NULL, "_Z17mat_mat_mul_tilesI"},
        {"004_rec_tiles", NULL, "_Z21mat_mat_mul_rec_tilesI"},
    };
    char path[1200], err[4096];
    snprintf(path, sizeof path, "%s/profiles/seeds-as-written.ini", getenv("MMB_SOURCE_ROOT"));
    struct mmb_profile *p = calloc(1, sizeof *p);
    ck_assert_ptr_nonnull(p);
    ck_assert_msg(mmb_profile_load(path, p, err, sizeof err) == 0, "%s", err);
    size_t checked = 0;
    for (size_t e = 0; e < sizeof expect / sizeof expect[0]; e++) {
        const struct mmb_kernel_spec *k = NULL;
        for (int i = 0; i < p->nkernels; i++)
            if (!strcmp(p->kernels[i].name, expect[e].kernel))
                k = &p->kernels[i];
        ck_assert_msg(k != NULL, "no kernel %s", expect[e].kernel);
        char *text = mmb_file_read(k->source, NULL, err, sizeof err);
        ck_assert_msg(text != NULL, "%s", err);
        for (int d = 0; d < MMB_DTYPE_COUNT; d++) {
            if (!mmb_kernel_runs_dtype(p, k, (enum mmb_dtype)d))
                continue;
            struct mmb_config cfg;
            int si = -1, which;
            for (size_t c = 0; c < mmb_space_size(k) && si < 0; c++) {
                mmb_space_config_at(k, c, &cfg);
                for (int z = 0; z < p->nsizes && si < 0; z++)
                    if (mmb_space_allowed(k, &cfg, &p->sizes[z], 4, &which, err, sizeof err) == 1)
                        si = z;
            }
            ck_assert_msg(si >= 0, "%s: nothing allowed", k->name);
            struct mmb_defines defs;
            ck_assert_msg(mmb_compile_defines(k, &cfg, &p->sizes[si], (enum mmb_dtype)d, &defs, err, sizeof err) == 0,
                          "%s", err);
            struct mmb_compile_request req = {.source_path = k->source, .source = text, .function = defs.function,
                                              .defines = defs.list, .arch = 90, .prelude = k->prelude,
                                              .cuda_headers = defs.cuda_headers, .headers = defs.headers};
            struct mmb_cubin cubin;
            enum mmb_status st = mmb_compile(&req, &cubin, err, sizeof err);
            if (expect[e].fails_with) {
                ck_assert_msg(st == MMB_STATUS_COMPILE_ERROR && strstr(err, expect[e].fails_with), "%s: %s",
                              k->name, err);
            } else {
                ck_assert_msg(st == MMB_STATUS_OK, "%s [%s]: %s", k->name, mmb_dtype_info((enum mmb_dtype)d)->text, err);
                ck_assert_msg(!strncmp(cubin.function, expect[e].lowered, strlen(expect[e].lowered)),
                              "%s: lowered name %s, expected %s...", k->name, cubin.function, expect[e].lowered);
            }
            mmb_cubin_free(&cubin);
            checked++;
        }
        free(text);
    }
    ck_assert_uint_eq(checked, 13); /* ten kernels, 004's three in f32 and i32 */
    mmb_profile_free(p);
    free(p);
}
END_TEST

START_TEST(test_compile_error_reports_the_log)
{
    char err[2048] = "";
    const char *defines[] = {"elem_t=float", "block_size_x=16", "block_size_y=16", NULL};
    struct mmb_compile_request req = {.source_path = "bad.cu",
                                      .source = "extern \"C\" __global__ void f(float *c) { c[0] = nope; }",
                                      .function = "f", .defines = defines, .arch = 90};
    struct mmb_cubin cubin;
    ck_assert_int_eq(mmb_compile(&req, &cubin, err, sizeof err), MMB_STATUS_COMPILE_ERROR);
    ck_assert_msg(strstr(err, "nope") != NULL, "log should name the undefined identifier: %s", err);
    ck_assert_ptr_null(cubin.data);
}
END_TEST

START_TEST(test_cache_hit_returns_same_cubin)
{
    char dir[] = "/tmp/mmb-test-cache-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char err[1024];
    const char *defines[] = {"elem_t=float", NULL};
    struct mmb_compile_request req = {.source_path = "k.cu",
                                      .source = "extern \"C\" __global__ void f(elem_t *c) { c[0] = 1; }",
                                      .function = "f", .defines = defines, .arch = 90, .cache_dir = dir};
    struct mmb_cubin first, second;
    ck_assert_int_eq(mmb_compile(&req, &first, err, sizeof err), MMB_STATUS_OK);
    ck_assert(!first.from_cache);
    ck_assert_int_eq(mmb_compile(&req, &second, err, sizeof err), MMB_STATUS_OK);
    ck_assert(second.from_cache);
    ck_assert_uint_eq(first.size, second.size);
    ck_assert_int_eq(memcmp(first.data, second.data, first.size), 0);
    /* Another option is another key. */
    const char *other[] = {"elem_t=double", NULL};
    req.defines = other;
    struct mmb_cubin third;
    ck_assert_int_eq(mmb_compile(&req, &third, err, sizeof err), MMB_STATUS_OK);
    ck_assert(!third.from_cache);
    mmb_cubin_free(&first);
    mmb_cubin_free(&second);
    mmb_cubin_free(&third);
    char cmd[1100];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(test_compile_key_names_the_module)
{
    static struct mmb_kernel_spec k = {.source = "k.cu", .function = "f"}, other;
    const char *a[] = {"block_size_x=16", "elem_t=float", NULL};
    const char *same[] = {"block_size_x=16", "elem_t=float", NULL};
    const char *c[] = {"block_size_x=32", "elem_t=float", NULL};
    uint64_t key = mmb_compile_key(&k, a);
    ck_assert(mmb_compile_key(&k, same) == key);
    ck_assert(mmb_compile_key(&k, c) != key);
    other = k;
    snprintf(other.nvrtc_options, sizeof other.nvrtc_options, "-lineinfo");
    ck_assert(mmb_compile_key(&other, a) != key);
    /* Each field is hashed with its zero: a character moved across fields is another key. */
    other = k;
    snprintf(other.source, sizeof other.source, "k.c");
    snprintf(other.function, sizeof other.function, "uf");
    ck_assert(mmb_compile_key(&other, a) != key);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("compile");
    TCase *tc = tcase_create("nvrtc");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_every_shipped_configuration_compiles);
    tcase_add_test(tc, test_seeds_as_written_bind);
    tcase_add_test(tc, test_compile_error_reports_the_log);
    tcase_add_test(tc, test_cache_hit_returns_same_cubin);
    tcase_add_test(tc, test_compile_key_names_the_module);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
