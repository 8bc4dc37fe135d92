/* test_compile.c - every configuration of every shipped profile compiles with NVRTC
 * for sm_80 and sm_90 (sm_90a for a kernel whose target is), in every dtype its
 * kernel runs (`test_compile all`, in parallel on every CPU; CI runs it), and each
 * kernel once in the default run; arch-specific code compiles for sm_90a only, and
 * the caches tell the variants apart. NVRTC needs no GPU, so this runs in CI; a
 * kernel or profile change that breaks a configuration fails here. */
#include <check.h>
#include <glob.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_run.h"
#include "core/file.h"
#include "cuda/compile.h"
#include "cuda/compile_pool.h"
#include "model/macro_names.h"
#include "model/profile.h"
#include "model/space.h"
#include "tmpdir.h"

/* The shipped configurations: every configuration of every shipped profile and GPU
 * fixture in every dtype its kernel runs, at the first size that allows it, each
 * once (by compile key: the ladder's profiles share most of theirs), compiled for
 * each architecture of MMB_COMPILE_ARCHS (default "80 90": sm_90a for a kernel whose
 * target is) by a compile pool of one thread per CPU. The sample takes of each
 * kernel section only its first allowed configuration per dtype: every source,
 * function, dtype and target once, for `meson test`; CI compiles them all
 * (`test_compile all`, the meson test compile-all). */
#define JOBS_MAX 16384
#define PROFILES_MAX 32

/* The compile key of cfg (targets included) with the kernel's source named by its
 * real path: profiles in different folders (profiles/, tests/fixtures/gpu/) reach one
 * kernel file by different relative paths. */
static uint64_t key_of(const struct mmb_kernel_spec *k, const char *const *defines)
{
    struct mmb_kernel_spec *real = malloc(sizeof *real);
    ck_assert_ptr_nonnull(real);
    *real = *k;
    char path[4096];
    if (realpath(k->source, path) && strlen(path) < sizeof real->source)
        memcpy(real->source, path, strlen(path) + 1);
    uint64_t key = mmb_compile_key(real, defines);
    free(real);
    return key;
}

struct shipped_job {
    const struct mmb_profile *profile;
    const struct mmb_kernel_spec *kernel;
    const char *source;
    struct mmb_config cfg;
    const struct mmb_size *size;
    enum mmb_dtype dtype;
};

struct shipped {
    struct mmb_profile *profiles[PROFILES_MAX];
    char *sources[PROFILES_MAX][MMB_MAX_KERNELS];
    size_t nprofiles;
    struct shipped_job *jobs;
    size_t njobs;
    uint64_t keys[JOBS_MAX];
};

static bool key_seen(struct shipped *sh, uint64_t key)
{
    for (size_t i = 0; i < sh->njobs; i++)
        if (sh->keys[i] == key)
            return true;
    return false;
}

/* The jobs of one profile (its sample: each kernel's first allowed configuration per
 * dtype), each configuration once across every profile. */
static void shipped_add(struct shipped *sh, const char *path, bool sample)
{
    char err[2048];
    ck_assert_uint_lt(sh->nprofiles, PROFILES_MAX);
    struct mmb_profile *p = calloc(1, sizeof *p);
    ck_assert_ptr_nonnull(p);
    ck_assert_msg(mmb_profile_load(path, p, err, sizeof err) == 0, "%s", err);
    size_t pi = sh->nprofiles++;
    sh->profiles[pi] = p;
    for (int ki = 0; ki < p->nkernels; ki++) {
        const struct mmb_kernel_spec *k = &p->kernels[ki];
        if (k->kind != MMB_KERNEL_SOURCE)
            continue;
        char *text = sh->sources[pi][ki] = mmb_file_read(k->source, NULL, err, sizeof err);
        ck_assert_msg(text != NULL, "%s", err);
        unsigned sampled = 0; /* dtypes sampled */
        for (size_t i = 0; i < mmb_space_size(k); i++) {
            struct mmb_config cfg;
            mmb_space_config_at(k, i, &cfg);
            for (int d = 0; d < MMB_DTYPE_COUNT; d++) {
                if (!mmb_kernel_runs_dtype(p, k, (enum mmb_dtype)d) || (sample && (sampled & (1u << d))))
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
                sampled |= 1u << d;
                uint64_t key = key_of(k, defs.list);
                if (key_seen(sh, key))
                    continue;
                ck_assert_uint_lt(sh->njobs, JOBS_MAX);
                sh->keys[sh->njobs] = key;
                sh->jobs[sh->njobs++] = (struct shipped_job){p, k, text, cfg, &p->sizes[allowed_at], (enum mmb_dtype)d};
            }
        }
    }
}

static void shipped_free(struct shipped *sh)
{
    for (size_t i = 0; i < sh->nprofiles; i++) {
        for (int k = 0; k < MMB_MAX_KERNELS; k++)
            free(sh->sources[i][k]);
        mmb_profile_free(sh->profiles[i]);
        free(sh->profiles[i]);
    }
    free(sh->jobs);
    free(sh);
}

/* Every job for arch, on one thread per CPU; returns the configurations compiled. */
static size_t shipped_compile(const struct shipped *sh, int arch)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    char err[2048];
    struct mmb_compile_pool *pool;
    ck_assert_msg(mmb_compile_pool_open(&pool, cpus > 1 ? (int)cpus : 1, arch, NULL, err, sizeof err) == 0, "%s", err);
    for (size_t i = 0; i < sh->njobs; i++) { /* each submit goes first: submitted last to first, run first to last */
        const struct shipped_job *j = &sh->jobs[sh->njobs - 1 - i];
        ck_assert_int_eq(mmb_compile_pool_submit(pool, j->kernel, j->source, &j->cfg, 1, j->size, j->dtype), 0);
    }
    size_t compiled = 0;
    for (size_t i = 0; i < sh->njobs; i++) {
        const struct shipped_job *j = &sh->jobs[i];
        bool specific;
        if (!mmb_kernel_target(j->kernel, arch, &specific, err, sizeof err))
            continue; /* a device of this arch does not run it */
        enum mmb_status st = mmb_compile_pool_result(pool, j->kernel, &j->cfg, j->size, j->dtype, err, sizeof err);
        /* A tuning profile keeps the seeds' whole spaces: tiles beyond 48 KB of
         * static shared memory are compile_error rows there, on purpose. */
        if (st != MMB_STATUS_OK && j->profile->tune.line && strstr(err, "uses too much shared data"))
            continue;
        char params[256];
        mmb_space_format_params(j->kernel, &j->cfg, params, sizeof params);
        ck_assert_msg(st == MMB_STATUS_OK, "%s: %s %s [%s] sm_%d%s: %s", j->profile->path, j->kernel->name, params,
                      mmb_dtype_info(j->dtype)->text, arch, specific ? "a" : "", err);
        compiled++;
    }
    struct mmb_compile_pool_stats stats;
    mmb_compile_pool_stats(pool, &stats);
    printf("sm_%d: %zu configurations compiled, NVRTC %.1f s on %ld CPUs\n", arch, compiled, stats.nvrtc_seconds,
           cpus);
    mmb_compile_pool_close(pool);
    return compiled;
}

/* Every profile and fixture, all of their configurations or their sample, compiled
 * for each architecture of MMB_COMPILE_ARCHS. */
static void shipped_check(bool sample)
{
    const char *source_root = getenv("MMB_SOURCE_ROOT");
    ck_assert_ptr_nonnull(source_root);
    char pattern[1024];
    snprintf(pattern, sizeof pattern, "%s/profiles/*.ini", source_root);
    glob_t g;
    ck_assert_int_eq(glob(pattern, 0, NULL, &g), 0);
    ck_assert_uint_ge(g.gl_pathc, 3);
    struct shipped *sh = calloc(1, sizeof *sh);
    ck_assert_ptr_nonnull(sh);
    ck_assert_ptr_nonnull(sh->jobs = calloc(JOBS_MAX, sizeof *sh->jobs));
    for (size_t i = 0; i < g.gl_pathc; i++)
        if (!strstr(g.gl_pathv[i], "/seeds-as-written.ini")) /* fails on purpose: its own test */
            shipped_add(sh, g.gl_pathv[i], sample);
    globfree(&g);
    /* precision.ini's kernels that round badly compile too: they must fail by their results */
    static const char *const fixtures[] = {"awkward.ini", "hopper.ini", "precision.ini"};
    for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++) {
        char fixture[1024];
        snprintf(fixture, sizeof fixture, "%s/tests/fixtures/gpu/%s", source_root, fixtures[i]);
        shipped_add(sh, fixture, sample);
    }
    const char *archs = getenv("MMB_COMPILE_ARCHS");
    size_t compiled = 0, narchs = 0;
    for (const char *a = archs && *archs ? archs : "80 90"; *a;) {
        char *end;
        long arch = strtol(a, &end, 10);
        ck_assert_msg(end != a && arch >= 50 && arch < 1000, "MMB_COMPILE_ARCHS='%s': expected numbers such as 80 90",
                      archs);
        compiled += shipped_compile(sh, (int)arch);
        narchs++;
        for (a = end; *a == ' ' || *a == ','; a++)
            ;
    }
    printf("%s: compiled %zu configurations (%zu distinct) for %zu architectures\n", sample ? "sample" : "all",
           compiled, sh->njobs, narchs);
    ck_assert_uint_gt(compiled, (sample ? 20 : 40) * narchs);
    shipped_free(sh);
}

START_TEST(test_every_shipped_configuration_compiles)
{
    shipped_check(false);
}
END_TEST

START_TEST(test_every_shipped_kernel_compiles)
{
    shipped_check(true);
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
    tmpdir_setup();
    const char *dir = tmpdir;
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
    tmpdir_teardown();
}
END_TEST

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

/* The disk cache's key covers every file the kernel includes (beside it and in its -I
 * folders): an edited header compiles anew, with the header's new text; an unchanged
 * one is a cache hit. */
START_TEST(test_cache_follows_includes)
{
    tmpdir_setup();
    const char *dir = tmpdir;
    char src[200], header[200], inc[200], inc_header[200], cache[200], opts[300], err[2048];
    snprintf(src, sizeof src, "%s/k.cu", dir);
    snprintf(header, sizeof header, "%s/value.h", dir);
    snprintf(inc, sizeof inc, "%s/inc", dir);
    ck_assert_int_eq(mkdir(inc, 0700), 0);
    snprintf(inc_header, sizeof inc_header, "%s/inc/scale.h", dir);
    snprintf(cache, sizeof cache, "%s/cache", dir);
    snprintf(opts, sizeof opts, "-I%s/inc", dir);
    static const char text[] = "#include \"value.h\"\n#include <scale.h>\n"
                               "extern \"C\" __global__ void f(elem_t *c) { c[0] = VALUE * SCALE; }\n";
    write_text(src, text);
    write_text(header, "#define VALUE 1\n");
    write_text(inc_header, "#define SCALE 3\n");
    const char *defines[] = {"elem_t=float", NULL};
    struct mmb_compile_request req = {.source_path = src, .source = text, .function = "f", .defines = defines,
                                      .arch = 90, .extra_options = opts, .cache_dir = cache};
    struct mmb_cubin a, b, c, d;
    ck_assert_msg(mmb_compile(&req, &a, err, sizeof err) == MMB_STATUS_OK, "%s", err);
    ck_assert(!a.from_cache);
    ck_assert_msg(mmb_compile(&req, &b, err, sizeof err) == MMB_STATUS_OK, "%s", err);
    ck_assert(b.from_cache);
    write_text(header, "#define VALUE 2\n");
    ck_assert_msg(mmb_compile(&req, &c, err, sizeof err) == MMB_STATUS_OK, "%s", err);
    ck_assert_msg(!c.from_cache, "an edited header was not compiled again");
    ck_assert(c.size != a.size || memcmp(c.data, a.data, a.size) != 0);
    write_text(inc_header, "#define SCALE 5 +\n"); /* now a compile error, not the cubin of before */
    ck_assert_int_eq(mmb_compile(&req, &d, err, sizeof err), MMB_STATUS_COMPILE_ERROR);
    ck_assert(!d.from_cache);
    mmb_cubin_free(&a);
    mmb_cubin_free(&b);
    mmb_cubin_free(&c);
    tmpdir_teardown();
}
END_TEST

/* The dtypes that get the toolkit's headers: the key follows the toolkit's include
 * folder (MMB_CUDA_INCLUDE here, a stand-in with the cuda_fp16.h it is known by) and
 * the headers pre-included from it, and what those include: an edited pre-included
 * header, or a file it includes, compiles anew. */
START_TEST(test_cache_follows_pre_included_headers)
{
    tmpdir_setup();
    char toolkit[100], types[160], nested[160], fp16[160], cache[100], err[2048];
    snprintf(toolkit, sizeof toolkit, "%s/toolkit", tmpdir);
    ck_assert_int_eq(mkdir(toolkit, 0700), 0);
    snprintf(fp16, sizeof fp16, "%s/cuda_fp16.h", toolkit);
    snprintf(types, sizeof types, "%s/mmb_test_types.h", toolkit);
    snprintf(nested, sizeof nested, "%s/mmb_test_scale.h", toolkit);
    snprintf(cache, sizeof cache, "%s/cache", tmpdir);
    write_text(fp16, "/* found by the toolkit search, never included here */\n");
    write_text(types, "#include \"mmb_test_scale.h\"\n#define VALUE 1\n");
    write_text(nested, "#define SCALE 3\n");
    ck_assert_int_eq(setenv("MMB_CUDA_INCLUDE", toolkit, 1), 0);
    static const char text[] = "extern \"C\" __global__ void f(elem_t *c) { c[0] = VALUE * SCALE; }\n";
    const char *defines[] = {"elem_t=float", NULL};
    const char *headers[] = {"mmb_test_types.h", NULL};
    struct mmb_compile_request req = {.source_path = "k.cu", .source = text, .function = "f", .defines = defines,
                                      .arch = 90, .cache_dir = cache, .cuda_headers = true, .headers = headers};
    struct mmb_cubin a, b, c, d;
    ck_assert_msg(mmb_compile(&req, &a, err, sizeof err) == MMB_STATUS_OK, "%s", err);
    ck_assert(!a.from_cache);
    ck_assert_msg(mmb_compile(&req, &b, err, sizeof err) == MMB_STATUS_OK, "%s", err);
    ck_assert(b.from_cache);
    write_text(types, "#include \"mmb_test_scale.h\"\n#define VALUE 2\n");
    ck_assert_msg(mmb_compile(&req, &c, err, sizeof err) == MMB_STATUS_OK, "%s", err);
    ck_assert_msg(!c.from_cache, "an edited pre-included header was not compiled again");
    ck_assert(c.size != a.size || memcmp(c.data, a.data, a.size) != 0);
    write_text(nested, "#define SCALE 5 +\n"); /* now a compile error, not the cubin of before */
    ck_assert_int_eq(mmb_compile(&req, &d, err, sizeof err), MMB_STATUS_COMPILE_ERROR);
    ck_assert(!d.from_cache);
    ck_assert_int_eq(unsetenv("MMB_CUDA_INCLUDE"), 0);
    mmb_cubin_free(&a);
    mmb_cubin_free(&b);
    mmb_cubin_free(&c);
    tmpdir_teardown();
}
END_TEST

/* A -D macro named like a name the compiled code uses breaks the compile where that
 * name stands: the message names the macro first (so that a row's reason, cut at 255
 * characters, still says it), then NVRTC's log. An error that is not on a macro blames
 * none. */
START_TEST(test_compile_error_names_the_macro)
{
    char err[2048];
    struct mmb_cubin cubin;
    const char *mode[] = {"mode=0", "elem_t=float", NULL};
    struct mmb_compile_request req = {.source_path = "k.cu",
                                      .source = "extern \"C\" __global__ void f(elem_t *c) { c[0] = 1; }\n",
                                      .function = "f", .defines = mode, .arch = 90};
    ck_assert_int_eq(mmb_compile(&req, &cubin, err, sizeof err), MMB_STATUS_COMPILE_ERROR);
    const char *blame = strstr(err, "the macro -Dmode=0 (a parameter or define of the profile) collides with the name "
                                    "'mode' at __nv_nvrtc_builtin_header.h(");
    ck_assert_msg(blame && blame - err < 60 && strstr(err, "rename it; NVRTC: NVRTC_ERROR_COMPILATION"), "%s", err);

    const char *tile[] = {"tile=16", "elem_t=float", NULL};
    req.defines = tile;
    req.source = "extern \"C\" __global__ void f(elem_t *c) {\n    int tile = 3;\n    c[0] = tile;\n}\n";
    ck_assert_int_eq(mmb_compile(&req, &cubin, err, sizeof err), MMB_STATUS_COMPILE_ERROR);
    ck_assert_msg(strstr(err, "k.cu: the macro -Dtile=16 (a parameter or define of the profile) collides with the "
                              "name 'tile' at k.cu(2): error: "), "%s", err);

    const char *bx[] = {"block_size_x=16", "elem_t=float", NULL};
    req.defines = bx;
    req.source = "extern \"C\" __global__ void f(elem_t *c) { c[0] = nope + block_size_x; }\n";
    ck_assert_int_eq(mmb_compile(&req, &cubin, err, sizeof err), MMB_STATUS_COMPILE_ERROR);
    ck_assert_msg(!strstr(err, "collides") && strstr(err, "nope"), "%s", err);
}
END_TEST

/* The table of names a parameter cannot take (model/nvrtc_names.c) holds for this
 * NVRTC: a sample of it breaks an empty kernel's compile as a -D macro, and the names
 * the shipped profiles use do not. */
START_TEST(test_nvrtc_names_collide)
{
    char err[2048];
    struct mmb_cubin cubin;
    struct mmb_compile_request req = {.source_path = "k.cu", .source = "extern \"C\" __global__ void f(float *c) { c[0] = 1; }\n",
                                      .function = "f", .arch = 90};
    size_t tried = 0, broke = 0;
    for (size_t i = 0; i < mmb_nvrtc_header_count; i += 37) {
        char define[96];
        snprintf(define, sizeof define, "%s=16", mmb_nvrtc_header_names[i]);
        const char *defines[] = {define, NULL};
        req.defines = defines;
        enum mmb_status st = mmb_compile(&req, &cubin, err, sizeof err);
        if (st == MMB_STATUS_OK)
            mmb_cubin_free(&cubin);
        tried++;
        /* a name the header only tests in #if changes it without breaking it */
        broke += st == MMB_STATUS_COMPILE_ERROR;
    }
    ck_assert_msg(broke + 3 >= tried, "%zu of %zu sampled names of nvrtc_names.c compile: another NVRTC? "
                  "run tools/nvrtc_names.py", tried - broke, tried);
    static const char *const fine[] = {"block_size_x=16", "tile_size_y=4", "tile=8", "WIDTH=4096", "TILE=16", NULL};
    for (const char *const *d = fine; *d; d++) {
        const char *defines[] = {*d, NULL};
        req.defines = defines;
        ck_assert_msg(mmb_compile(&req, &cubin, err, sizeof err) == MMB_STATUS_OK, "%s: %s", *d, err);
        mmb_cubin_free(&cubin);
    }
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
    /* The target is part of the module: sm_90a code is not sm_90 code. */
    other = k;
    other.targets[0] = (struct mmb_target){90, true};
    other.ntargets = 1;
    uint64_t specific = mmb_compile_key(&other, a);
    ck_assert(specific != key);
    other.targets[0].specific = false;
    ck_assert(mmb_compile_key(&other, a) != key && mmb_compile_key(&other, a) != specific);
    other.targets[1] = (struct mmb_target){100, true};
    other.ntargets = 2;
    ck_assert(mmb_compile_key(&other, a) != key);
}
END_TEST

/* wgmma and setmaxnreg exist only in sm_90a: the fixture kernel (as a tensor-core
 * kernel's first lines would use them) compiles for it, and plain sm_90 refuses it
 * with ptxas's reason. */
static const char arch_specific_source[] =
    "extern \"C\" __global__ void __launch_bounds__(128, 1) f(float *c)\n"
    "{\n"
    "    asm volatile(\"wgmma.fence.sync.aligned;\\n\" ::: \"memory\");\n"
    "    asm volatile(\"setmaxnreg.inc.sync.aligned.u32 240;\\n\");\n"
    "#if defined(__CUDA_ARCH_FEAT_SM90_ALL)\n"
    "    c[threadIdx.x] = 1.0f;\n"
    "#endif\n"
    "}\n";

START_TEST(test_arch_specific_target)
{
    tmpdir_setup();
    const char *dir = tmpdir;
    char err[4096];
    const char *defines[] = {"elem_t=float", NULL};
    struct mmb_compile_request req = {.source_path = "wgmma.cu", .source = arch_specific_source, .function = "f",
                                      .defines = defines, .arch = 90, .cache_dir = dir};
    struct mmb_cubin cubin;
    /* Plain sm_90: ptxas refuses both instructions; the refusal is remembered. */
    ck_assert_int_eq(mmb_compile(&req, &cubin, err, sizeof err), MMB_STATUS_COMPILE_ERROR);
    ck_assert_msg(strstr(err, "not supported on .target 'sm_90'"), "%s", err);
    ck_assert_int_eq(mmb_compile(&req, &cubin, err, sizeof err), MMB_STATUS_COMPILE_ERROR);
    ck_assert(cubin.from_cache);
    /* sm_90a: the same request with the variant is another cache entry, and compiles. */
    req.arch_specific = true;
    ck_assert_msg(mmb_compile(&req, &cubin, err, sizeof err) == MMB_STATUS_OK, "%s", err);
    ck_assert(!cubin.from_cache);
    ck_assert_uint_gt(cubin.size, 0);
    mmb_cubin_free(&cubin);
    ck_assert_msg(mmb_compile(&req, &cubin, err, sizeof err) == MMB_STATUS_OK, "%s", err);
    ck_assert(cubin.from_cache);
    mmb_cubin_free(&cubin);
    char cmd[1100];
    snprintf(cmd, sizeof cmd, "ls '%s' | grep -q -- '-sm_90a.cubin$' && ls '%s' | grep -q -- '-sm_90.error$'", dir,
             dir);
    ck_assert_msg(system(cmd) == 0, "the cache should hold an sm_90a cubin and an sm_90 error");
    tmpdir_teardown();
}
END_TEST

/* What a kernel's target compiles for on each device: without one, the device's own
 * arch; sm_90a only on compute capability 9.0, with the reason elsewhere; sm_90 on 9.0
 * and newer, as plain sm_XY. */
START_TEST(test_kernel_target_per_device)
{
    static struct mmb_kernel_spec plain = {.name = "plain"},
                                  hopper = {.name = "wgmma", .targets = {{90, true}}, .ntargets = 1},
                                  tma = {.name = "tma", .targets = {{90, false}}, .ntargets = 1};
    bool specific = true;
    char why[512] = "";
    ck_assert(mmb_kernel_target(&plain, 80, &specific, why, sizeof why) && !specific);
    ck_assert(mmb_kernel_target(&hopper, 90, &specific, why, sizeof why) && specific);
    ck_assert(!mmb_kernel_target(&hopper, 80, &specific, why, sizeof why));
    ck_assert_str_eq(why, "kernel 'wgmma' is built for sm_90a (compute capability 9.0 only), its target, and not "
                          "for sm_80");
    ck_assert(!mmb_kernel_target(&hopper, 100, &specific, why, sizeof why));
    hopper.targets[1] = (struct mmb_target){100, true};
    hopper.ntargets = 2;
    ck_assert(mmb_kernel_target(&hopper, 100, &specific, why, sizeof why) && specific);
    ck_assert(!mmb_kernel_target(&hopper, 120, &specific, why, sizeof why));
    ck_assert_msg(strstr(why, "sm_90a (compute capability 9.0 only) and sm_100a (compute capability 10.0 only)") &&
                  strstr(why, "and not for sm_120"), "%s", why);
    ck_assert(!mmb_kernel_target(&tma, 89, &specific, why, sizeof why));
    ck_assert_msg(strstr(why, "sm_90 (compute capability 9.0 or newer)"), "%s", why);
    ck_assert(mmb_kernel_target(&tma, 90, &specific, why, sizeof why) && !specific);
    ck_assert(mmb_kernel_target(&tma, 120, &specific, why, sizeof why) && !specific);
    /* Both: the arch-specific variant where it is one, plain code elsewhere from 9.0 on. */
    tma.targets[1] = (struct mmb_target){100, true};
    tma.ntargets = 2;
    ck_assert(mmb_kernel_target(&tma, 100, &specific, why, sizeof why) && specific);
    ck_assert(mmb_kernel_target(&tma, 103, &specific, why, sizeof why) && !specific);
}
END_TEST

/* `test_compile all`: every shipped configuration (CI's compile-all); without an
 * argument, everything else: the unit cases and each shipped kernel once. */
int main(int argc, char **argv)
{
    Suite *s = suite_create("compile");
    if (argc > 1 && !strcmp(argv[1], "all")) {
        TCase *all = tcase_create("all");
        tcase_set_timeout(all, 3600);
        tcase_add_test(all, test_every_shipped_configuration_compiles);
        suite_add_tcase(s, all);
        return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
    }
    TCase *tc = tcase_create("nvrtc");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_every_shipped_kernel_compiles);
    tcase_add_test(tc, test_seeds_as_written_bind);
    tcase_add_test(tc, test_compile_error_reports_the_log);
    tcase_add_test(tc, test_cache_hit_returns_same_cubin);
    tcase_add_test(tc, test_compile_key_names_the_module);
    suite_add_tcase(s, tc);
    /* the compile cache and NVRTC's messages: CK_RUN_CASE=cache runs them alone */
    TCase *cache = tcase_create("cache");
    tcase_set_timeout(cache, 120);
    tcase_add_test(cache, test_cache_follows_includes);
    tcase_add_test(cache, test_cache_follows_pre_included_headers);
    tcase_add_test(cache, test_compile_error_names_the_macro);
    tcase_add_test(cache, test_nvrtc_names_collide);
    suite_add_tcase(s, cache);
    /* Apart, so that CK_RUN_CASE=target runs them without the shipped profiles. */
    TCase *target = tcase_create("target");
    tcase_set_timeout(target, 120);
    tcase_add_test(target, test_arch_specific_target);
    tcase_add_test(target, test_kernel_target_per_device);
    suite_add_tcase(s, target);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
