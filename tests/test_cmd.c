/* test_cmd.c - the mmbench program as a user meets it, without a GPU: each class of
 * bad input of the README's table gets its message and exit code; help goes to
 * stdout and exits 0; numbers on the command line never wrap; files that are not
 * regular files are refused at once; run and tune check everything before they look
 * for a GPU; every message names its command. Built without CUDA, the checks that
 * need run and tune to go past their options are left out, and run and tune say
 * that they were built without it. */
#include <check.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_run.h"
#include "mmbench_run.h"
#include "tmpdir.h"

/* run and tune past their options: profiles, timing, the plan (CUDA builds only). */
#ifdef MMB_HAVE_CUDA
static const bool have_cuda = true;
#else
static const bool have_cuda = false;
#endif

static const char *write_file(const char *name, const char *text)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
    return path;
}

/* A profile with one naive kernel; extra is appended to its [kernel] section. */
static const char *profile_with(const char *profile_keys, const char *kernel_keys)
{
    char text[8192];
    snprintf(text, sizeof text, "[profile]\nsizes = 64, 100x30x7\n%s\n[kernel naive]\nsource = %s/kernels/naive.cu\n"
             "function = matmul_naive\n%s\n", profile_keys, root, kernel_keys);
    return write_file("p.ini", text);
}

#define ASSERT_ERR(text) ck_assert_msg(strstr(err, text) != NULL, "expected '%s' in stderr: %s", text, err)

START_TEST(test_no_command)
{
    mmbench_exec_program = true; /* the program itself */
    ck_assert_int_eq(mmbench(NULL), 2);
    ASSERT_ERR("usage: mmbench COMMAND");
    ASSERT_ERR("expected a command");
    ck_assert_int_eq(mmbench("frobnicate", NULL), 2);
    ASSERT_ERR("'frobnicate' is not a command");
}
END_TEST

START_TEST(test_help_everywhere)
{
    mmbench_exec_program = true;
    static const char *const commands[] = {"run", "tune", "check", "merge", "devices", "report", "compare"};
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        ck_assert_msg(mmbench(commands[i], "--help", NULL) == 0, "%s --help: %s", commands[i], err);
        ck_assert_msg(strstr(out, "usage: mmbench") != NULL, "%s --help printed: %s", commands[i], out);
    }
    ck_assert_int_eq(mmbench("run", "--help", NULL), 0);
    ck_assert_ptr_nonnull(strstr(out, "--timeout SECONDS"));
    ck_assert_ptr_nonnull(strstr(out, "(default 0)"));
    ck_assert_int_eq(mmbench("tune", "--help", NULL), 0);
    ck_assert_ptr_nonnull(strstr(out, "--seed S"));
    ck_assert_ptr_nonnull(strstr(out, "strategies:"));
}
END_TEST

START_TEST(test_numbers_never_wrap)
{
    const char *p = profile_with("", "param.block_size_x = 16\nparam.block_size_y = 16");
    struct {
        const char *command, *option, *value, *expect;
    } cases[] = {
        {"run", "--device", "4294967296", "--device expects an integer from 0 to 1023, not '4294967296'"},
        {"run", "--lock-clocks", "fast", "--lock-clocks 'fast': expected base, max or a whole number of MHz"},
        {"tune", "--lock-clocks", "99", "--lock-clocks '99': expected base, max"},
        {"run", "--lock-clocks", "1410MHz", "--lock-clocks '1410MHz'"},
        {"tune", "--lock-clocks", "", "--lock-clocks"},
        {"run", "--device", "", "--device expects an integer from 0 to 1023, not ''"},
        {"run", "--device", "-1", "not '-1'"},
        {"run", "--repeats", "4294967297", "--repeats expects an integer from 1 to 1000000"},
        {"run", "--warmup", "", "--warmup expects an integer from 0 to 1000000, not ''"},
        {"run", "--warmup", "3x", "not '3x'"},
        {"run", "--timeout", "0", "--timeout expects seconds, a number > 0, not '0'"},
        {"run", "--timeout", "nan", "not 'nan'"},
        {"run", "--devices", "some", "--devices expects 'all', not 'some'"},
        {"tune", "--device", "2000", "--device expects an integer from 0 to 1023, not '2000'"},
        {"tune", "--repeats", "2000000", "--repeats expects an integer from 1 to 1000000, not '2000000'"},
        {"tune", "--seed", "-1", "--seed expects an unsigned 64-bit integer"},
        {"tune", "--seed", "18446744073709551616", "--seed expects an unsigned 64-bit integer"},
        {"tune", "--max-fevals", "0", "--max-fevals expects an integer >= 1, not '0'"},
        {"tune", "--jobs", "1025", "--jobs expects an integer from 0 to 1024, not '1025'"},
        {"run", "--shard", "0/2", "--shard expects K/N, shard K of N with 1 <= K <= N <= 4096"},
        {"run", "--shard", "3/2", "not '3/2'"},
        {"tune", "--shard", "1/4097", "not '1/4097'"},
        {"check", "--shard", "2", "--shard expects K/N"},
        {"run", "--noise", "1", "--noise expects a fraction or a percentage above 0 and below 100%, such as 0.5% or "
         "0.005, not '1'"},
        {"tune", "--noise", "0%", "not '0%'"},
        {"run", "--min-samples", "5", "--min-samples expects an integer from 6 to 100000, not '5'"},
        {"run", "--max-seconds", "-1", "--max-seconds expects seconds, a number > 0, not '-1'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = mmbench(cases[i].command, cases[i].option, cases[i].value, p, NULL);
        ck_assert_msg(rc == 2, "%s %s '%s': exit %d", cases[i].command, cases[i].option, cases[i].value, rc);
        ASSERT_ERR(cases[i].expect);
    }
}
END_TEST

/* Timing options: a fixed count or a noise target, never both; the target's options
 * need a target from the command line or the profile. Bad input is found before a GPU
 * is looked for (exit 2, not 69). */
START_TEST(test_timing_options)
{
    const char *plain = profile_with("", "param.block_size_x = 16\nparam.block_size_y = 16");
    static const char *const commands[] = {"run", "tune"};
    for (size_t i = 0; i < 2; i++) {
        const char *c = commands[i];
        ck_assert_int_eq(mmbench(c, "--repeats", "5", "--noise", "1%", plain, NULL), 2);
        ASSERT_ERR("--repeats fixes the count of timed launches, and --noise, --min-samples and --max-seconds time "
                   "to a noise target; expected one or the other");
        ck_assert_int_eq(mmbench(c, "--repeats", "5", "--min-samples", "20", plain, NULL), 2);
        ck_assert_int_eq(mmbench(c, "--min-samples", "20", plain, NULL), 2);
        ASSERT_ERR("--min-samples applies to a noise target, and neither --noise nor the profile's [profile] noise "
                   "sets one");
        ck_assert_int_ne(mmbench(c, "--noise", "0.5%", "--min-samples", "20", "--max-seconds", "0.5",
                                 "--no-counters", "-o", "/dev/null", plain, NULL), 2);
    }
    const char *target = profile_with("noise = 1%\nmin_samples = 12", "param.block_size_x = 16\nparam.block_size_y = 16");
    ck_assert_int_ne(mmbench("run", "--max-seconds", "0.5", "--no-counters", "-o", "/dev/null", target, NULL), 2);
    ck_assert_int_ne(mmbench("run", "--repeats", "3", "--no-counters", "-o", "/dev/null", target, NULL), 2);
    ck_assert_int_eq(mmbench("run", "--help", NULL), 0);
    ck_assert_ptr_nonnull(strstr(out, "--noise X"));
    ck_assert_ptr_nonnull(strstr(out, "--min-samples N"));
    ck_assert_ptr_nonnull(strstr(out, "--max-seconds SECONDS"));
}
END_TEST

/* The full 64-bit range of --seed is accepted: it gets as far as looking for a GPU
 * (69 here) or running (0), never 2. */
START_TEST(test_seed_full_range)
{
    char p[1200];
    snprintf(p, sizeof p, "%s/tests/fixtures/tune/small.ini", root);
    int rc = mmbench("tune", "--seed", "18446744073709551615", "--no-counters", "-o", "/dev/null", p, NULL);
    ck_assert_msg(rc != 2, "exit %d: %s", rc, err);
}
END_TEST

/* Objectives of energy: refused before any GPU work where not every configuration
 * gets its energy window (--energy best or off, --no-energy, the profile's energy =
 * best or off), and a two-objective list checked item by item. */
START_TEST(test_energy_objectives)
{
    char p[1200];
    snprintf(p, sizeof p, "%s/tests/fixtures/tune/small.ini", root);
    ck_assert_int_eq(mmbench("tune", "--objective", "energy", "--no-energy", "-o", "/dev/null", p, NULL), 2);
    ASSERT_ERR("objective 'energy' needs the energy of every configuration, which --energy off does not measure; "
               "expected --energy all");
    ck_assert_int_eq(mmbench("tune", "--objective", "time,gflops_per_watt", "--energy", "best", "-o", "/dev/null", p,
                             NULL), 2);
    ASSERT_ERR("which --energy best does not measure");
    const char *best = profile_with("energy = best", "param.block_size_x = 16\nparam.block_size_y = 16");
    ck_assert_int_eq(mmbench("tune", "--objective", "time,energy", "-o", "/dev/null", best, NULL), 2);
    ASSERT_ERR("which the profile's energy = best (");
    ASSERT_ERR("p.ini:3) does not measure; expected --energy all, energy = all");
    ck_assert_int_eq(mmbench("tune", "--objective", "time,joules", "-o", "/dev/null", p, NULL), 2);
    ASSERT_ERR("'joules' is not a numeric result column");
    ck_assert_int_eq(mmbench("tune", "--objective", "time,energy,gflops", "-o", "/dev/null", p, NULL), 2);
    ASSERT_ERR("at most two objectives");
    int rc = mmbench("tune", "--objective", "time,energy", "--no-counters", "-o", "/dev/null", p, NULL);
    ck_assert_msg(rc != 2, "exit %d: %s", rc, err);
}
END_TEST

START_TEST(test_not_regular_files)
{
    char fifo[128];
    snprintf(fifo, sizeof fifo, "%s/fifo.ini", tmpdir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    ck_assert_int_eq(mmbench("check", "/dev/zero", NULL), 2);
    ASSERT_ERR("/dev/zero: a character device, not a regular file: expected a profile");
    ck_assert_int_eq(mmbench("check", fifo, NULL), 2);
    ASSERT_ERR("a FIFO (named pipe), not a regular file: expected a profile");
    ck_assert_int_eq(mmbench("check", tmpdir, NULL), 2);
    ASSERT_ERR("a folder, not a regular file: expected a profile");
    if (!have_cuda)
        return;
    ck_assert_int_eq(mmbench("run", "/dev/zero", NULL), 2);
    ck_assert_int_eq(mmbench("tune", fifo, NULL), 2);
}
END_TEST

START_TEST(test_file_too_large)
{
    char path[128];
    snprintf(path, sizeof path, "%s/big.ini", tmpdir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    for (int i = 0; i < 40000; i++)
        fputs("; a comment line that is long enough to make the file big\n", f);
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_int_eq(mmbench("check", path, NULL), 2);
    ASSERT_ERR("MiB, larger than the 1 MiB a profile may have");
}
END_TEST

START_TEST(test_restriction_cannot_be_evaluated)
{
    const char *p = profile_with("", "param.block_size_x = 0, 16\nparam.block_size_y = 16\n"
                                     "restrict = 32 % block_size_x == 0");
    ck_assert_int_eq(mmbench("check", p, NULL), 2);
    ASSERT_ERR("p.ini:9: restriction '32 % block_size_x == 0' of kernel 'naive' cannot be evaluated at "
               "block_size_x=0;block_size_y=16");
    ASSERT_ERR("division by zero");
    if (have_cuda) {
        ck_assert_int_eq(mmbench("run", p, NULL), 2); /* before any GPU is looked for */
        ASSERT_ERR("p.ini:9: restriction");
    }
    p = profile_with("", "param.block_size_x = 16\nparam.block_size_y = 16\nrestrict = 9223372036854775807 + M > 0");
    ck_assert_int_eq(mmbench("check", p, NULL), 2);
    ASSERT_ERR("p.ini:9:");
    ASSERT_ERR("overflow");
}
END_TEST

START_TEST(test_space_bounded)
{
    const char *p = profile_with("", "param.p1 = 1:64:+1\nparam.p2 = 1:64:+1\nparam.p3 = 1:64:+1\n"
                                     "param.p4 = 1:64:+1\nparam.p5 = 1:64:+1\nparam.p6 = 1:64:+1");
    ck_assert_int_eq(mmbench("check", p, NULL), 2);
    ASSERT_ERR("p.ini:4: kernel 'naive' has 68719476736 configurations; expected at most 1000000 (raise "
               "max_configurations");
    p = profile_with("max_configurations = 100", "param.p1 = 1:10:+1\nparam.p2 = 1:11:+1");
    ck_assert_int_eq(mmbench("check", p, NULL), 2);
    ASSERT_ERR("has 110 configurations; expected at most 100");
    p = profile_with("max_configurations = 110", "param.p1 = 1:10:+1\nparam.p2 = 1:11:+1");
    ck_assert_msg(mmbench("check", p, NULL) == 0, "%s", err);
}
END_TEST

START_TEST(test_params_text_fits)
{
    char keys[4096] = "";
    for (int i = 0; i < 9; i++) {
        char line[128];
        snprintf(line, sizeof line, "param.a_rather_long_parameter_name_%d = 1, 1000000000000\n", i);
        strcat(keys, line);
    }
    const char *p = profile_with("", keys);
    ck_assert_int_eq(mmbench("check", p, NULL), 2);
    ASSERT_ERR("p.ini:4: kernel 'naive': its longest configuration written as name=value;... takes");
    ASSERT_ERR("expected at most 255");
}
END_TEST

START_TEST(test_unknown_metric_set)
{
    const char *p = profile_with("metrics = fastest", "param.block_size_x = 16\nparam.block_size_y = 16");
    ck_assert_int_eq(mmbench("check", p, NULL), 2); /* with or without CUDA: the profile is wrong */
    ASSERT_ERR("mmbench check: ");
    ASSERT_ERR("p.ini:3: metrics:");
}
END_TEST

/* --counters best|all|none on run and tune (--no-counters is none), and the profile's
 * counters key: a bad mode is exit 2 with what was expected, before any GPU. */
START_TEST(test_counters_mode)
{
    const char *p = profile_with("", "param.block_size_x = 16\nparam.block_size_y = 16");
    static const char *const commands[] = {"run", "tune"};
    for (size_t i = 0; i < 2; i++) {
        ck_assert_int_eq(mmbench(commands[i], "--counters", "fastest", p, NULL), 2);
        ASSERT_ERR("--counters expects best, all or none, not 'fastest'");
        ck_assert_int_eq(mmbench(commands[i], "--no-counters", "--counters", "all", p, NULL), 2);
        ASSERT_ERR("--no-counters and --counters all contradict each other");
        ck_assert_int_eq(mmbench(commands[i], "--help", NULL), 0);
        ck_assert_ptr_nonnull(strstr(out, "--counters MODE"));
        if (!have_cuda)
            continue;
        ck_assert_int_ne(mmbench(commands[i], "--no-counters", "--counters", "none", "-o", "/dev/null", p, NULL), 2);
        ck_assert_int_ne(mmbench(commands[i], "--counters", "best", "-o", "/dev/null", p, NULL), 2);
    }
    const char *bad = profile_with("counters = sometimes", "param.block_size_x = 16\nparam.block_size_y = 16");
    ck_assert_int_eq(mmbench("check", bad, NULL), 2);
    ASSERT_ERR("p.ini:3: ");
    ASSERT_ERR("'best' (count each kernel's fastest configuration per size and dtype), 'all' or 'none'");
    const char *all = profile_with("counters = all", "param.block_size_x = 16\nparam.block_size_y = 16");
    ck_assert_int_eq(mmbench("check", all, NULL), 0);
    if (!have_cuda)
        return;
    /* a search whose objective is a counter needs it of every configuration */
    ck_assert_int_eq(mmbench("tune", "--objective", "dram_read_bytes:min", "--counters", "best", p, NULL), 2);
    ASSERT_ERR("objective 'dram_read_bytes:min' is a hardware counter, which the search needs of every configuration");
    const char *best = profile_with("counters = best", "param.block_size_x = 16\nparam.block_size_y = 16");
    ck_assert_int_eq(mmbench("tune", "--objective", "dram_read_bytes:min", best, NULL), 2);
    ASSERT_ERR("not --counters best as the profile says");
    ck_assert_int_ne(mmbench("tune", "--objective", "dram_read_bytes:min", "--counters", "all", "-o", "/dev/null",
                             best, NULL), 2);
}
END_TEST

/* --energy best|all|off on run and tune (--no-energy is off), and the profile's energy
 * key: a bad mode is exit 2 with what was expected (the file and line for a profile),
 * before any GPU. */
START_TEST(test_energy_mode)
{
    const char *p = profile_with("", "param.block_size_x = 16\nparam.block_size_y = 16");
    static const char *const commands[] = {"run", "tune"};
    for (size_t i = 0; i < 2; i++) {
        ck_assert_int_eq(mmbench(commands[i], "--energy", "on", p, NULL), 2);
        ASSERT_ERR("--energy expects best, all or off, not 'on'");
        ck_assert_int_eq(mmbench(commands[i], "--energy", "", p, NULL), 2);
        ASSERT_ERR("--energy expects best, all or off");
        ck_assert_int_eq(mmbench(commands[i], "--no-energy", "--energy", "all", p, NULL), 2);
        ASSERT_ERR("--no-energy and --energy all contradict each other");
        ck_assert_int_eq(mmbench(commands[i], "--energy", "best", "--energy", "all", p, NULL), 2);
        ASSERT_ERR("--energy is given twice");
        ck_assert_int_eq(mmbench(commands[i], "--help", NULL), 0);
        ck_assert_ptr_nonnull(strstr(out, "--energy MODE"));
        ck_assert_ptr_nonnull(strstr(out, "--no-energy"));
        if (!have_cuda)
            continue;
        ck_assert_int_ne(mmbench(commands[i], "--no-energy", "--energy", "off", "-o", "/dev/null", p, NULL), 2);
        ck_assert_int_ne(mmbench(commands[i], "--energy", "all", "-o", "/dev/null", p, NULL), 2);
    }
    const char *bad = profile_with("energy = on", "param.block_size_x = 16\nparam.block_size_y = 16");
    ck_assert_int_eq(mmbench("check", bad, NULL), 2);
    ASSERT_ERR("p.ini:3: ");
    ASSERT_ERR("bad value 'on' for 'energy'; expected 'best'");
    ASSERT_ERR("'all' or 'off'");
    ck_assert_int_eq(mmbench("run", bad, NULL), 2);
    ASSERT_ERR("p.ini:3: ");
    const char *all = profile_with("energy = all", "param.block_size_x = 16\nparam.block_size_y = 16");
    ck_assert_int_eq(mmbench("check", all, NULL), 0);
    if (!have_cuda)
        return;
    /* an energy objective with no mode anywhere: every configuration's window (all) */
    ck_assert_int_ne(mmbench("tune", "--objective", "time,energy", "-o", "/dev/null", p, NULL), 2);
    ck_assert_int_ne(mmbench("tune", "--objective", "energy", "-o", "/dev/null", all, NULL), 2);
}
END_TEST

START_TEST(test_check_compile)
{
    const char *p = profile_with("", "param.block_size_x = 16\nparam.block_size_y = 16");
    static const char *const bad[] = {"sm_0", "sm_90x", "-90", "sm_", "sm_9", "", "sm_1000", "sm_90aa", "a", "sm_a"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_msg(mmbench("check", "--compile", bad[i], p, NULL) == 2, "--compile '%s'", bad[i]);
        ASSERT_ERR("--compile expects an architecture such as sm_90 or 90");
    }
    ck_assert_int_eq(mmbench("check", p, NULL), 0);
    ck_assert_ptr_nonnull(strstr(out, "not compiled: `mmbench check --compile sm_XY`"));
    if (mmbench("check", "--compile", "sm_90", p, NULL) == 2 && strstr(err, "without the CUDA toolkit"))
        return; /* nothing more to see without NVRTC */
    ck_assert_msg(strstr(out, "compiled for sm_90: 1 ok, 0 failed") != NULL, "%s%s", out, err);
    /* sm_90a names the same device: a kernel without a target compiles as plain sm_90. */
    ck_assert_int_eq(mmbench("check", "--compile", "sm_90a", p, NULL), 0);
    ck_assert_msg(strstr(out, "compiled for sm_90: 1 ok, 0 failed\n") != NULL, "%s%s", out, err);
    /* Kernels whose target leaves the architecture out are not compiled for it, and say why. */
    char hopper[1100];
    snprintf(hopper, sizeof hopper, "%s/tests/fixtures/gpu/hopper.ini", root);
    ck_assert_int_eq(mmbench("check", "--compile", "sm_80", hopper, NULL), 0);
    ck_assert_msg(strstr(out, "not compiled for sm_80: kernel 'sm90a' is built for sm_90a (compute capability 9.0 "
                              "only), its target, and not for sm_80") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "compiled for sm_80: 0 ok, 0 failed (kernels of other targets left out)"), "%s", out);
    char text[2048];
    snprintf(text, sizeof text, "[profile]\nsizes = 64\n[kernel gone]\nsource = %s/kernels/naive.cu\n"
             "function = matmul_elsewhere\nparam.block_size_x = 16\nparam.block_size_y = 16\n", root);
    p = write_file("gone.ini", text);
    ck_assert_int_eq(mmbench("check", "--compile", "90", p, NULL), 1);
    ASSERT_ERR("function 'matmul_elsewhere' (the profile's `function`) is not in the source");
}
END_TEST

/* check evaluates a kernel's restrictions at the element size of each dtype it runs,
 * as run does: a configuration allowed only for 2-byte elements is counted and
 * compiled for f16, and one allowed only for 4-byte elements is not compiled for it. */
START_TEST(test_check_each_dtype)
{
    char text[2048];
    snprintf(text, sizeof text, "[profile]\nsizes = 64\ndtypes = f32, f16\n[kernel tiled]\nsource = %s/kernels/tiled.cu\n"
             "function = matmul_tiled\nparam.block_size_x = 16, 32\nparam.block_size_y = 16\n"
             "block_x = block_size_x\nrestrict = block_size_x * elem_size == 64\n", root);
    const char *p = write_file("each.ini", text);
    ck_assert_msg(mmbench("check", p, NULL) == 0, "%s", err);
    ck_assert_msg(strstr(out, "2 configurations, 2 allowed by its restrictions"), "%s", out);
    ck_assert_int_eq(mmbench("check", "--list", p, NULL), 0);
    ck_assert_msg(strstr(out, "run tiled block_size_x=16;block_size_y=16 f32 64x64x64\n") &&
                  strstr(out, "run tiled block_size_x=32;block_size_y=16 f16 64x64x64\n") &&
                  !strstr(out, "block_size_x=16;block_size_y=16 f16") && !strstr(out, "block_size_x=32;block_size_y=16 f32"),
                  "%s", out);
    snprintf(text, sizeof text, "[profile]\nsizes = 64\ndtypes = f16\n[kernel tiled]\nsource = %s/kernels/tiled.cu\n"
             "function = matmul_tiled\nparam.block_size_x = 32\nparam.block_size_y = 16\nrestrict = elem_size == 2\n",
             root);
    p = write_file("half.ini", text);
    ck_assert_msg(mmbench("check", p, NULL) == 0, "%s", err);
    ck_assert_msg(strstr(out, "1 configurations, 1 allowed by its restrictions"), "%s", out);
    if (mmbench("check", "--compile", "sm_80", p, NULL) == 2 && strstr(err, "without the CUDA toolkit"))
        return;
    ck_assert_msg(strstr(out, "compiled for sm_80: 1 ok, 0 failed"), "%s%s", out, err);
}
END_TEST

/* check --list --shard K/N over N = 3: every run of the profile listed by exactly one
 * shard; tune refuses a strategy that cannot split before it looks for a GPU. */
START_TEST(test_shards_from_the_command_line)
{
    static char all[1 << 16], shards[1 << 16];
    char p[1200];
    shards[0] = '\0';
    snprintf(p, sizeof p, "%s/profiles/course.ini", root);
    ck_assert_msg(mmbench("check", "--list", p, NULL) == 0, "%s", err);
    snprintf(all, sizeof all, "%s", out);
    size_t runs = 0;
    for (const char *l = strstr(all, "\nrun "); l; l = strstr(l + 1, "\nrun "))
        runs++;
    ck_assert_uint_eq(runs, 153);
    for (int k = 1; k <= 3; k++) {
        char shard[8];
        snprintf(shard, sizeof shard, "%d/3", k);
        ck_assert_msg(mmbench("check", "--list", "--shard", shard, p, NULL) == 0, "%s", err);
        ck_assert_ptr_nonnull(strstr(out, "shard "));
        ck_assert_ptr_nonnull(strstr(out, " of the profile's 153 runs"));
        strncat(shards, strstr(out, "\nrun "), sizeof shards - strlen(shards) - 1);
    }
    size_t listed = 0;
    for (const char *l = strstr(shards, "\nrun "); l; l = strstr(l + 1, "\nrun "))
        listed++;
    ck_assert_uint_eq(listed, runs);
    for (char *l = strstr(all, "\nrun "); l; l = strstr(l + 1, "\nrun ")) {
        char line[400];
        size_t n = strcspn(l + 1, "\n");
        snprintf(line, sizeof line, "\n%.*s\n", (int)n, l + 1);
        char *at = strstr(shards, line);
        ck_assert_msg(at && !strstr(at + 1, line), "%s is not listed by exactly one shard", line + 1);
    }
    if (!have_cuda)
        return;
    snprintf(p, sizeof p, "%s/tests/fixtures/tune/small.ini", root);
    ck_assert_int_eq(mmbench("tune", "--shard", "1/2", "--strategy", "annealing", p, NULL), 2);
    ASSERT_ERR("--shard: strategy annealing walks from a configuration to its neighbours");
    ck_assert_int_eq(mmbench("tune", "--devices", "all", "--strategy", "genetic", p, NULL), 2);
    ASSERT_ERR("--devices all splits the space between the GPUs of one model");
    ck_assert_int_eq(mmbench("tune", "--devices", "all", "-o", "x.csv", p, NULL), 2);
    ASSERT_ERR("--output and --devices contradict each other: --devices all writes one CSV per GPU model, "
               "DATA/<gpu>/ (--data-dir)");
}
END_TEST

/* Options that contradict each other, or one given twice, are bad input naming both:
 * never one silently dropped. Found before a GPU is looked for (2, not 69). */
START_TEST(test_options_never_dropped)
{
    const char *p = profile_with("", "param.block_size_x = 16\nparam.block_size_y = 16");
    struct {
        const char *command, *a[4], *expect;
    } cases[] = {
        {"run", {"--devices", "all", "--device", "1"}, "--device and --devices contradict each other"},
        {"tune", {"--device", "1", "--devices", "all"}, "--device and --devices contradict each other"},
        {"run", {"--device", "0", "--device", "1"}, "--device is given twice ('0', then '1'); expected it once"},
        {"tune", {"--kernel", "naive", "--kernel", "naive"}, "--kernel is given twice"},
        {"run", {"--no-cache", "--cache-dir", "x", NULL}, "--cache-dir and --no-cache contradict each other"},
        {"run", {"-o", "x.csv", "--data-dir", "d"}, "--output and --data-dir contradict each other"},
        {"tune", {"--jobs", "4", "--no-cache", NULL}, "--jobs and --no-cache contradict each other"},
        {"tune", {"--t4", "x.json", "--no-t4", NULL}, "--t4 and --no-t4 contradict each other"},
        {"run", {"--shard", "1/2", "--shard", "2/2"}, "--shard is given twice ('1/2', then '2/2')"},
        {"run", {"--devices", "all", "-o", "x.csv"}, "--output and --devices contradict each other"},
        {"check", {"--shard", "1/2", "--shard", "2/2"}, "--shard is given twice"},
        {"check", {"--compile", "sm_90", "--compile", "sm_80"}, "--compile is given twice"},
        {"merge", {"--data-dir", "a", "--data-dir", "b"}, "--data-dir is given twice ('a', then 'b')"},
        {"report", {"-o", "a", "--output", "b"}, "--output is given twice ('a', then 'b')"},
        {"report", {"--dtype", "f32", "-t", "f64"}, "--dtype is given twice"},
        {"report", {"--no-plots", "--formats", "png", NULL}, "--formats and --no-plots contradict each other"},
        {"report", {"-g", "gp", "-n", NULL}, "mmbench report: --gnuplot and --no-plots contradict each other"},
        /* a name with a row per command: each command's own row is counted */
        {"report", {"-s", "64", "--size", "128"}, "mmbench report: --size is given twice ('64', then '128')"},
        {"tune", {"--size", "64", "--size", "128"}, "mmbench tune: --size is given twice ('64', then '128')"},
        {"check", {"--command", "--shard", "1/2", "--list"}, "mmbench check: --list and --command contradict each other"},
        {"check", {"--shard", "1/2", "--command", NULL}, "mmbench check: --shard and --command contradict each other"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char **a = cases[i].a;
        int rc = a[3] ? mmbench(cases[i].command, a[0], a[1], a[2], a[3], p, NULL)
                      : mmbench(cases[i].command, a[0], a[1], a[2], p, NULL);
        ck_assert_msg(rc == 2, "case %zu (%s %s %s): exit %d: %s", i, cases[i].command, a[0], a[2], rc, err);
        ASSERT_ERR(cases[i].expect);
    }
    /* a flag given twice drops nothing */
    ck_assert_int_ne(mmbench("run", "--no-counters", "--no-counters", "-o", "/dev/null", p, NULL), 2);
    ck_assert_int_eq(mmbench("check", "--list", "--list", p, NULL), 0);
    /* report's -o is its own option, not run's: no contradiction with run's --data-dir */
    ck_assert_int_ne(mmbench("report", "-o", "/nonexistent/out", "-n", "-q", "/nonexistent/in.csv", NULL), 0);
    ck_assert_ptr_null(strstr(err, "contradict"));
}
END_TEST

START_TEST(test_no_gpu_one_line)
{
    const char *p = profile_with("", "param.block_size_x = 16\nparam.block_size_y = 16");
    int rc = mmbench("run", "-o", "/dev/null", p, NULL);
    if (rc != 69 || !have_cuda)
        return; /* a GPU is here, or CUDA is not (test_built_without_cuda) */
    ASSERT_ERR("no NVIDIA GPU or driver found");
    ASSERT_ERR("`mmbench report` works without one");
    ck_assert_ptr_null(strstr(err, ".c:")); /* no source locations for the user */
    ck_assert_int_eq(mmbench("devices", NULL), 69);
    ASSERT_ERR("no NVIDIA GPU or driver found");
}
END_TEST

/* Every message of every command starts "mmbench COMMAND: ", whichever file says it. */
START_TEST(test_messages_name_their_command)
{
    const char *p = profile_with("", "param.block_size_x = 16\nparam.block_size_y = 16");
    static const char *const commands[] = {"run", "tune", "check", "merge", "report", "devices", "compare"};
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        char want[64];
        snprintf(want, sizeof want, "mmbench %s: no such option as '--frobnicate'", commands[i]);
        ck_assert_int_eq(mmbench(commands[i], "--frobnicate", p, NULL), 2);
        ck_assert_msg(!strncmp(err, want, strlen(want)), "%s: %s", commands[i], err);
    }
    ck_assert_int_eq(mmbench("merge", "--data-dir", NULL), 2);
    ASSERT_ERR("mmbench merge: expected a value after '--data-dir'");
    ck_assert_int_eq(mmbench("merge", p, p, NULL), 2);
    ASSERT_ERR("mmbench merge: expected exactly one profile, got 2");
    ck_assert_int_eq(mmbench("check", NULL), 2);
    ASSERT_ERR("mmbench check: expected one or more profiles");
    ck_assert_int_eq(mmbench("devices", "x", NULL), 2);
    ASSERT_ERR("mmbench devices: takes no arguments, not 'x'");
    const char *bad = write_file("bad.ini", "[profile]\nsizes = 0\n");
    static const char *const loaders[] = {"check", "merge", "run", "tune"};
    for (size_t i = 0; i < (have_cuda ? 4u : 2u); i++) {
        char want[64];
        snprintf(want, sizeof want, "mmbench %s: %s:2:", loaders[i], bad);
        ck_assert_int_eq(mmbench(loaders[i], bad, NULL), 2);
        ck_assert_msg(!strncmp(err, want, strlen(want)), "%s: %s", loaders[i], err);
    }
}
END_TEST

/* The one options table: each command's --help lists every option once, each with
 * its help, and the options of a command are the ones it takes. */
START_TEST(test_options_once_per_command)
{
    static const char *const commands[] = {"run", "tune", "check", "merge", "report", "devices", "compare"};
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        ck_assert_int_eq(mmbench(commands[i], "--help", NULL), 0);
        char names[64][32];
        size_t n = 0;
        for (const char *l = out; (l = strstr(l, "\n  ")); l++) {
            const char *dash = strstr(l, "--");
            if (!dash || dash > strchr(l + 1, '\n'))
                continue;
            size_t len = strcspn(dash + 2, " \n");
            ck_assert_uint_lt(n, 64);
            snprintf(names[n], sizeof names[n], "%.*s", (int)len, dash + 2);
            for (size_t j = 0; j < n; j++)
                ck_assert_msg(strcmp(names[j], names[n]), "%s --help lists --%s twice", commands[i], names[n]);
            n++;
        }
        ck_assert_msg(n >= 1 && !strcmp(names[n - 1], "help"), "%s --help: %s", commands[i], out);
    }
    ck_assert_int_eq(mmbench("report", "--help", NULL), 0);
    ck_assert_ptr_nonnull(strstr(out, "-o, --output DIR"));
    ck_assert_ptr_nonnull(strstr(out, "formats: png, svg, pdf"));
    ck_assert_int_eq(mmbench("run", "--help", NULL), 0);
    ck_assert_ptr_nonnull(strstr(out, "-o, --output CSV"));
    ck_assert_ptr_null(strstr(out, "--formats")); /* report's, not run's */
}
END_TEST

/* What measures a profile, for scripts: tune for a tuning profile, else run. */
START_TEST(test_check_command)
{
    char tune[1200], course[1200];
    snprintf(tune, sizeof tune, "%s/profiles/tune-seed.ini", root);
    snprintf(course, sizeof course, "%s/profiles/course.ini", root);
    ck_assert_msg(mmbench("check", "--command", tune, course, NULL) == 0, "%s", err);
    ck_assert_str_eq(out, "tune\nrun\n");
    const char *bad = write_file("bad.ini", "[profile]\nsizes = 0\n");
    ck_assert_int_eq(mmbench("check", "--command", bad, NULL), 2); /* a profile that does not load is not measured */
}
END_TEST

/* Built without CUDA: run and tune take their options, then say what they lack. */
START_TEST(test_built_without_cuda)
{
    const char *p = profile_with("", "param.block_size_x = 16\nparam.block_size_y = 16");
    static const char *const commands[] = {"run", "tune", "devices"};
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        ck_assert_int_eq(mmbench(commands[i], "--help", NULL), 0);
        ck_assert_int_eq(mmbench(commands[i], i < 2 ? p : NULL, NULL), 69);
        ASSERT_ERR("this mmbench was built without the CUDA toolkit");
    }
    ck_assert_int_eq(mmbench("run", "--repeats", "0", p, NULL), 2);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cmd");
    TCase *tc = tcase_create("bad input");
    tcase_add_checked_fixture(tc, tmpdir_setup, tmpdir_teardown);
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, test_no_command);
    tcase_add_test(tc, test_help_everywhere);
    tcase_add_test(tc, test_numbers_never_wrap);
    if (have_cuda) {
        tcase_add_test(tc, test_timing_options);
        tcase_add_test(tc, test_energy_objectives);
        tcase_add_test(tc, test_energy_mode);
        tcase_add_test(tc, test_seed_full_range);
    } else {
        tcase_add_test(tc, test_built_without_cuda);
    }
    tcase_add_test(tc, test_not_regular_files);
    tcase_add_test(tc, test_file_too_large);
    tcase_add_test(tc, test_restriction_cannot_be_evaluated);
    tcase_add_test(tc, test_space_bounded);
    tcase_add_test(tc, test_params_text_fits);
    tcase_add_test(tc, test_unknown_metric_set);
    tcase_add_test(tc, test_counters_mode);
    tcase_add_test(tc, test_check_compile);
    tcase_add_test(tc, test_check_each_dtype);
    tcase_add_test(tc, test_shards_from_the_command_line);
    tcase_add_test(tc, test_options_never_dropped);
    tcase_add_test(tc, test_no_gpu_one_line);
    tcase_add_test(tc, test_messages_name_their_command);
    tcase_add_test(tc, test_check_command);
    tcase_add_test(tc, test_options_once_per_command);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
