/* report.c - `mmbench report`: its command line (cmd/options.c) made into the options
 * of the report (report/report.h), which does the work; this file says what came of
 * it and chooses the exit status. */
#include "cmd/report.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/common.h"
#include "cmd/options.h"
#include "report/input/formats.h"
#include "report/report.h"

/* The command line as the README shows it: "mmbench report -o out". */
static void command_record(char *command, size_t len, int argc, char **argv)
{
    size_t o = (size_t)snprintf(command, len, "mmbench report");
    for (int i = 1; i < argc && o < len; i++) {
        bool quote = strpbrk(argv[i], " \t'\"$\\") != NULL;
        int w = snprintf(command + o, len - o, quote ? " '%s'" : " %s", argv[i]);
        o += w > 0 ? (size_t)w : 0;
    }
}

int mmb_cmd_report(int argc, char **argv)
{
    struct mmb_cmd_settings s;
    int rc = mmb_cmd_options_parse(MMB_CMD_REPORT, argc, argv, &s);
    if (rc)
        return rc > 0 ? 0 : MMB_EXIT_BAD_INPUT;
    struct mmb_report_options *opt = &s.report;
    const char *env = getenv("MMB_SOURCE_ROOT");
    char root[4096], out[4096], command[2048];
    snprintf(root, sizeof root, "%s", env && env[0] ? env : ".");
    if ((size_t)snprintf(out, sizeof out, "%s/reports", root) >= sizeof out) {
        fprintf(stderr, "mmbench report: MMB_SOURCE_ROOT is too long a path\n");
        return MMB_EXIT_BAD_INPUT;
    }
    if (strcmp(root, ".") == 0)
        snprintf(out, sizeof out, "reports");
    opt->root = root;
    if (!opt->out)
        opt->out = out;
    if (!opt->nformats)
        for (const struct mmb_report_format_info *fi = mmb_report_format_table; fi->name; fi++)
            opt->formats[opt->nformats++] = fi->value;
    command_record(command, sizeof command, argc, argv);
    opt->command = command;
    opt->inputs = s.args;
    opt->ninputs = s.nargs;

    struct mmb_report_result res;
    char err[4608];
    rc = mmb_report_write(opt, &res, err, sizeof err);
    if (res.warning[0])
        fprintf(stderr, "mmbench report: %s\n", res.warning);
    if (rc != 0)
        fprintf(stderr, "mmbench report: %s\n", err);
    if (rc != 0 && !res.written)
        return res.bad_input ? MMB_EXIT_BAD_INPUT : MMB_EXIT_FAILED;
    if (!s.quiet)
        fprintf(stderr, "mmbench report: %zu row%s of %zu GPU%s from %zu CSV file%s -> %s/README.md, %zu of %zu figures "
                "drawn (%.1f s)\n", res.rows, res.rows == 1 ? "" : "s", res.gpus, res.gpus == 1 ? "" : "s", res.files,
                res.files == 1 ? "" : "s", opt->out, res.drawn, res.figures, res.seconds);
    return rc == 0 ? MMB_EXIT_OK : MMB_EXIT_FAILED;
}
