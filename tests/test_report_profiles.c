/* test_report_profiles.c - the report keeps profiles apart: the story (findings,
 * figures, tables) comes from one profile (--profile, else course, else the most ok
 * rows), and the others get their places: the Kernel ladder section (ladder*), the
 * Seed kernels as written section (seeds*, with each kernel's bug from the CSV's
 * note), Other profiles. Fixtures: tests/fixtures/csv/profiles (one GPU, profiles
 * course, sweep2, ladder and seeds-as-written). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "report/input/story.h"
#include "report_run.h"

static char troot[700], out[800];

/* A source root in tmpdir with the fixtures as its data/ and the seeds' profile INI
 * (a profile that loads) naming the kernels in another order than the CSV's first
 * appearance. */
static void root_make(void)
{
    char cmd[6000];
    snprintf(troot, sizeof troot, "%s/root", tmpdir);
    snprintf(out, sizeof out, "%s/reports", troot);
    snprintf(cmd, sizeof cmd,
             "mkdir -p '%.700s/profiles' '%.700s/kernels' '%.800s' && cp -r '%.1000s/tests/fixtures/csv/profiles' "
             "'%.700s/data' && echo 'extern \"C\" __global__ void f() {}' > '%.700s/kernels/s.cu'",
             troot, troot, out, root, troot, troot);
    ck_assert_int_eq(system(cmd), 0);
    char ini[800];
    snprintf(ini, sizeof ini, "%s/profiles/seeds-as-written.ini", troot);
    FILE *f = fopen(ini, "w");
    ck_assert_ptr_nonnull(f);
    fputs("[profile]\nname = seeds-as-written\nsizes = 64\n\n", f);
    static const char *const kernels[] = {"s_typo", "s_ok", "s_wrong", "s_mixed", "s_i32"};
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++)
        fprintf(f, "[kernel %s]\nsource = ../kernels/s.cu\nfunction = f\n\n", kernels[i]);
    fputs("[kernel cublas]\nlibrary = cublas\n", f);
    ck_assert_int_eq(fclose(f), 0);
}

/* The report of troot with extra arguments (before the inputs, if any); its README. */
static int run_in_root(char **args, size_t nargs, char **inputs, size_t ninputs)
{
    char *argv[16] = {"report", "-q", "--no-plots", "-o", out};
    int argc = 5;
    for (size_t i = 0; i < nargs; i++)
        argv[argc++] = args[i];
    for (size_t i = 0; i < ninputs; i++)
        argv[argc++] = inputs[i];
    ck_assert_int_eq(setenv("MMB_SOURCE_ROOT", troot, 1), 0);
    int rc = report_run(argc, argv);
    ck_assert_int_eq(setenv("MMB_SOURCE_ROOT", root, 1), 0);
    return rc;
}

static char *readme(void)
{
    char path[900];
    snprintf(path, sizeof path, "%s/README.md", out);
    char *md = file_get(path);
    ck_assert_ptr_nonnull(md);
    return strdup(md);
}

static void has(const char *text, const char *what)
{
    ck_assert_msg(strstr(text, what), "lacks: %s", what);
}

/* The part of the README from heading `from` to the next "\n## ". */
/* reports/ladder.md: the Kernel ladder section's own page */
static char *ladder_md(void)
{
    char path[900];
    snprintf(path, sizeof path, "%s/ladder.md", out);
    char *md = file_get(path);
    ck_assert_ptr_nonnull(md);
    return strdup(md);
}

static char *section(const char *md, const char *from)
{
    const char *a = strstr(md, from);
    ck_assert_msg(a, "no section %s", from);
    const char *b = strstr(a + 1, "\n## ");
    return strndup(a, b ? (size_t)(b - a) : strlen(a));
}

START_TEST(test_profiles_story_default)
{
    root_make();
    ck_assert_msg(run_in_root(NULL, 0, NULL, 0) == 0, "%s", report_err);
    char *md = readme();
    /* course is the story although sweep2 has more ok rows and a faster naive */
    char *findings = section(md, "## Key findings");
    has(findings, "**The course profile's kernels, Test GPU A, 4096.** Each kernel's best configuration (f32, cold L2): "
                  "naive 6.2 TFLOP/s, tiled 9.2 (×1.47, UNSURE), cublas 50.9 (×5.56, UNSURE).");
    ck_assert_ptr_null(strstr(findings, "k\\_other"));
    ck_assert_ptr_null(strstr(findings, "naive 6.9"));
    free(findings);
    char *tables = section(md, "## Tables");
    has(tables, "| naive | `bx=32` | 22.00 |");
    ck_assert_ptr_null(strstr(tables, "`bx=64`"));
    ck_assert_ptr_null(strstr(tables, "s\\_ok"));
    ck_assert_ptr_null(strstr(tables, "step1"));
    free(tables);
    /* the story's figures hold the story's kernels only */
    char path[900];
    snprintf(path, sizeof path, "%s/gnuplot/kernels-test-gpu-a.dat", out);
    const char *dat = file_get(path);
    ck_assert_ptr_nonnull(dat);
    has(dat, "# naive, block_size_x=32");
    ck_assert_ptr_null(strstr(dat, "k_other"));
    ck_assert_ptr_null(strstr(dat, "step"));
    snprintf(path, sizeof path, "%s/gnuplot/kernels-test-gpu-a.gp", out);
    has(file_get(path), "set xrange [-0.6:2.6]"); /* naive, tiled, cublas: three slots */
    /* the rule, in the report itself, and where each other profile went */
    has(md, "**Profiles.** The story (Key findings, Figures and Tables) is drawn from one profile, `course` (the "
            "default; `--profile NAME` chooses another;");
    has(md, "`ladder` in [Kernel ladder](ladder.md); `seeds-as-written` in [Seed kernels as written]"
            "(#seed-kernels-as-written); `sweep2` in [Other profiles](#other-profiles)");
    has(md, "[Tables](#tables) · [Kernel ladder](ladder.md) · [Seed kernels as written](#seed-kernels-as-written) · "
            "[Other profiles](#other-profiles) · [Caveats](#caveats)");
    char *other = section(md, "## Other profiles");
    has(other, "### Profile `sweep2`");
    has(other, "| naive | f32 | 4096 | ok | `bx=64` | 20.00 | 6.87 | 13 |");
    has(other, "| k\\_other | f32 | 4096 | ok | `tile=8` | 10.00 | 13.74 | 26 |");
    free(other);
    /* a row without a profile joins the story's */
    has(md, "naive `bx=64`: invalid_config (2048 threads per block; the device allows 1024)");
    free(md);
}
END_TEST

START_TEST(test_profiles_story_named)
{
    root_make();
    char *named[] = {"--profile", "sweep2"};
    ck_assert_msg(run_in_root(named, 2, NULL, 0) == 0, "%s", report_err);
    char *md = readme();
    has(md, "**The sweep2 profile's kernels, Test GPU A, 4096.** Each kernel's best configuration (f32, cold L2): naive "
            "6.9 TFLOP/s, k\\_other 13.7 (×2.00, UNSURE), cublas 51.9 (×3.77, UNSURE).");
    has(md, "drawn from one profile, `sweep2` (named with --profile;");
    has(md, "`course` in [Other profiles](#other-profiles)");
    free(md);

    char *nosuch[] = {"-p", "nosuch"};
    ck_assert_int_eq(run_in_root(nosuch, 2, NULL, 0), 2);
    has(report_err, "--profile nosuch: no ok row of that profile; profiles in the data: course, ladder, "
                    "seeds-as-written, sweep2");

    /* without course: the profile with the most ok rows (sweep2: 9, ladder: 8) */
    char in1[900], in2[900];
    snprintf(in1, sizeof in1, "%s/data/test-gpu-a/sweep2.csv", troot);
    snprintf(in2, sizeof in2, "%s/data/test-gpu-a/ladder.csv", troot);
    char *inputs[] = {in1, in2};
    ck_assert_msg(run_in_root(NULL, 0, inputs, 2) == 0, "%s", report_err);
    md = readme();
    has(md, "drawn from one profile, `sweep2` (the profile with the most ok rows;");
    free(md);
    md = ladder_md();
    has(md, "## Kernel ladder");
    free(md);
}
END_TEST

START_TEST(test_profiles_seeds_as_written)
{
    root_make();
    /* the source the profile names, with the line the compiler's error names (7) */
    char src[900];
    snprintf(src, sizeof src, "%s/kernels/s.cu", troot);
    FILE *sf = fopen(src, "w");
    ck_assert_ptr_nonnull(sf);
    fputs("extern \"C\" __global__ void f(const float *B, float *C)\n{\n    float sum = 0;\n    for (int k = 0; k < "
          "4; k++)\n    {\n        /* as the document prints it */\n        sum += B[i];   \n    }\n    C[0] = sum;\n}\n",
          sf);
    ck_assert_int_eq(fclose(sf), 0);
    ck_assert_msg(run_in_root(NULL, 0, NULL, 0) == 0, "%s", report_err);
    char *md = readme();
    char *seeds = section(md, "## Seed kernels as written");
    /* the INI's order (s_typo first), the compiler's first error and the note's bug */
    const char *typo = strstr(seeds, "| s\\_typo | f32 | 4096 | compile\\_error | – | – | – | – | `line 7: identifier \"i\" "
                                     "is undefined`. The bug: `B[i]` names an `i` that does not exist |");
    const char *ok = strstr(seeds, "| s\\_ok | f32 | 4096 | ok | `tile=16` | 21.00 | 6.54 | 13 | The bug: correct only "
                                   "when N is a multiple of `TILE` |");
    ck_assert_msg(typo && ok && typo < ok, "%s", seeds);
    has(seeds, "| s\\_wrong | f32 | 4096 | wrong\\_result | – | – | – | – | `16000000 of 16777216 elements beyond "
               "tolerance 0.0001; first at row 0 column 0`. The bug: the second tile overlaps the first |");
    has(seeds, "| s\\_mixed | f32 | 4096 | wrong\\_result 3, ok 1 | `tx=2` | 12.00 | 11.45 | 22 |");
    has(seeds, "| s\\_i32 | i32 | 2048 | ok |"); /* not at 4096: its largest size */
    free(seeds);
    /* the finding, computed from the statuses */
    char *findings = section(md, "## Key findings");
    has(findings, "**Seed kernels as written.** The 5 seed kernels run exactly as the documents print them (profile "
                  "seeds-as-written), on the Test GPU A: 2 are correct as written (s\\_ok, s\\_i32). 1 does not compile: "
                  "s\\_typo (line 7: identifier \"i\" is undefined). 2 compute wrong results: s\\_wrong in all 2 runs, "
                  "s\\_mixed in 3 of its 4 completed runs (the other 1 passed the check).");
    free(findings);
    /* the note is named in Data, not quoted */
    has(md, "Its note, `data/test-gpu-a/seeds-as-written.md`, names each kernel's bug in a table");
    ck_assert_ptr_null(strstr(md, "> Fixture note"));
    free(md);
    char path[900];
    snprintf(path, sizeof path, "%s/tables.tex", out);
    has(file_get(path), "\\parbox[t]{0.26\\linewidth}{\\raggedright \\texttt{line 7: identifier \"i\" is undefined}. "
                        "The bug: \\texttt{B[i]} names an \\texttt{i} that does not exist\\strut}");
    /* the failure gallery of slides.tex: a slide per failing kernel, in the INI's order, with
     * the source line the error names (read from the source), the error and the fix */
    snprintf(path, sizeof path, "%s/slides.tex", out);
    char *slides = strdup(file_get(path));
    const char *g_typo = strstr(slides, "\\begin{frame}[plain]{s\\_typo as written: it does not compile}\n"),
               *g_wrong = strstr(slides, "\\begin{frame}[plain]{s\\_wrong as written: it computes wrong results}\n"),
               *g_mixed = strstr(slides, "\\begin{frame}[plain]{s\\_mixed as written: it computes wrong results}\n");
    ck_assert_msg(g_typo && g_wrong && g_mixed && g_typo < g_wrong && g_wrong < g_mixed, "%s", slides);
    has(g_typo, "\\textbf{The source} (kernels/s.cu, line 7):\\par\\medskip\n\\texttt{sum += B[i];}\\par\\bigskip\n"
              "\\textbf{The compiler's error}:\\par\\medskip\n\\texttt{line 7: identifier \"i\" is undefined}\\par\\bigskip\n"
              "\\textbf{The bug and its fix}:\\par\\medskip\n\\texttt{B[i]} names an \\texttt{i} that does not exist\\par\n"
              "\\end{frame}");
    has(g_wrong, "\\textbf{The check} (2 of 2 runs wrong; the first):\\par\\medskip\n\\texttt{16000000 of 16777216 "
               "elements beyond tolerance 0.0001; first at row 0 column 0}");
    has(g_wrong, "\\textbf{The bug and its fix}:\\par\\medskip\nthe second tile overlaps the first\\par");
    has(g_mixed, "(3 of 4 runs wrong; the first)");
    /* the correct ones have no slide */
    ck_assert_ptr_null(strstr(slides, "{s\\_ok as written"));
    ck_assert_ptr_null(strstr(slides, "{s\\_i32 as written"));
    free(slides);
}
END_TEST

/* Steps and kernels whose times differ inside the noise (tests/fixtures/csv/noise: each row
 * its launch count, min and max): compare's verdict SAME, so no gain, no "fastest" alone. */
START_TEST(test_profiles_noise)
{
    root_make();
    char in[1100];
    snprintf(in, sizeof in, "%s/tests/fixtures/csv/noise", root);
    char *inputs[] = {in};
    ck_assert_msg(run_in_root(NULL, 0, inputs, 1) == 0, "%s", report_err);
    char *md = readme();
    char *findings = section(md, "## Key findings");
    /* a clear step is a gain, the step inside the noise is not */
    has(findings, "The largest gains over the step above: step1 ×2.75 (after step0).");
    ck_assert_ptr_null(strstr(findings, "(after step1)"));
    has(findings, "to step2's 17.3 (×2.76) (not told apart by mmbench compare from step1)");
    /* kernel against kernel: SAME, and the fastest named with the one it ties */
    has(findings, "naive 6.2 TFLOP/s, tiled 6.3 (×1.00, SAME), cublas 50.9 (×8.11).");
    has(findings, "The fastest of the profile's kernels, tiled (not told apart by mmbench compare from naive)");
    has(findings, "naive's time over tiled's: ×1.00, SAME at 4096; ×1.00, SAME at 8192.");
    free(findings);
    char *summary = section(md, "## Summary");
    has(summary, "The largest steps: step1 ×2.75 over the step before.");
    has(summary, "tiled (not told apart by mmbench compare from naive), reaches 6.3 TFLOP/s");
    free(summary);
    free(md);
}
END_TEST

START_TEST(test_profiles_ladder)
{
    root_make();
    ck_assert_msg(run_in_root(NULL, 0, NULL, 0) == 0, "%s", report_err);
    char *md = readme();
    ck_assert_ptr_null(strstr(md, "## Kernel ladder")); /* its own page */
    char *page = ladder_md();
    char *ladder = section(page, "## Kernel ladder");
    free(page);
    has(ladder, "### Test GPU A, profile `ladder`");
    has(ladder, "#### Test GPU A: the kernel ladder (profile ladder) at 4096 and 8192 (f32, cold L2)");
    has(ladder, "#### Test GPU A: the roofline of the kernel ladder (profile ladder) at 4096 (f32, cold L2)");
    has(ladder, "| Step | Configuration | TFLOP/s 4096 | TFLOP/s 8192 | × prev. | % cuBLAS | Limiter | FP32 % | Issue % | "
                "L1 % | L2 % | DRAM % | Top stalls | Bank confl. | Occup. % |");
    has(ladder, "| step0 | `bx=32` | 6.2 | 6.2 | – | 12 | L1 | 9 | 42 | 74 | 14 | 6.7 | Long Scoreboard 20.3, Not "
                "Selected 4.2 | 0 | 99 |");
    has(ladder, "| step1 | `bm=64` | 17.2 | 17.2 | 2.75 | 34 | L1 | 26 | 55 | 70 | 6 | 2.3 | MIO Throttle 9.0, Barrier "
                "2.1 | 268.4 M | 49 |");
    /* FP32 51%, L1 48%, the SM's busiest unit 58%: nothing at 60% of its peak */
    has(ladder, "| step2 | `bm=128` | 34.4 | 34.4 | 2.00 | 68 | LATENCY | 51 | 50 | 48 | 8 | 2.0 | Not Selected 2.2, "
                "Long Scoreboard 1.4 | 18.0 k | 25 |");
    /* issue 85%, SM 86%: the issue rate, within 2 points of the SM's busiest unit */
    has(ladder, "| cublas | `-` | 50.9 | 50.9 | 1.48 | 100 | ISSUE | 76 | 85 | 61 | 18 | 3.0 | Not Selected 3.5, Long "
                "Scoreboard 0.5 | 0 | 12 |");
    free(ladder);
    /* the figure is the section's, not the story's */
    char *figures = section(md, "## Figures");
    ck_assert_ptr_null(strstr(figures, "ladder-test-gpu-a"));
    free(figures);
    char *findings = section(md, "## Key findings");
    has(findings, "**Kernel ladder, Test GPU A.** Profile ladder, each step at its best configuration (f32, cold L2). At "
                  "4096 its 3 steps go from step0's 6.2 TFLOP/s to step2's 34.4 (×5.50, UNSURE) (not told apart by "
                  "mmbench compare from step0, step1), 68% of cuBLAS and 51% of the FP32 peak; at 8192 the fastest is "
                  "step2 at 34.4 (not told apart by mmbench compare from step0, step1), 68% of cuBLAS.");
    /* rows without their spread or launch count: no verdict, so no step is called a gain */
    ck_assert_ptr_null(strstr(findings, "The largest gains over the step above"));
    has(findings, "What limits each step at 4096: L1/TEX throughput from step0 to step1; latency (no unit at 60% of its "
                  "peak) for step2; the SM's instruction issue for cublas.");
    has(findings, "What the latency-bound steps wait for, in warp cycles per issued instruction: step2 Not Selected "
                  "2.2, Long Scoreboard 1.4.");
    has(findings, "step2 cuts shared-memory bank conflicts from 268.4 M to 18.0 k at 4096 (×2.00, UNSURE in speed).");
    free(findings);
    free(md);
    char path[900];
    snprintf(path, sizeof path, "%s/gnuplot/ladder-test-gpu-a.dat", out);
    const char *dat = file_get(path);
    ck_assert_ptr_nonnull(dat);
    char *dat_copy = strdup(dat);
    snprintf(path, sizeof path, "%s/gnuplot/ladder-test-gpu-a.gp", out);
    const char *gp = file_get(path);
    /* each bar in its kernel's colour, the one of its line style (the registry's) */
    const char *style = strstr(gp, "  # step2\n");
    ck_assert_ptr_nonnull(style);
    while (style > gp && style[-1] != '\n')
        style--;
    const char *hash = strstr(style, "lc rgb \"#");
    ck_assert_ptr_nonnull(hash);
    char expect[200];
    snprintf(expect, sizeof expect, "\"34.4  (68%%)\" 0x%.6s  # step2", hash + 9);
    has(dat_copy, "2 34.3597 34.3597 \"34.4  ×2.00  51% FP32  68% cuBLAS\" \"34.4  ×2.00  51% FP32  68% cuBLAS\" ");
    has(dat_copy, expect);
    free(dat_copy);
    has(gp, "set ytics (\"step0\" 0, \"step1\" 1, \"step2\" 2, \"cublas\" 3)");
    has(gp, "set x2label \"% of the FP32 peak (66.9 TFLOP/s)\"");

    /* the ladder's roofline at 4096: DRAM and shared memory, which have roofs (bench/ncu-stalls.txt),
     * not L2, which has bytes but no roof; an arrow from each step to the next per level */
    snprintf(path, sizeof path, "%s/gnuplot/ladder-roofline-test-gpu-a.dat", out);
    dat = file_get(path);
    ck_assert_ptr_nonnull(dat);
    /* 2 x 4096^3 FLOP over 4,000,000,000 + 67,108,864 DRAM bytes; over 880,000,000 x 128 shared bytes */
    has(dat, "# step0, DRAM\n33.7927894 ");
    has(dat, "# step2, shared\n1.22016116 ");
    has(dat, "# arrows from each step to the next, DRAM: x y dx dy\n");
    has(dat, "# step1 -> step2\n");
    has(dat, "# arrows from each step to the next, shared: x y dx dy\n");
    /* the DRAM points named: the name's leading digits, or the name (these have none) */
    has(dat, "# labels of the DRAM points: x y text\n33.7927894 ");
    has(dat, " \"step2\"\n");
    ck_assert_ptr_null(strstr(dat, ", L2\n"));
    ck_assert_ptr_null(strstr(dat, "# step0, shared")); /* no wavefronts: no shared point */
    snprintf(path, sizeof path, "%s/gnuplot/ladder-roofline-test-gpu-a.gp", out);
    gp = file_get(path);
    has(gp, "B3 = 33402.4");
    has(gp, "with vectors head filled");
    ck_assert_ptr_null(strstr(gp, "B1 = "));
}
END_TEST

/* The story's table: what a profile's name makes it, and what marks a published row. */
START_TEST(test_story_roles)
{
    static const struct {
        const char *name;
        enum mmb_report_role role;
    } cases[] = {
        {"tune-seed", MMB_REPORT_ROLE_TUNING},  {"tuned", MMB_REPORT_ROLE_TUNING},
        {"ladder", MMB_REPORT_ROLE_LADDER},     {"ladder-h100", MMB_REPORT_ROLE_LADDER},
        {"seeds-as-written", MMB_REPORT_ROLE_AS_WRITTEN}, {"course", MMB_REPORT_ROLE_OTHER},
        {"dtypes", MMB_REPORT_ROLE_OTHER},      {"", MMB_REPORT_ROLE_OTHER},
        {"my-tune", MMB_REPORT_ROLE_OTHER},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        ck_assert_msg(mmb_report_story_role(cases[i].name) == cases[i].role, "%s", cases[i].name);
    ck_assert(mmb_report_story_published("published: Kernel Tuner notebook, GTX TITAN X"));
    ck_assert(mmb_report_story_published("Published figure"));
    ck_assert(!mmb_report_story_published("unpublished"));
    ck_assert(!mmb_report_story_published(""));
    ck_assert_str_eq(mmb_report_story.main_profile, "course");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("report_profiles");
    TCase *tc = tcase_create("report_profiles");
    tcase_add_checked_fixture(tc, tmpdir_setup, tmpdir_teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_profiles_story_default);
    tcase_add_test(tc, test_profiles_story_named);
    tcase_add_test(tc, test_profiles_seeds_as_written);
    tcase_add_test(tc, test_profiles_ladder);
    tcase_add_test(tc, test_profiles_noise);
    tcase_add_test(tc, test_story_roles);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
