/* test_profile.c - profile loading: a full profile read back field by field, the
 * defaults, a table of bad profiles (each with the file:line: it must name and what
 * the message must say), size and value lists, and every shipped profile. Profiles
 * load as the commands load them: mmb_profile_load, then mmb_tune_spec_check. */
#include <check.h>
#include <math.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "profile_fixture.h"
#include "model/library.h"
#include "model/profile_energy.h"
#include "model/profile.h"
#include "model/sizes.h"
#include "search/tune_spec.h"

static char fixture[1024];

static const char *fixture_path(const char *name)
{
    const char *root = getenv("MMB_SOURCE_ROOT");
    ck_assert_msg(root, "MMB_SOURCE_ROOT is not set");
    snprintf(fixture, sizeof fixture, "%s/tests/fixtures/profiles/%s", root, name);
    return fixture;
}

/* The reading (model/) and the [tune] checks that need search/; nothing is left
 * to free on failure, as after mmb_profile_load alone. */
static int load_checked(const char *path, struct mmb_profile *p, char *err, size_t errlen)
{
    if (mmb_profile_load(path, p, err, errlen) != 0)
        return -1;
    if (mmb_tune_spec_check(p, err, errlen) != 0) {
        mmb_profile_free(p);
        return -1;
    }
    return 0;
}

/* Profiles are large: keep them off the stack. */
static struct mmb_profile *load_ok(const char *name)
{
    struct mmb_profile *p = calloc(1, sizeof *p);
    ck_assert(p);
    char err[1024];
    int rc = load_checked(fixture_path(name), p, err, sizeof err);
    ck_assert_msg(rc == 0, "%s", err);
    return p;
}

static void assert_values(const struct mmb_param *p, const char *name, const long long *want, int n)
{
    ck_assert_str_eq(p->name, name);
    ck_assert_int_eq(p->nvalues, n);
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(p->values[i], want[i]);
}

static void assert_size(const struct mmb_size *s, long long m, long long n, long long k)
{
    ck_assert_int_eq(s->m, m);
    ck_assert_int_eq(s->n, n);
    ck_assert_int_eq(s->k, k);
}

START_TEST(test_good_profile)
{
    struct mmb_profile *p = load_ok("good.ini");
    ck_assert_str_eq(p->path, fixture_path("good.ini"));
    ck_assert_str_eq(p->name, "fixture-good");
    ck_assert_str_eq(p->description, "every key, for test_profile");
    /* 256:1024:x2, 1024x4096x512, 1000, 100:300:+100 */
    ck_assert_int_eq(p->nsizes, 8);
    assert_size(&p->sizes[0], 256, 256, 256);
    assert_size(&p->sizes[1], 512, 512, 512);
    assert_size(&p->sizes[2], 1024, 1024, 1024);
    assert_size(&p->sizes[3], 1024, 4096, 512);
    assert_size(&p->sizes[4], 1000, 1000, 1000);
    assert_size(&p->sizes[5], 100, 100, 100);
    assert_size(&p->sizes[7], 300, 300, 300);
    ck_assert_uint_eq(p->dtypes, (1u << MMB_F32) | (1u << MMB_F64) | (1u << MMB_I32));
    ck_assert_int_eq(p->repeats, 7);
    ck_assert_int_eq(p->warmup, 0);
    ck_assert_int_eq(p->cache, MMB_CACHE_HOT);
    ck_assert_str_eq(p->metrics, "dram, sm");
    ck_assert(p->seed == 18446744073709551615ULL);
    ck_assert_double_eq(p->tolerance[MMB_F32], 2e-4);
    ck_assert_double_eq(p->tolerance[MMB_I32], 0.0);
    ck_assert(isnan(p->tolerance[MMB_F64])); /* the dtype's rule */
    ck_assert_double_eq(mmb_dtype_tolerance_for(MMB_F64, 4096, p->tolerance[MMB_F64]), 1e-11);
    ck_assert_double_eq(mmb_dtype_tolerance_for(MMB_F32, 4096, p->tolerance[MMB_F32]), 2e-4);
    ck_assert_int_eq(p->nkernels, 3);

    const struct mmb_kernel_spec *k = &p->kernels[0];
    ck_assert_str_eq(k->name, "naive");
    ck_assert_int_eq(k->line, 16);
    ck_assert_int_eq(k->kind, MMB_KERNEL_SOURCE);
    /* Relative to the profile's folder, not to the working directory. */
    char want[1100];
    snprintf(want, sizeof want, "%s/tests/fixtures/profiles/kernel.cu", getenv("MMB_SOURCE_ROOT"));
    ck_assert_str_eq(k->source, want);
    ck_assert_str_eq(k->function, "matmul_naive");
    ck_assert_uint_eq(k->dtypes, (1u << MMB_F32) | (1u << MMB_F64));
    ck_assert_int_eq(k->nparams, 2);
    assert_values(&k->params[0], "block_size_x", (const long long[]){16, 32, 64}, 3);
    assert_values(&k->params[1], "block_size_y", (const long long[]){1, 2, 4, 8, 16, 32}, 6);
    ck_assert_int_eq(k->params[0].line, 20);
    ck_assert_int_eq(k->params[1].line, 21);
    ck_assert_int_eq(k->nrestrictions, 2);
    ck_assert_str_eq(mmb_expr_text(k->restrictions[0].expr), "block_size_x * block_size_y <= 1024");
    ck_assert_int_eq(k->restrictions[0].line, 22);
    ck_assert_str_eq(mmb_expr_text(k->restrictions[1].expr), "block_size_x >= block_size_y and M % 16 == 0");
    ck_assert_int_eq(k->restrictions[1].line, 23);
    ck_assert_str_eq(k->nvrtc_options, "-lineinfo -DFOO=1");
    /* Defaults: blocks from the block_size_* parameters, divisors from the blocks. */
    ck_assert_str_eq(mmb_expr_text(k->block_x), "block_size_x");
    ck_assert_str_eq(mmb_expr_text(k->block_y), "block_size_y");
    ck_assert_str_eq(mmb_expr_text(k->block_z), "1");
    ck_assert_str_eq(mmb_expr_text(k->grid_div_x), "block_size_x");
    ck_assert_str_eq(mmb_expr_text(k->grid_div_y), "block_size_y");
    ck_assert_str_eq(mmb_expr_text(k->smem), "0");

    k = &p->kernels[1];
    ck_assert_str_eq(k->name, "tunable");
    ck_assert_uint_eq(k->dtypes, 0); /* all of the profile's */
    ck_assert_int_eq(k->nparams, 4);
    assert_values(&k->params[2], "tile_size_x", (const long long[]){1, 2, 4, 8}, 4);
    assert_values(&k->params[3], "tile_size_y", (const long long[]){1, 2, 4, 8}, 4);
    ck_assert_int_eq(k->nrestrictions, 1);
    ck_assert_str_eq(mmb_expr_text(k->grid_div_x), "block_size_x * tile_size_x");
    ck_assert_str_eq(mmb_expr_text(k->grid_div_y), "block_size_y * tile_size_y");
    ck_assert_str_eq(mmb_expr_text(k->smem), "2 * block_size_x * block_size_x * elem_size");
    ck_assert_str_eq(mmb_expr_text(k->block_x), "block_size_x");
    ck_assert_str_eq(mmb_expr_text(k->block_z), "1");
    ck_assert_str_eq(k->nvrtc_options, "");

    k = &p->kernels[2];
    ck_assert_str_eq(k->name, "cublas");
    ck_assert_int_eq(k->kind, MMB_KERNEL_CUBLAS);
    ck_assert_int_eq(k->line, 39);
    ck_assert_str_eq(k->source, "");
    ck_assert_int_eq(k->nparams, 0);
    ck_assert_ptr_nonnull(k->block_x);
    unload(p);
}
END_TEST

START_TEST(test_defaults)
{
    struct mmb_profile *p = load_ok("minimal.ini");
    ck_assert_str_eq(p->name, "minimal");
    ck_assert_str_eq(p->description, "");
    ck_assert_int_eq(p->nsizes, 1);
    assert_size(&p->sizes[0], 64, 64, 64);
    ck_assert_uint_eq(p->dtypes, 1u << MMB_F32);
    ck_assert_int_eq(p->repeats, 20);
    ck_assert_int_eq(p->warmup, 2);
    ck_assert_int_eq(p->cache, MMB_CACHE_COLD);
    ck_assert_str_eq(p->metrics, "default");
    ck_assert(p->seed == 1);
    struct mmb_energy_spec energy;
    /* no energy key: the command's default, the command line over it */
    ck_assert_int_eq(p->energy_line, 0);
    ck_assert_int_eq(mmb_profile_energy(p, false, MMB_ENERGY_OFF, MMB_ENERGY_BEST), MMB_ENERGY_BEST);
    ck_assert_int_eq(mmb_profile_energy(p, false, MMB_ENERGY_OFF, MMB_ENERGY_ALL), MMB_ENERGY_ALL);
    ck_assert_int_eq(mmb_profile_energy(p, true, MMB_ENERGY_OFF, MMB_ENERGY_BEST), MMB_ENERGY_OFF);
    mmb_energy_spec_of(p, MMB_ENERGY_BEST, &energy);
    ck_assert(energy.mode == MMB_ENERGY_BEST && energy.seconds == MMB_ENERGY_SECONDS_DEFAULT);
    ck_assert_int_eq(energy.throttle_retries, MMB_THROTTLE_RETRIES_DEFAULT);
    ck_assert(energy.throttle_threshold == MMB_THROTTLE_THRESHOLD_DEFAULT);
    ck_assert_int_eq(p->tune.line, 0);
    ck_assert_str_eq(p->tune.strategy, "brute_force");
    ck_assert_str_eq(p->tune.objective, "time");
    ck_assert(p->tune.seed == 1 && p->tune.max_fevals == 0 && p->tune.time_limit == 0);
    ck_assert_int_eq(p->tune.nkernels + p->tune.nsizes, 0);
    ck_assert(!p->tune.record_restricted);
    for (const struct mmb_dtype_info *d = mmb_dtype_table; d->text; d++)
        ck_assert(isnan(p->tolerance[d->value])); /* unset: the dtype's rule at each K */
    const struct mmb_kernel_spec *k = kernel_named(p, "plain");
    ck_assert_str_eq(mmb_expr_text(k->block_x), "1");
    ck_assert_str_eq(mmb_expr_text(k->block_y), "1");
    ck_assert_str_eq(mmb_expr_text(k->grid_div_x), "1");
    ck_assert_str_eq(mmb_expr_text(k->smem), "0");
    ck_assert_int_eq(k->nrestrictions, 0);
    k = kernel_named(p, "square");
    ck_assert_str_eq(mmb_expr_text(k->block_x), "block_size_x");
    ck_assert_str_eq(mmb_expr_text(k->grid_div_y), "block_size_y");
    ck_assert_str_eq(mmb_expr_text(k->block_z), "1");
    unload(p);
}
END_TEST

START_TEST(test_energy_keys)
{
    struct mmb_profile *p = load_ok("energy.ini");
    struct mmb_energy_spec energy;
    /* energy = off at line 4: over the command's default, under the command line */
    ck_assert_int_eq(p->energy_line, 4);
    ck_assert_int_eq(mmb_profile_energy(p, false, MMB_ENERGY_BEST, MMB_ENERGY_BEST), MMB_ENERGY_OFF);
    ck_assert_int_eq(mmb_profile_energy(p, true, MMB_ENERGY_ALL, MMB_ENERGY_BEST), MMB_ENERGY_ALL);
    mmb_energy_spec_of(p, mmb_profile_energy(p, false, MMB_ENERGY_BEST, MMB_ENERGY_BEST), &energy);
    ck_assert(energy.mode == MMB_ENERGY_OFF && energy.seconds == 0.5);
    ck_assert_int_eq(energy.throttle_retries, 0);
    ck_assert(energy.throttle_threshold == 95.5);
    unload(p);
    p = load_ok("energy-all.ini");
    ck_assert_int_eq(p->energy, MMB_ENERGY_ALL);
    ck_assert_int_eq(p->energy_line, 3);
    unload(p);
}
END_TEST

START_TEST(test_tune_section)
{
    struct mmb_profile *p = load_ok("good-tune.ini");
    const struct mmb_tune_spec *t = &p->tune;
    ck_assert_int_eq(t->line, 7);
    ck_assert_str_eq(t->strategy, "annealing");
    ck_assert_int_eq(t->strategy_line, 8);
    ck_assert_str_eq(t->objective, "gflops");
    ck_assert_int_eq(t->objective_line, 9);
    ck_assert(t->max_fevals == 50);
    ck_assert_double_eq(t->time_limit, 90.5);
    ck_assert(t->seed == 12345678901234567890ULL);
    ck_assert(p->seed == 7); /* the inputs keep theirs */
    ck_assert_int_eq(t->nkernels, 2);
    ck_assert_str_eq(t->kernels[0], "tunable");
    ck_assert_str_eq(t->kernels[1], "k");
    ck_assert_int_eq(t->kernels_line, 13);
    ck_assert_int_eq(t->nsizes, 2);
    assert_size(&t->sizes[0], 4096, 4096, 4096);
    assert_size(&t->sizes[1], 512, 1024, 256);
    ck_assert_int_eq(p->nsizes, 2);
    ck_assert(t->record_restricted);
    unload(p);
}
END_TEST

/* What a profile is for and what its kernels change, for the report: read as given,
 * NONE and empty when not given. */
START_TEST(test_report_keys)
{
    struct mmb_profile *p = load_ok("good-report-keys.ini");
    ck_assert_int_eq(p->role, MMB_PROFILE_ROLE_LADDER);
    ck_assert_str_eq(mmb_profile_role_text(p->role), "ladder");
    ck_assert_str_eq(p->kernels[0].summary, "one thread per output");
    ck_assert_str_eq(p->kernels[0].motivation, "smem_bank_conflicts");
    ck_assert_int_eq(p->kernels[0].motivation_line, 9);
    mmb_profile_free(p);
    free(p);
    p = load_ok("good-crlf.ini");
    ck_assert_int_eq(p->role, MMB_PROFILE_ROLE_NONE);
    ck_assert_str_eq(p->kernels[0].summary, "");
    ck_assert_ptr_null(mmb_profile_role_text(MMB_PROFILE_ROLE_NONE));
    mmb_profile_free(p);
    free(p);
}
END_TEST

START_TEST(test_crlf_bom_indent_long_comments)
{
    /* A BOM, CRLF, indented keys and header, and comments longer than libinih's
     * 200-byte line buffer. */
    struct mmb_profile *p = load_ok("good-crlf.ini");
    ck_assert_str_eq(p->name, "crlf");
    ck_assert_int_eq(p->nsizes, 1);
    assert_size(&p->sizes[0], 128, 128, 128);
    ck_assert_int_eq(p->nkernels, 1);
    const struct mmb_kernel_spec *k = &p->kernels[0];
    ck_assert_str_eq(k->name, "k");
    ck_assert_int_eq(k->line, 5);
    ck_assert_str_eq(k->function, "f");
    assert_values(&k->params[0], "tile", (const long long[]){1, 2}, 2);
    ck_assert_int_eq(k->params[0].line, 8);
    ck_assert_int_eq(k->restrictions[0].line, 9);
    unload(p);
}
END_TEST

static const struct {
    const char *file;
    int line;
    const char *fragment;
} bad_profiles[] = {
    {"bad-unknown-section.ini", 4, "unknown section [tuning]; expected [profile] or [kernel NAME] or [tune]"},
    {"bad-unknown-key.ini", 3, "unknown key 'repeat' in [profile]; expected one of name, description, sizes"},
    {"bad-role.ini", 3, "bad value 'lecture' for 'role'; expected 'story', 'ladder', 'tuning', 'as-written', "
                        "'precisions', 'other'"},
    {"bad-motivation-name.ini", 7, "expected a counter column such as 'smem_bank_conflicts', got 'bank conflicts'"},
    {"bad-empty-value.ini", 3, "'warmup' has no value; expected an integer >= 0"},
    {"bad-bad-number.ini", 3, "bad value '2x' for 'repeats'; expected an integer >= 1"},
    {"bad-repeats-zero.ini", 3, "bad value '0' for 'repeats'"},
    {"bad-energy-energy.ini", 3, "bad value 'maybe' for 'energy'; expected 'best' (the energy window for each kernel's "
     "fastest configuration per size and dtype), 'all' or 'off'"},
    {"bad-energy-on.ini", 3, "bad value 'on' for 'energy'; expected 'best'"},
    {"bad-energy-seconds.ini", 3, "bad value '0.01' for 'energy_seconds'; expected seconds, a number from 0.05 to 60"},
    {"bad-energy-seconds2.ini", 3, "bad value '61' for 'energy_seconds'"},
    {"bad-energy-retries.ini", 3, "bad value '11' for 'throttle_retries'; expected an integer from 0 to 10"},
    {"bad-energy-threshold.ini", 3, "bad value '0%' for 'throttle_threshold'; expected a percentage from 1% to 100%"},
    {"bad-energy-threshold2.ini", 3, "bad value '101' for 'throttle_threshold'"},
    {"bad-energy-threshold3.ini", 3, "bad value '90%%' for 'throttle_threshold'"},
    {"bad-energy-setting.ini", 7, "parameter name 'nvml.sm_clock' is not a C identifier"},
    {"bad-warmup-negative.ini", 3, "bad value '-1' for 'warmup'"},
    {"bad-size-zero.ini", 2, "size 0 is out of range; expected 1 to"},
    {"bad-size-shape.ini", 2, "N = 0 in '1024x0x5' is out of range"},
    {"bad-size-range.ini", 2, "range '8192:256:x2' ends before it starts"},
    {"bad-dup-param.ini", 8, "parameter 'block_size_x' is already defined at line 7"},
    {"bad-dup-kernel.ini", 9, "kernel 'k' is already defined at line 4"},
    {"bad-dup-key.ini", 4, "'repeats' is already set at line 3"},
    {"bad-dup-profile.ini", 9, "[profile] appears twice (first at line 1)"},
    {"bad-missing-source.ini", 4, "kernel 'k' has no 'source'; expected source = FILE.cu"},
    {"bad-missing-function.ini", 4, "kernel 'k' has no 'function'"},
    {"bad-empty-kernel.ini", 4, "kernel 'k' has no 'source'"},
    {"bad-source-missing-file.ini", 5, "source 'nope.cu' cannot be read"},
    {"bad-restrict-unknown-name.ini", 7,
     "unknown name 'tile_size_y' at column 16 of 'restrict'; expected one of block_size_x, M, N, K, elem_size\n"
     "  block_size_x * tile_size_y <= 1024\n"
     "  " "               ^"},
    {"bad-restrict-syntax.ini", 8, "bad expression for 'restrict': expected a number, a name or '(', found the end at column 16"},
    {"bad-grid-unknown-name.ini", 8, "unknown name 'tile_x' at column 16 of 'grid_div_x'"},
    {"bad-smem-other-kernel.ini", 13, "unknown name 'tile' at column 1 of 'smem'; expected one of M, N, K"},
    {"bad-no-kernels.ini", 4, "no kernel; expected at least one [kernel NAME] section"},
    {"bad-no-sizes.ini", 2, "[profile] has no 'sizes'"},
    {"bad-no-profile.ini", 1, "no [profile] section"},
    {"bad-library-params.ini", 6, "kernel 'cublas' is a library kernel (library at line 5); expected no 'param.NAME'"},
    {"bad-library-name.ini", 5, "bad value 'cutlass' for 'library'; expected 'cublas'"},
    {"bad-dtype.ini", 3, "unknown dtype 'fp16'; expected f32, f64, i32, f16, bf16, tf32, e4m3, i8"},
    {"bad-kernel-dtype-dup.ini", 8, "dtype f32 is listed twice"},
    {"bad-cache.ini", 3, "bad value 'warm' for 'cache'; expected 'cold' or 'hot'"},
    {"bad-key-outside.ini", 1, "key 'sizes' outside any section"},
    {"bad-no-equals.ini", 3, "expected 'key = value', '[section]' or a comment"},
    {"bad-colon-key.ini", 8, "':' in the key; expected 'key = value'"},
    {"bad-section-bracket.ini", 4, "expected ']' closing the section header"},
    {"bad-section-trailing.ini", 4, "unexpected text after ']'"},
    {"bad-kernel-noname.ini", 4, "expected a name: [kernel NAME]"},
    {"bad-kernel-badname.ini", 4, "kernel name 'a/b' must be"},
    {"bad-long-line.ini", 8, "line is 252 characters long without comments; expected at most 199"},
    {"bad-param-reserved.ini", 8, "parameter name 'M' is reserved"},
    {"bad-param-badname.ini", 8, "parameter name '2x' is not a C identifier"},
    {"bad-param-range.ini", 8, "parameter 'tile': range '32:1:x2' ends before it starts"},
    {"bad-param-dup-value.ini", 8, "parameter 'tile': value 2 is listed twice"},
    {"bad-param-empty-item.ini", 8, "empty item in the list '1,,2'"},
    {"bad-tolerance-dtype.ini", 3, "unknown dtype 'fp16' in 'tolerance.fp16'"},
    {"bad-tolerance-negative.ini", 3, "bad value '-1' for 'tolerance.f32'; expected a number >= 0"},
    {"bad-tolerance-dup.ini", 4, "'tolerance.f32' is already set at line 3"},
    {"bad-seed-negative.ini", 3, "bad value '-1' for 'seed'"},
    {"bad-name-bad.ini", 3, "expected a name of letters, digits"},
    {"bad-function-bad.ini", 6, "expected a function name such as 'matmul', 'ns::matmul' or 'matmul<elem_t>', got 'f()'"},
    {"bad-too-long-value.ini", 6, "value is 140 characters long; expected at most 127"},
    {"bad-tune-strategy.ini", 5, "unknown strategy 'bayes'; expected one of brute_force, random, annealing, genetic"},
    {"bad-tune-objective.ini", 5, "objective 'speed': 'speed' is not a numeric result column; expected one of time, energy,"},
    /* Both bad: the first in the file is named, as the loader names the first bad line. */
    {"bad-tune-objective-first.ini", 5, "objective 'time:fast': expected ':min' or ':max' after the column"},
    /* Longer than any strategy name: still an unknown strategy, not a field too short. */
    {"bad-tune-strategy-long.ini", 5, "unknown strategy 'a_strategy_name_longer_than_any_in_the_table_of_strategies'"},
    {"bad-tune-kernel.ini", 5, "[tune] names kernel 'nope', which no [kernel NAME] section defines"},
    {"bad-tune-library.ini", 5, "[tune] names kernel 'cublas', a library kernel (line 12)"},
    {"bad-tune-dup.ini", 7, "[tune] appears twice (first at line 4)"},
    {"bad-tune-time-limit.ini", 5, "bad value '0' for 'time_limit'; expected seconds, a number > 0"},
    {"bad-tune-record.ini", 5, "bad value 'maybe' for 'record_restricted'; expected 'yes' or 'no'"},
    {"bad-tune-max-fevals.ini", 5, "bad value '0' for 'max_fevals'; expected an integer >= 1"},
    {"bad-args-unknown-name.ini", 7, "unknown name 'Q' at column 1 of 'args'; expected one of M, N, K, elem_size"},
    {"bad-args-syntax.ini", 7, "argument 4: expected a number, a name or '(', found the end at column 4"},
    {"bad-args-no-c.ini", 7, "'args' names no C; expected each of the matrices A, B and C at least once, as a "
     "pointer (C) or a tensor map (tma(C, ...))"},
    {"bad-args-no-a.ini", 7, "'args' names no A; expected each of the matrices A, B and C at least once"},
    {"bad-args-matrix-twice.ini", 7, "argument 3 is A again (argument 2); expected at most one pointer to each matrix"},
    {"bad-args-tma-twice.ini", 7, "argument 4 is tma(A) again (argument 1); expected at most one tensor map of each "
     "matrix"},
    {"bad-args-tma-no-c.ini", 7, "'args' names no C; expected each of the matrices A, B and C at least once, as a "
     "pointer (C) or a tensor map (tma(C, ...))"},
    {"bad-args-pointer-twice-tma.ini", 7, "argument 5 is A again (argument 1); expected at most one pointer to each "
     "matrix"},
    {"bad-define-param.ini", 8, "'block_size_x' is a parameter (line 7), which is already a -D define"},
    {"bad-define-name.ini", 7, "define name 'elem_t' is a name mmbench defines in every compile itself"},
    {"bad-define-nvrtc.ini", 7, "define name 'mode' is a name of NVRTC's built-in header, which every compile "
     "includes: the compiler gets it as the macro -Dmode=VALUE"},
    {"bad-param-keyword.ini", 7, "parameter name 'int' is a C or C++ keyword: the compiler gets each parameter as "
     "the macro -Dint=VALUE, which would break every configuration; expected another name"},
    {"bad-param-underscore.ini", 7, "parameter name '_Tile' is reserved to the compiler"},
    {"bad-param-double-underscore.ini", 7, "parameter name 'tile__x' is reserved to the compiler"},
    {"bad-param-harness.ini", 7, "parameter name 'acc_t' is a name mmbench defines in every compile itself"},
    {"bad-param-layout.ini", 7, "parameter name 'b_col_major' is a name mmbench defines in every compile itself"},
    {"bad-param-nvrtc.ini", 7, "parameter name 'mode' is a name of NVRTC's built-in header"},
    {"bad-define-unknown-name.ini", 7, "unknown name 'width' at column 1 of 'define'"},
    {"bad-restrict-sm-count.ini", 8, "'sm_count' at column 1 of 'restrict' is known only at launch; expected it in "
     "grid_x, grid_y or grid_z"},
    {"bad-prelude.ini", 7, "bad value 'cstdint' for 'prelude'; expected 'none' or 'stdint'"},
    {"bad-function-template.ini", 6, "expected a function name such as 'matmul', 'ns::matmul' or 'matmul<elem_t>', "
     "got 'f<float'"},
    {"bad-grid-x-unknown-name.ini", 7, "unknown name 'blocks' at column 1 of 'grid_x'"},
    {"bad-args-library.ini", 6, "kernel 'cublas' is a library kernel (library at line 5); expected no 'args'"},
    {"bad-noise-repeats.ini", 4, "'repeats' (line 3) fixes the count of timed launches and 'noise' (line 4) times "
     "until the median is that precise; expected one of them"},
    {"bad-min-samples-alone.ini", 3, "'min_samples' applies to a noise target; expected 'noise = ...' in [profile] too"},
    {"bad-noise-value.ini", 3, "bad value '1' for 'noise'; expected a fraction or a percentage above 0 and below 100%"},
    {"bad-min-samples-low.ini", 4, "bad value '3' for 'min_samples'; expected an integer from 6 to 100000"},
    {"bad-max-seconds-timeout.ini", 4, "max_seconds = 60 leaves no room in the 60 s timeout of a configuration"},
    {"bad-tma-role.ini", 7, "argument 1: tma() of 'D'; expected the matrix A, B or C first"},
    {"bad-tma-arity.ini", 7, "argument 2: tma() takes 4 values, got 3; expected tma(X, box_inner, box_outer, swizzle)"},
    {"bad-tma-paren.ini", 7, "argument 2: 'tma(A, 32, 32, 0' does not end with ')'"},
    {"bad-tma-expr.ini", 8, "argument 2: tma() box_inner: expected a number, a name or '('"},
    {"bad-tma-unknown-name.ini", 8, "unknown name 'tiles' at column 1 of 'args'; expected one of tile, M, N, K"},
    {"bad-tma-swizzle.ini", 7, "argument 2, tma(A, 32, 32, 96): swizzle 96; expected 0 (none), 32, 64 or 128 bytes"},
    {"bad-tma-box.ini", 7, "argument 3, tma(B, 32, 512, 0): box_outer 512; expected 1 to 256 elements"},
    {"bad-tma-span.ini", 8, "argument 1, tma(C, 64, 64, 128): at f32, the box's inner extent is 64 x 4 = 256 bytes; "
     "expected at most the swizzle span, 128 bytes"},
    {"bad-tma-bytes.ini", 8, "argument 2, tma(A, 2, 8, 0): at f32, the box's inner extent is 2 x 4 = 8 bytes; "
     "expected a multiple of 16"},
    {"bad-tma-dtype.ini", 9, "argument 2, tma(B, 128 / 8, tile, 64): at f64, the box's inner extent is 16 x 8 = 128 "
     "bytes; expected at most the swizzle span, 64 bytes"},
    {"bad-target.ini", 7, "target 'sm_90b'; expected sm_XY (compute capability X.Y or newer) or sm_XYa"},
    {"bad-target-old.ini", 7, "target 'sm_80a': arch-specific targets begin with sm_90a"},
    {"bad-target-dup.ini", 7, "target 'sm_90a' is listed twice"},
    {"bad-target-library.ini", 6, "kernel 'cublas' is a library kernel (library at line 5); expected no 'target'"},
    {"bad-cluster-unknown-name.ini", 8, "unknown name 'cz' at column 1 of 'cluster_x'; expected one of cx, M, N, K"},
    {"bad-cluster-active.ini", 7, "'max_active_clusters' at column 1 of 'cluster_y' is known only at launch; expected "
     "it in grid_x, grid_y or grid_z"},
    {"bad-param-active.ini", 7, "parameter name 'max_active_clusters' is reserved"},
};

/* Timing: the profile's keys, and the command line's overrides over them. */
START_TEST(test_timing)
{
    struct mmb_profile *p = load_ok("good-noise.ini");
    ck_assert_double_eq_tol(p->noise, 0.005, 1e-15);
    ck_assert_int_eq(p->min_samples, 25);
    ck_assert_double_eq(p->max_seconds, 2.5);
    struct mmb_converge_spec t;
    char err[512];
    struct mmb_timing_request none = {0};
    ck_assert_int_eq(mmb_profile_timing(p, &none, &t, err, sizeof err), 0);
    ck_assert(t.noise == p->noise && t.min_samples == 25 && t.max_seconds == 2.5);
    /* --repeats: a fixed count over the profile's target */
    struct mmb_timing_request cli = {.repeats = 7};
    ck_assert_int_eq(mmb_profile_timing(p, &cli, &t, err, sizeof err), 0);
    ck_assert(t.noise == 0 && t.min_samples == 7 && t.max_seconds == 0);
    /* the target's own options override the profile's one by one */
    cli = (struct mmb_timing_request){.min_samples = 40};
    ck_assert_int_eq(mmb_profile_timing(p, &cli, &t, err, sizeof err), 0);
    ck_assert(t.noise == p->noise && t.min_samples == 40 && t.max_seconds == 2.5);
    cli = (struct mmb_timing_request){.repeats = 7, .noise = 0.01};
    ck_assert_int_eq(mmb_profile_timing(p, &cli, &t, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "--repeats fixes the count of timed launches"), "%s", err);
    cli = (struct mmb_timing_request){.repeats = 7, .max_seconds = 3};
    ck_assert_int_eq(mmb_profile_timing(p, &cli, &t, err, sizeof err), -1);
    unload(p);

    /* a profile without noise: its repeats, or a target from the command line */
    p = load_ok("minimal.ini");
    ck_assert(p->noise == 0 && p->min_samples == 0 && p->max_seconds == 0);
    ck_assert_int_eq(mmb_profile_timing(p, &none, &t, err, sizeof err), 0);
    ck_assert(t.noise == 0 && t.min_samples == 20 && t.max_seconds == 0);
    cli = (struct mmb_timing_request){.noise = 0.02};
    ck_assert_int_eq(mmb_profile_timing(p, &cli, &t, err, sizeof err), 0);
    ck_assert(t.noise == 0.02 && t.min_samples == MMB_DEFAULT_MIN_SAMPLES && t.max_seconds == MMB_DEFAULT_MAX_SECONDS);
    cli = (struct mmb_timing_request){.max_seconds = 3};
    ck_assert_int_eq(mmb_profile_timing(p, &cli, &t, err, sizeof err), -1);
    ck_assert_str_eq(err, "--max-seconds applies to a noise target, and neither --noise nor the profile's [profile] "
                     "noise sets one; expected --noise too (such as --noise 0.5%)");
    unload(p);
}
END_TEST

/* A kernel bound as written: a C++ template name, its own argument order with
 * expressions, defines, a grid by expression, a prelude. */
START_TEST(test_binding)
{
    char path[1100], err[1024];
    snprintf(path, sizeof path, "%s/tests/fixtures/profiles/good-binding.ini", getenv("MMB_SOURCE_ROOT"));
    struct mmb_profile *p = calloc(1, sizeof *p);
    ck_assert_ptr_nonnull(p);
    ck_assert_msg(mmb_profile_load(path, p, err, sizeof err) == 0, "%s", err);
    const struct mmb_kernel_spec *k = kernel_named(p, "seed");
    ck_assert_str_eq(k->function, "ns::seed_kernel<elem_t, 4>");
    ck_assert_int_eq(k->nargs, 6);
    ck_assert_int_eq(k->args[0].kind, MMB_ARG_B);
    ck_assert_int_eq(k->args[1].kind, MMB_ARG_A);
    ck_assert_int_eq(k->args[2].kind, MMB_ARG_C);
    ck_assert_int_eq(k->args[4].kind, MMB_ARG_INT);
    ck_assert_str_eq(mmb_expr_text(k->args[4].expr), "N / tile");
    ck_assert_int_eq(k->ndefines, 2);
    ck_assert_str_eq(k->defines[0].name, "WIDTH");
    ck_assert_int_eq(k->defines[1].line, 10);
    ck_assert(k->defines_use_size);
    ck_assert_int_eq(k->prelude, MMB_PRELUDE_STDINT);
    ck_assert_ptr_nonnull(k->grid_x);
    ck_assert_ptr_null(k->grid_y);
    /* No args: the mmbench ABI, C, A, B, M, N, K. */
    const struct mmb_kernel_spec *plain = NULL;
    unload(p);
    snprintf(path, sizeof path, "%s/tests/fixtures/profiles/good.ini", getenv("MMB_SOURCE_ROOT"));
    p = calloc(1, sizeof *p);
    ck_assert_msg(mmb_profile_load(path, p, err, sizeof err) == 0, "%s", err);
    plain = kernel_named(p, "naive");
    ck_assert_int_eq(plain->nargs, 6);
    ck_assert(plain->args[0].kind == MMB_ARG_C && plain->args[1].kind == MMB_ARG_A && plain->args[2].kind == MMB_ARG_B);
    ck_assert_str_eq(mmb_expr_text(plain->args[5].expr), "K");
    ck_assert(!plain->defines_use_size);
    unload(p);
}
END_TEST

/* The keys of Hopper's launch features: target, clusters, tensor maps in args (an
 * item with commas inside parentheses is one item), a grid over max_active_clusters. */
START_TEST(test_hopper_keys)
{
    char path[1100], err[1024];
    snprintf(path, sizeof path, "%s/tests/fixtures/profiles/good-hopper.ini", getenv("MMB_SOURCE_ROOT"));
    struct mmb_profile *p = calloc(1, sizeof *p);
    ck_assert_ptr_nonnull(p);
    ck_assert_msg(mmb_profile_load(path, p, err, sizeof err) == 0, "%s", err);
    const struct mmb_kernel_spec *k = kernel_named(p, "tc");
    ck_assert_int_eq(k->ntargets, 2);
    ck_assert(k->targets[0].arch == 90 && k->targets[0].specific);
    ck_assert(k->targets[1].arch == 100 && !k->targets[1].specific);
    char text[64];
    mmb_kernel_targets_text(k, text, sizeof text);
    ck_assert_str_eq(text, "sm_90a, sm_100");
    ck_assert_str_eq(mmb_expr_text(k->cluster_x), "cx");
    ck_assert_ptr_null(k->cluster_y);
    ck_assert_str_eq(mmb_expr_text(k->cluster_z), "1");
    ck_assert_int_eq(k->nargs, 6);
    ck_assert_int_eq(k->args_line, 13);
    static const enum mmb_arg_kind roles[] = {MMB_ARG_A, MMB_ARG_B, MMB_ARG_C};
    static const char *const boxes[][3] = {{"BK", "128 / (2 * BK)", "128"}, {"32", "BK", "0"},
                                           {"64 / elem_size", "16", "0"}};
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(k->args[i].kind, MMB_ARG_TMA);
        ck_assert_int_eq(k->args[i].matrix, roles[i]);
        ck_assert_str_eq(mmb_expr_text(k->args[i].box_inner), boxes[i][0]);
        ck_assert_str_eq(mmb_expr_text(k->args[i].box_outer), boxes[i][1]);
        ck_assert_str_eq(mmb_expr_text(k->args[i].swizzle), boxes[i][2]);
    }
    ck_assert_int_eq(k->args[3].kind, MMB_ARG_C);
    ck_assert_int_eq(k->args[4].kind, MMB_ARG_INT);
    ck_assert_str_eq(mmb_expr_text(k->args[4].expr), "min(M, N)");
    ck_assert_str_eq(mmb_expr_text(k->grid_x),
                     "min(max_active_clusters, ceil_div(M, 128) * ceil_div(N, 128) / cx) * cx");
    unload(p);
}
END_TEST

/* Each matrix reaches the kernel as a pointer, a tensor map or both: a kernel that
 * loads A and B through maps and stores C through its pointer, one that stores C
 * through a map with no pointer to it, and one that takes both of each. */
START_TEST(test_args_pointer_and_map)
{
    struct mmb_profile *p = load_ok("good-args-tma.ini");
    static const struct {
        const char *kernel;
        int nargs;
        enum mmb_arg_kind kinds[6]; /* the first six; MMB_ARG_TMA of the matrix in maps */
        enum mmb_arg_kind maps[6];
    } want[] = {
        {"loads", 6, {MMB_ARG_TMA, MMB_ARG_TMA, MMB_ARG_C, MMB_ARG_INT, MMB_ARG_INT, MMB_ARG_INT},
         {MMB_ARG_A, MMB_ARG_B}},
        {"stores", 6, {MMB_ARG_TMA, MMB_ARG_TMA, MMB_ARG_TMA, MMB_ARG_INT, MMB_ARG_INT, MMB_ARG_INT},
         {MMB_ARG_A, MMB_ARG_B, MMB_ARG_C}},
        {"both", 9, {MMB_ARG_A, MMB_ARG_TMA, MMB_ARG_B, MMB_ARG_TMA, MMB_ARG_C, MMB_ARG_TMA},
         {0, MMB_ARG_A, 0, MMB_ARG_B, 0, MMB_ARG_C}},
    };
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
        const struct mmb_kernel_spec *k = kernel_named(p, want[w].kernel);
        ck_assert_int_eq(k->nargs, want[w].nargs);
        for (int i = 0; i < 6; i++) {
            ck_assert_msg(k->args[i].kind == want[w].kinds[i], "%s: argument %d", want[w].kernel, i + 1);
            if (k->args[i].kind == MMB_ARG_TMA)
                ck_assert_msg(k->args[i].matrix == want[w].maps[i], "%s: argument %d", want[w].kernel, i + 1);
        }
    }
    unload(p);
}
END_TEST

START_TEST(test_bad_profile)
{
    const char *file = bad_profiles[_i].file;
    const char *path = fixture_path(file);
    struct mmb_profile *p = calloc(1, sizeof *p);
    ck_assert(p);
    char err[2048];
    strcpy(err, "(untouched)");
    int rc = load_checked(path, p, err, sizeof err);
    ck_assert_msg(rc == -1, "%s loaded but should not", file);
    char prefix[1200];
    snprintf(prefix, sizeof prefix, "%s:%d: ", path, bad_profiles[_i].line);
    ck_assert_msg(!strncmp(err, prefix, strlen(prefix)), "%s: want prefix '%s', got '%s'", file, prefix, err);
    ck_assert_msg(strstr(err, bad_profiles[_i].fragment), "%s: want '%s' in '%s'", file,
                  bad_profiles[_i].fragment, err);
    /* Freed on failure: a second free must be harmless. */
    ck_assert_int_eq(p->nkernels, 0);
    mmb_profile_free(p);
    free(p);

    /* The fixture marks its faulty line itself; the table must agree with it. */
    FILE *f = fopen(path, "r");
    ck_assert_msg(f, "%s", path);
    char line[1024];
    int n = 0, marked = 0;
    while (fgets(line, sizeof line, f)) {
        n++;
        if (strstr(line, "<- error"))
            marked = n;
    }
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_int_eq(marked, bad_profiles[_i].line);
}
END_TEST

START_TEST(test_missing_file)
{
    struct mmb_profile *p = calloc(1, sizeof *p);
    ck_assert(p);
    char err[512];
    ck_assert_int_eq(mmb_profile_load("/nonexistent/x.ini", p, err, sizeof err), -1);
    ck_assert_str_eq(err, "/nonexistent/x.ini: cannot open: No such file or directory");
    free(p);
}
END_TEST

START_TEST(test_every_fixture_is_in_the_table)
{
    DIR *d = opendir(fixture_path(""));
    ck_assert(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, "bad-", 4))
            continue;
        bool found = false;
        for (size_t i = 0; i < sizeof bad_profiles / sizeof bad_profiles[0]; i++)
            found |= !strcmp(bad_profiles[i].file, e->d_name);
        ck_assert_msg(found, "%s is not in bad_profiles", e->d_name);
    }
    ck_assert_int_eq(closedir(d), 0);
}
END_TEST

START_TEST(test_sizes_good)
{
    struct mmb_size s[MMB_MAX_SIZES];
    int n = -1;
    char err[256];
    ck_assert_msg(!mmb_sizes_parse("256:8192:x2", s, MMB_MAX_SIZES, &n, err, sizeof err), "%s", err);
    ck_assert_int_eq(n, 6);
    for (int i = 0; i < 6; i++)
        assert_size(&s[i], 256LL << i, 256LL << i, 256LL << i);
    ck_assert(!mmb_sizes_parse("256:1000:x2", s, MMB_MAX_SIZES, &n, err, sizeof err));
    ck_assert_int_eq(n, 2); /* 1024 > 1000: the end is not forced in */
    ck_assert_int_eq(s[1].m, 512);
    ck_assert(!mmb_sizes_parse("100:400:+100", s, MMB_MAX_SIZES, &n, err, sizeof err));
    ck_assert_int_eq(n, 4);
    ck_assert_int_eq(s[3].n, 400);
    ck_assert(!mmb_sizes_parse("7:7:+1", s, MMB_MAX_SIZES, &n, err, sizeof err));
    ck_assert_int_eq(n, 1);
    ck_assert(!mmb_sizes_parse(" 1023x517x259 ,1, 17", s, MMB_MAX_SIZES, &n, err, sizeof err));
    ck_assert_int_eq(n, 3);
    assert_size(&s[0], 1023, 517, 259);
    assert_size(&s[1], 1, 1, 1);
    assert_size(&s[2], 17, 17, 17);
    ck_assert(!mmb_sizes_parse("2147483647", s, MMB_MAX_SIZES, &n, err, sizeof err));
    ck_assert(!mmb_sizes_parse("1:256:+1", s, MMB_MAX_SIZES, &n, err, sizeof err));
    ck_assert_int_eq(n, 256);
    /* A multiplying range that would overflow stops instead. */
    ck_assert(!mmb_sizes_parse("1073741824:2147483647:x2", s, MMB_MAX_SIZES, &n, err, sizeof err));
    ck_assert_int_eq(n, 1);
}
END_TEST

START_TEST(test_sizes_bad)
{
    static const struct {
        const char *text;
        const char *fragment;
    } bad[] = {
        {"", "empty item"},
        {"1024,", "empty item"},
        {"1024,,2048", "empty item"},
        {"0", "size 0 is out of range"},
        {"-5", "size -5 is out of range"},
        {"2147483648", "out of range"},
        {"abc", "expected a size: N, MxNxK"},
        {"1024 x 512 x 4", "expected a shape MxNxK"},
        {"1024x4096", "expected a shape MxNxK"},
        {"1024x4096x0", "K = 0"},
        {"1024x4096x512x2", "expected a shape MxNxK"},
        {"8:4:x2", "ends before it starts"},
        {"1:8", "has no step"},
        {"1:8:x1", "x2 or more"},
        {"0:8:x2", "start at 1 or more"},
        {"1:8:+0", "+1 or more"},
        {"1:8:y2", "expected the step as xF"},
        {"1:8:x", "expected the step as xF"},
        {"a:8:x2", "expected integers a:b"},
        {"0:8:+4", "size 0 is out of range"},
        {"1024, 512, 1024", "size 1024x1024x1024 is listed twice"},
        {"256:512:x2, 512x512x512", "listed twice"},
        {"1:257:+1", "more than 256 sizes"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct mmb_size s[MMB_MAX_SIZES];
        int n = 99;
        char err[256] = "";
        ck_assert_msg(mmb_sizes_parse(bad[i].text, s, MMB_MAX_SIZES, &n, err, sizeof err) == -1,
                      "'%s' parsed", bad[i].text);
        ck_assert_msg(strstr(err, bad[i].fragment), "'%s': want '%s' in '%s'", bad[i].text, bad[i].fragment, err);
        ck_assert_int_eq(n, 0);
    }
}
END_TEST

START_TEST(test_values)
{
    long long v[MMB_MAX_VALUES];
    int n = 0;
    char err[256];
    ck_assert(!mmb_values_parse("16, 32, 64", v, MMB_MAX_VALUES, &n, err, sizeof err));
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(v[2], 64);
    ck_assert(!mmb_values_parse("-1, 0, 2:6:+2, 1:32:x8", v, MMB_MAX_VALUES, &n, err, sizeof err));
    const long long want[] = {-1, 0, 2, 4, 6, 1, 8};
    ck_assert_int_eq(n, 7);
    for (int i = 0; i < 7; i++)
        ck_assert_int_eq(v[i], want[i]);
    ck_assert(!mmb_values_parse("-8:-2:+3", v, MMB_MAX_VALUES, &n, err, sizeof err));
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(v[2], -2);
    ck_assert_int_eq(mmb_values_parse("1, 1", v, MMB_MAX_VALUES, &n, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "value 1 is listed twice"), "%s", err);
    ck_assert_int_eq(mmb_values_parse("1:65:+1", v, MMB_MAX_VALUES, &n, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "more than 64 values"), "%s", err);
    ck_assert_int_eq(mmb_values_parse("1.5", v, MMB_MAX_VALUES, &n, err, sizeof err), -1);
    ck_assert_int_eq(mmb_values_parse("0x10", v, MMB_MAX_VALUES, &n, err, sizeof err), -1);
    ck_assert_int_eq(mmb_values_parse("9223372036854775808", v, MMB_MAX_VALUES, &n, err, sizeof err), -1);
    ck_assert(!mmb_values_parse("-9223372036854775808", v, MMB_MAX_VALUES, &n, err, sizeof err));
    ck_assert(v[0] == -9223372036854775807LL - 1);
}
END_TEST

/* A kernel runs the dtypes it supports (its own list, else the profile's) that the
 * profile lists too. */
START_TEST(test_kernel_runs_dtype)
{
    struct mmb_profile *p = load_ok("good.ini"); /* f32, f64, i32; naive: f64, f32; tunable: all */
    const struct mmb_kernel_spec *naive = kernel_named(p, "naive"), *tunable = kernel_named(p, "tunable");
    ck_assert_uint_eq(mmb_kernel_dtypes(p, naive), (1u << MMB_F32) | (1u << MMB_F64));
    ck_assert_uint_eq(mmb_kernel_dtypes(p, tunable), p->dtypes);
    ck_assert(mmb_kernel_runs_dtype(p, naive, MMB_F64));
    ck_assert(!mmb_kernel_runs_dtype(p, naive, MMB_I32));
    ck_assert(mmb_kernel_runs_dtype(p, tunable, MMB_I32));
    p->dtypes = 1u << MMB_F32; /* a kernel's dtype the profile does not list is not run */
    ck_assert(!mmb_kernel_runs_dtype(p, naive, MMB_F64));
    ck_assert(mmb_kernel_dtypes(p, naive) & (1u << MMB_F64));
    ck_assert(mmb_kernel_runs_dtype(p, naive, MMB_F32));
    unload(p);
}
END_TEST

/* One row per library kernel; cuBLAS is the reference. */
START_TEST(test_library_table)
{
    int references = 0;
    for (const struct mmb_library *l = mmb_libraries; l->name; l++) {
        ck_assert_int_ne(l->kind, MMB_KERNEL_SOURCE);
        ck_assert_ptr_eq(mmb_library_find(l->name), l);
        ck_assert_ptr_eq(mmb_library_of(l->kind), l);
        ck_assert(l->description && l->description[0]);
        references += l->reference;
    }
    ck_assert_int_eq(references, 1);
    const struct mmb_library *cublas = mmb_library_find("cublas");
    ck_assert_ptr_nonnull(cublas);
    ck_assert_int_eq(cublas->kind, MMB_KERNEL_CUBLAS);
    for (const struct mmb_dtype_info *d = mmb_dtype_table; d->text; d++)
        ck_assert_int_eq(mmb_library_computes(cublas, d->value), d->value != MMB_I32);
    ck_assert_int_eq(mmb_library_pipe(cublas, MMB_F64), MMB_PIPE_TENSOR_F64);
    ck_assert_int_eq(mmb_library_pipe(cublas, MMB_F16), MMB_PIPE_TENSOR_F16);
    ck_assert_int_eq(mmb_library_pipe(cublas, MMB_F32), MMB_PIPE_FP32);
    ck_assert_ptr_eq(mmb_library_reference(), cublas);
    ck_assert_ptr_null(mmb_library_find("cutlass"));
    ck_assert_ptr_null(mmb_library_of(MMB_KERNEL_SOURCE));
    char names[64];
    mmb_library_names(names, sizeof names, " or ", true);
    ck_assert_str_eq(names, "'cublas'");
    mmb_library_names(names, sizeof names, " or ", false);
    ck_assert_str_eq(names, "cublas");
}
END_TEST

/* Every profile that ships must load: a broken one fails here, not on the GPU. */
START_TEST(test_shipped_profiles)
{
    char dir[1100];
    snprintf(dir, sizeof dir, "%s/profiles", getenv("MMB_SOURCE_ROOT"));
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".ini"))
            continue;
        char path[1400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct mmb_profile *p = calloc(1, sizeof *p);
        ck_assert(p);
        char err[2048];
        ck_assert_msg(load_checked(path, p, err, sizeof err) == 0, "%s", err);
        ck_assert_int_gt(p->nkernels, 0);
        unload(p);
    }
    ck_assert_int_eq(closedir(d), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("profile");
    TCase *tc = tcase_create("profile");
    tcase_add_test(tc, test_good_profile);
    tcase_add_test(tc, test_defaults);
    tcase_add_test(tc, test_energy_keys);
    tcase_add_test(tc, test_tune_section);
    tcase_add_test(tc, test_crlf_bom_indent_long_comments);
    tcase_add_test(tc, test_report_keys);
    tcase_add_test(tc, test_binding);
    tcase_add_test(tc, test_timing);
    tcase_add_loop_test(tc, test_bad_profile, 0, (int)(sizeof bad_profiles / sizeof bad_profiles[0]));
    tcase_add_test(tc, test_missing_file);
    tcase_add_test(tc, test_every_fixture_is_in_the_table);
    tcase_add_test(tc, test_hopper_keys);
    tcase_add_test(tc, test_args_pointer_and_map);
    tcase_add_test(tc, test_sizes_good);
    tcase_add_test(tc, test_sizes_bad);
    tcase_add_test(tc, test_values);
    tcase_add_test(tc, test_kernel_runs_dtype);
    tcase_add_test(tc, test_library_table);
    tcase_add_test(tc, test_shipped_profiles);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
