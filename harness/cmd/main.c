/* main.c - the mmbench program: one table of subcommands, each in its own file. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd/check.h"
#include "cmd/common.h"
#include "cmd/compare.h"
#include "cmd/devices.h"
#include "cmd/merge.h"
#include "cmd/report.h"

#ifdef MMB_HAVE_CUDA
#include "cmd/run.h"
#include "cmd/tune.h"
#else
#include "cmd/options.h"

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

struct command {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;
};

static int cmd_help(int argc, char **argv);

static const struct command commands[] = {
    {"run", mmb_cmd_run, "run every configuration of a profile on a GPU, one CSV row each"},
    {"tune", mmb_cmd_tune, "search kernels' parameter spaces on a GPU (strategies, resume, T4 export)"},
    {"check", mmb_cmd_check, "validate profiles (and compile their kernels with --compile) without a GPU"},
    {"merge", mmb_cmd_merge, "merge a profile's shard CSVs into one CSV per GPU, naming the runs missing"},
    {"compare", mmb_cmd_compare, "compare two runs or two GPUs configuration by configuration: FASTER, SLOWER, SAME, UNSURE"},
    {"devices", mmb_cmd_devices, "list the GPUs with their peaks and data folders"},
    {"report", mmb_cmd_report, "draw the plots and write reports/ from CSVs (no GPU needed)"},
    {"help", cmd_help, "this list"},
    {NULL, NULL, NULL},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: mmbench COMMAND [OPTIONS] [ARGS]\n\ncommands:\n");
    for (const struct command *c = commands; c->name; c++)
        fprintf(f, "  %-8s %s\n", c->name, c->summary);
    fprintf(f, "\n'mmbench COMMAND --help' for a command's options; 'mmbench --version'.\n");
}

static int cmd_help(int argc, char **argv)
{
    usage(stdout);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        fprintf(stderr, "mmbench: expected a command\n");
        return MMB_EXIT_BAD_INPUT;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
        return cmd_help(0, NULL);
    if (strcmp(argv[1], "--version") == 0) {
        printf("mmbench %s\n", MMB_VERSION);
        return 0;
    }
    for (const struct command *c = commands; c->name; c++)
        if (strcmp(c->name, argv[1]) == 0) {
            optind = 1;
            return c->fn(argc - 1, argv + 1);
        }
    fprintf(stderr, "mmbench: '%s' is not a command; 'mmbench help' lists them\n", argv[1]);
    return MMB_EXIT_BAD_INPUT;
}
