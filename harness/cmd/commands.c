/* commands.c - the table of mmbench's subcommands, `mmbench help` (the texts made from
 * that table and the option table) and the dispatch of a command line to one
 * (mmb_cmd_main), apart from main() so that the tests can run a command line in a forked
 * test process as the program runs it, without loading the program again. */
#include "cmd/commands.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd/check.h"
#include "cmd/common.h"
#include "cmd/compare.h"
#include "cmd/devices.h"
#include "cmd/export.h"
#include "cmd/merge.h"
#include "cmd/options.h"
#include "cmd/options_text.h"
#include "cmd/report.h"

#ifdef MMB_HAVE_CUDA
#include "cmd/run.h"
#include "cmd/tune/tune.h"
#else
/* Without CUDA, run and tune still take their options (--help, bad input is exit 2). */
static int no_cuda(enum mmb_cmd_kind kind, int argc, char **argv)
{
    struct mmb_cmd_settings s;
    int rc = mmb_cmd_options_parse(kind, argc, argv, &s);
    if (rc)
        return rc > 0 ? 0 : MMB_EXIT_BAD_INPUT;
    fprintf(stderr, "mmbench %s: this mmbench was built without the CUDA toolkit; install it and reconfigure "
            "(meson setup --reconfigure build)\n", s.command);
    return MMB_EXIT_NO_GPU;
}
static int mmb_cmd_run(int argc, char **argv) { return no_cuda(MMB_CMD_RUN, argc, argv); }
static int mmb_cmd_tune(int argc, char **argv) { return no_cuda(MMB_CMD_TUNE, argc, argv); }
#endif

static int cmd_help(int argc, char **argv);

static const struct mmb_cmd_entry commands[] = {
    {"run", mmb_cmd_run, "run every configuration of a profile on a GPU, one CSV row each"},
    {"tune", mmb_cmd_tune, "search kernels' parameter spaces on a GPU (strategies, resume, T4 export)"},
    {"check", mmb_cmd_check, "validate profiles (and compile their kernels with --compile) without a GPU"},
    {"merge", mmb_cmd_merge, "merge a profile's shard CSVs into one CSV per GPU, naming the runs missing"},
    {"compare", mmb_cmd_compare, "compare two runs or two GPUs configuration by configuration: FASTER, SLOWER, SAME, UNSURE"},
    {"devices", mmb_cmd_devices, "list the GPUs with their peaks and data folders"},
    {"report", mmb_cmd_report, "draw the plots and write reports/ from CSVs (no GPU needed)"},
    {"export", mmb_cmd_export, "the best configuration per kernel, size and dtype as a C header or JSON"},
    {"columns", mmb_cmd_columns, "the results' column table as JSON (names, types, units, roles)"},
    {"help", cmd_help, "this list, a command's help, the manual page or the shell completions"},
    {NULL, NULL, NULL},
};

/* `mmbench help [COMMAND]`, `--man`, `--completion SHELL`. */
static int cmd_help(int argc, char **argv)
{
    struct mmb_cmd_settings s;
    int rc = mmb_cmd_options_parse(MMB_CMD_HELP, argc, argv, &s);
    if (rc)
        return rc > 0 ? 0 : MMB_EXIT_BAD_INPUT;
    if (s.nargs && (s.man || s.completion)) {
        fprintf(stderr, "mmbench help: --%s prints the whole %s, not one command's ('%s'); expected one of them\n",
                s.man ? "man" : "completion", s.man ? "manual page" : "completion script", s.args[0]);
        return MMB_EXIT_BAD_INPUT;
    }
    if (s.man) {
        mmb_cmd_text_man(stdout, commands);
    } else if (s.completion) {
        mmb_cmd_text_completion(stdout, s.completion, commands, MMB_DATADIR "/profiles");
    } else if (s.nargs) {
        for (const struct mmb_cmd_entry *c = commands; c->name; c++)
            if (strcmp(c->name, s.args[0]) == 0 && c->fn != cmd_help) {
                char *help_argv[] = {(char *)c->name, "--help", NULL};
                return c->fn(2, help_argv);
            }
        if (strcmp(s.args[0], "help") == 0)
            return cmd_help(2, (char *[]){"help", "--help", NULL});
        fprintf(stderr, "mmbench help: '%s' is not a command; 'mmbench help' lists them\n", s.args[0]);
        return MMB_EXIT_BAD_INPUT;
    } else {
        mmb_cmd_text_commands(stdout, commands);
    }
    return fflush(stdout) == 0 ? 0 : MMB_EXIT_FAILED;
}

int mmb_cmd_main(int argc, char **argv)
{
    if (argc < 2) {
        mmb_cmd_text_commands(stderr, commands);
        fprintf(stderr, "mmbench: expected a command\n");
        return MMB_EXIT_BAD_INPUT;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        mmb_cmd_text_commands(stdout, commands);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        mmb_cmd_version_print(stdout);
        return 0;
    }
    for (const struct mmb_cmd_entry *c = commands; c->name; c++)
        if (strcmp(c->name, argv[1]) == 0) {
            optind = 1;
            return c->fn(argc - 1, argv + 1);
        }
    fprintf(stderr, "mmbench: '%s' is not a command; 'mmbench help' lists them\n", argv[1]);
    return MMB_EXIT_BAD_INPUT;
}
