/* test_options_text.c - the program's texts, made from the option and command tables
 * (cmd/options_text.c), as a user and a shell meet them: --version on every command
 * names mmbench's commit and the CUDA it was built with and finds; `mmbench help`
 * prints each command's --help; the manual page has every option of every --help and
 * is valid roff; the bash completion parses and completes commands, options, their
 * values and profiles, the zsh one names every option; --format and --fail-on take
 * what their tables allow and refuse the rest; devices --format json without a GPU is
 * exit 69 with nothing on stdout. */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check_run.h"
#include "mmbench_run.h"
#include "tmpdir.h"

#ifdef MMB_HAVE_CUDA
static const bool have_cuda = true;
#else
static const bool have_cuda = false;
#endif

static const char *const commands[] = {"run", "tune", "check", "merge", "devices", "report", "export", "columns",
                                       "help", "compare"};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

#define ASSERT_OUT(text) ck_assert_msg(strstr(out, text) != NULL, "expected '%s' in stdout: %s", text, out)
#define ASSERT_ERR(text) ck_assert_msg(strstr(err, text) != NULL, "expected '%s' in stderr: %s", text, err)

/* The options a command's --help lists, "--name" each, into names. */
static size_t help_options(const char *command, char names[][40], size_t max)
{
    ck_assert_msg(mmbench(command, "--help", NULL) == 0, "%s --help: %s", command, err);
    size_t n = 0;
    for (const char *l = out; (l = strstr(l, "\n  ")); l++) {
        const char *dash = strstr(l, "--");
        if (!dash || dash > strchr(l + 1, '\n'))
            continue;
        ck_assert_uint_lt(n, max);
        snprintf(names[n++], 40, "--%.*s", (int)strcspn(dash + 2, " \n"), dash + 2);
    }
    ck_assert_uint_ge(n, 2); /* --version and --help at least */
    return n;
}

/* A program's whole stdout into a file of tmpdir, read back (larger than out). */
static char *run_to_file(const char *name, const char *a1, const char *a2, const char *a3)
{
    char cmd[1400], path[256];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    snprintf(cmd, sizeof cmd, "'%s' %s %s %s > '%s'", getenv("MMBENCH"), a1, a2 ? a2 : "", a3 ? a3 : "", path);
    ck_assert_msg(system(cmd) == 0, "%s", cmd);
    static char text[1 << 18];
    mmbench_slurp(path, text, sizeof text);
    return text;
}

START_TEST(test_version_everywhere)
{
    for (size_t i = 0; i <= NCOMMANDS; i++) {
        /* every command's --version, and the short form once, on run */
        const char *command = i < NCOMMANDS ? commands[i] : "run", *form = i < NCOMMANDS ? "--version" : "-V";
        ck_assert_msg(mmbench(command, form, NULL) == 0, "%s: %s", command, err);
        ck_assert_msg(!strncmp(out, "mmbench ", 8) && strstr(out, " (commit "), "%s --version: %s", command, out);
        if (have_cuda) {
            ASSERT_OUT("built with CUDA ");
            ASSERT_OUT(": runtime ");
            ASSERT_OUT(", NVRTC ");
            ASSERT_OUT(", CUPTI API ");
            ASSERT_OUT(", cuBLAS ");
            ASSERT_OUT("\nfound: runtime ");
            ASSERT_OUT(", cuBLASLt ");
            ASSERT_OUT(", driver: ");
        } else {
            ASSERT_OUT("built without CUDA");
        }
        ck_assert_str_eq(err, "");
    }
    static char first[sizeof out];
    snprintf(first, sizeof first, "%s", out);
    ck_assert_int_eq(mmbench("--version", NULL), 0);
    ck_assert_str_eq(out, first);
    /* without a driver, run says so in the version and exits 69 when asked to run */
    if (have_cuda && mmbench("devices", NULL) == 69 && strstr(err, "cudaErrorInsufficientDriver")) {
        ck_assert_int_eq(mmbench("run", "--version", NULL), 0);
        ASSERT_OUT("driver: none found");
    }
}
END_TEST

START_TEST(test_help_command)
{
    ck_assert_int_eq(mmbench("help", NULL), 0);
    for (size_t i = 0; i < NCOMMANDS; i++) {
        char line[32];
        snprintf(line, sizeof line, "\n  %-8s ", commands[i]);
        ASSERT_OUT(line);
    }
    ASSERT_OUT("MMB_SOURCE_ROOT");
    ASSERT_OUT("exit status: ");
    static char top[sizeof out];
    snprintf(top, sizeof top, "%s", out);
    ck_assert_int_eq(mmbench("--help", NULL), 0);
    ck_assert_str_eq(out, top);
    for (size_t i = 0; i < NCOMMANDS; i++) {
        static char help[1 << 16];
        ck_assert_int_eq(mmbench(commands[i], "--help", NULL), 0);
        snprintf(help, sizeof help, "%s", out);
        ck_assert_msg(mmbench("help", commands[i], NULL) == 0, "help %s: %s", commands[i], err);
        ck_assert_str_eq(out, help);
    }
    ck_assert_int_eq(mmbench("help", "nosuch", NULL), 2);
    ASSERT_ERR("mmbench help: 'nosuch' is not a command");
    ck_assert_int_eq(mmbench("help", "--man", "run", NULL), 2);
    ASSERT_ERR("mmbench help: --man prints the whole manual page");
    ck_assert_int_eq(mmbench("help", "--man", "--completion", "bash", NULL), 2);
    ASSERT_ERR("--man and --completion contradict each other");
    ck_assert_int_eq(mmbench("help", "--completion", "fish", NULL), 2);
    ASSERT_ERR("mmbench help: --completion expects bash or zsh, not 'fish'");
    ck_assert_int_eq(mmbench("help", "run", "tune", NULL), 2);
}
END_TEST

/* The man page has each command's section and every option its --help lists. */
START_TEST(test_man_page_from_help)
{
    static char man[1 << 18];
    snprintf(man, sizeof man, "%s", run_to_file("mmbench.1", "help", "--man", NULL));
    ck_assert_msg(!strncmp(man, ".\\\"", 3) && strstr(man, "\n.TH MMBENCH 1 "), "%.200s", man);
    for (size_t i = 0; i < NCOMMANDS; i++) {
        char section[64], names[64][40];
        snprintf(section, sizeof section, "\n.SS \"mmbench %s [OPTIONS]", commands[i]);
        ck_assert_msg(strstr(man, section), "no section %s", section);
        const char *start = strstr(man, section), *end = strstr(start + 1, "\n.SS ");
        size_t n = help_options(commands[i], names, 64);
        for (size_t k = 0; k < n; k++) {
            char roff[96];
            size_t o = 0;
            for (const char *p = names[k]; *p && o + 3 < sizeof roff; p++)
                o += (size_t)snprintf(roff + o, sizeof roff - o, *p == '-' ? "\\-" : "%c", *p);
            const char *at = strstr(start, roff);
            ck_assert_msg(at && (!end || at < end), "the man page's %s section lacks %s", commands[i], names[k]);
        }
    }
    /* a line that starts with a dot would be a request: every text line is text */
    for (const char *l = man; (l = strstr(l, "\n.")); l++) {
        static const char *const requests[] = {".TH ", ".SH ", ".SS ", ".TP\n", ".B ", ".I ", ".IR ", ".RI ",
                                               ".RB ", ".PP\n", ".br\n", ".\\\""};
        bool known = false;
        for (size_t r = 0; r < sizeof requests / sizeof requests[0]; r++)
            known = known || !strncmp(l + 1, requests[r], strlen(requests[r]));
        ck_assert_msg(known, "an unknown request: %.40s", l + 1);
    }
    if (system("command -v groff >/dev/null 2>&1") == 0) {
        char cmd[600];
        snprintf(cmd, sizeof cmd, "groff -man -ww -z '%s/mmbench.1' 2>'%s/groff.err'", tmpdir, tmpdir);
        ck_assert_int_eq(system(cmd), 0);
        snprintf(cmd, sizeof cmd, "%s/groff.err", tmpdir);
        mmbench_slurp(cmd, err, sizeof err);
        ck_assert_msg(err[0] == '\0', "groff: %s", err);
    }
}
END_TEST

/* What the bash completion offers for the words of a command line (the last one being
 * completed), one per line. */
static char *complete(const char *script, const char *words)
{
    char cmd[4096], path[256];
    snprintf(path, sizeof path, "%s/completed", tmpdir);
    snprintf(cmd, sizeof cmd,
             "cd '%s' && bash -c 'source \"$0\"; COMP_WORDS=(%s); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); "
             "_mmbench; printf \"%%s\\n\" \"${COMPREPLY[@]}\"' '%s' > '%s'",
             tmpdir, words, script, path);
    ck_assert_msg(system(cmd) == 0, "%s", cmd);
    static char text[1 << 16];
    mmbench_slurp(path, text, sizeof text);
    return text;
}

#define ASSERT_OFFERS(words, want)                                                                    \
    do {                                                                                              \
        const char *got_ = complete(bash, words);                                                     \
        ck_assert_msg(strstr(got_, want) != NULL, "completing [%s]: expected %s, got %s", words, want, got_); \
    } while (0)

START_TEST(test_completions_from_the_table)
{
    char bash[256], zsh_path[256], cmd[600];
    snprintf(bash, sizeof bash, "%s/mmbench.bash", tmpdir);
    snprintf(zsh_path, sizeof zsh_path, "%s/_mmbench", tmpdir);
    static char zsh[1 << 17];
    snprintf(zsh, sizeof zsh, "%s", run_to_file("_mmbench", "help", "--completion", "zsh"));
    run_to_file("mmbench.bash", "help", "--completion", "bash");
    snprintf(cmd, sizeof cmd, "bash -n '%s'", bash);
    ck_assert_int_eq(system(cmd), 0);
    ck_assert_msg(!strncmp(zsh, "#compdef mmbench\n", 17), "%.100s", zsh);
    if (system("command -v zsh >/dev/null 2>&1") == 0) {
        snprintf(cmd, sizeof cmd, "zsh -n '%s'", zsh_path);
        ck_assert_int_eq(system(cmd), 0);
    }
    for (size_t i = 0; i < NCOMMANDS; i++) {
        char names[64][40], words[128];
        size_t n = help_options(commands[i], names, 64);
        snprintf(words, sizeof words, "mmbench %s --", commands[i]);
        const char *offered = complete(bash, words);
        char zsh_case[64];
        snprintf(zsh_case, sizeof zsh_case, "\n    %s)\n", commands[i]);
        const char *zstart = strstr(zsh, zsh_case), *zend = zstart ? strstr(zstart, ";;") : NULL;
        ck_assert_msg(zstart && zend, "zsh: no case for %s", commands[i]);
        for (size_t k = 0; k < n; k++) {
            char line[48];
            snprintf(line, sizeof line, "%s\n", names[k]);
            ck_assert_msg(strstr(offered, line), "bash offers no %s for %s: %s", names[k], commands[i], offered);
            const char *z = strstr(zstart, names[k]);
            ck_assert_msg(z && z < zend, "zsh offers no %s for %s", names[k], commands[i]);
        }
    }
    ASSERT_OFFERS("mmbench ex", "export\n");
    ASSERT_OFFERS("mmbench run --format \"\"", "jsonl\n");
    ASSERT_OFFERS("mmbench devices --format j", "json\n");
    ASSERT_OFFERS("mmbench run --fail-on wrong_result,la", "wrong_result,launch_error\n");
    ASSERT_OFFERS("mmbench compare --format \"\"", "md\n");
    ASSERT_OFFERS("mmbench compare --fail-on slower,un", "slower,unsure\n");
    ASSERT_OFFERS("mmbench comp", "compare\n");
    ASSERT_OFFERS("mmbench tune --strategy \"\"", "annealing\n");
    ASSERT_OFFERS("mmbench run --counters \"\"", "best\n");
    ASSERT_OFFERS("mmbench tune --counters n", "none\n");
    ASSERT_OFFERS("mmbench report --cache \"\"", "hot\n");
    ASSERT_OFFERS("mmbench help --completion \"\"", "zsh\n");
    ASSERT_OFFERS("mmbench help \"\"", "columns\n");
    /* profiles: *.ini files and folders, not other files */
    snprintf(cmd, sizeof cmd, "%s/profs", tmpdir);
    ck_assert_int_eq(mkdir(cmd, 0755), 0);
    static const char *const files[] = {"mine.ini", "notes.txt"};
    for (size_t i = 0; i < 2; i++) {
        snprintf(cmd, sizeof cmd, "%s/profs/%s", tmpdir, files[i]);
        FILE *f = fopen(cmd, "w");
        ck_assert_ptr_nonnull(f);
        fclose(f);
    }
    ASSERT_OFFERS("mmbench check profs/", "profs/mine.ini\n");
    ck_assert_ptr_null(strstr(complete(bash, "mmbench check profs/"), "notes.txt"));
    ck_assert_ptr_null(strstr(complete(bash, "mmbench check profs/"), "mine.ini\n\n"));
}
END_TEST

START_TEST(test_format_and_fail_on)
{
    static const char *const sweeps[] = {"run", "tune"};
    for (size_t i = 0; i < 2; i++) {
        ck_assert_int_eq(mmbench(sweeps[i], "--help", NULL), 0);
        ASSERT_OUT("--format FORMAT");
        ASSERT_OUT("jsonl: every row written is also one JSON object on stdout");
        ASSERT_OUT("--fail-on STATUS[,STATUS...]");
        ck_assert_int_eq(mmbench(sweeps[i], "--format", "json", "p.ini", NULL), 2);
        ASSERT_ERR("--format expects text or jsonl, not 'json'");
        ck_assert_int_eq(mmbench(sweeps[i], "--fail-on", "wrong_result,fine", "p.ini", NULL), 2);
        ASSERT_ERR("--fail-on expects statuses of ok, wrong_result, ");
        ASSERT_ERR("not 'wrong_result,fine'");
        ck_assert_int_eq(mmbench(sweeps[i], "--fail-on", "wrong_result,", "p.ini", NULL), 2);
        ASSERT_ERR("(an empty one)");
        ck_assert_int_eq(mmbench(sweeps[i], "--fail-on", "timeout", "--fail-on", "skipped", "p.ini", NULL), 2);
        ASSERT_ERR("--fail-on is given twice");
    }
    ck_assert_int_eq(mmbench("devices", "--format", "jsonl", NULL), 2);
    ASSERT_ERR("mmbench devices: --format expects text or json, not 'jsonl'");
    ck_assert_int_eq(mmbench("export", "--best", "--format", "text", NULL), 2);
    ASSERT_ERR("mmbench export: --format expects json or header, not 'text'");
    ck_assert_int_eq(mmbench("check", "--format", "json", "p.ini", NULL), 2);
    ASSERT_ERR("mmbench check: no such option as '--format'");
    /* compare's --format and --fail-on: rows of the same form, its own words */
    ck_assert_int_eq(mmbench("compare", "--help", NULL), 0);
    ASSERT_OUT("--format FORMAT");
    ASSERT_OUT("--fail-on VERDICT[,VERDICT...]");
    ck_assert_int_eq(mmbench("compare", "--format", "jsonl", "a.csv", "b.csv", NULL), 2);
    ASSERT_ERR("mmbench compare: --format expects text or md, not 'jsonl'");
    ck_assert_int_eq(mmbench("compare", "--fail-on", "slower,wrong_result", "a.csv", "b.csv", NULL), 2);
    ASSERT_ERR("--fail-on expects verdicts of faster, slower, same, unsure, comma-separated, not "
               "'slower,wrong_result'");
    ck_assert_int_eq(mmbench("compare", "--fail-on", "slower,", "a.csv", "b.csv", NULL), 2);
    ASSERT_ERR("(an empty one)");
    /* every new command names itself in its messages */
    static const char *const news[] = {"export", "columns", "help", "compare"};
    for (size_t i = 0; i < 4; i++) {
        char want[64];
        snprintf(want, sizeof want, "mmbench %s: no such option as '--frobnicate'", news[i]);
        ck_assert_int_eq(mmbench(news[i], "--frobnicate", NULL), 2);
        ck_assert_msg(!strncmp(err, want, strlen(want)), "%s", err);
    }
    ck_assert_int_eq(mmbench("columns", "x", NULL), 2);
    ASSERT_ERR("mmbench columns: takes no arguments, not 'x'");
    /* a GPU-less machine: the options are taken, then exit 69 with nothing on stdout */
    char profile[1200], csv[256];
    snprintf(profile, sizeof profile, "%s/profiles/quick.ini", root);
    snprintf(csv, sizeof csv, "%s/q.csv", tmpdir);
    int rc = mmbench("run", "--format", "jsonl", "--fail-on", "wrong_result,launch_error", "-o", csv, profile, NULL);
    if (rc == 69) {
        ck_assert_str_eq(out, "");
        ck_assert_msg(!strncmp(err, "mmbench run: ", 13), "%s", err);
        ck_assert_int_eq(mmbench("devices", "--format", "json", NULL), 69);
        ck_assert_str_eq(out, "");
        ASSERT_ERR("mmbench devices: ");
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("options_text");
    TCase *tc = tcase_create("texts");
    tcase_add_checked_fixture(tc, tmpdir_setup, tmpdir_teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_version_everywhere);
    tcase_add_test(tc, test_help_command);
    tcase_add_test(tc, test_man_page_from_help);
    tcase_add_test(tc, test_completions_from_the_table);
    tcase_add_test(tc, test_format_and_fail_on);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
