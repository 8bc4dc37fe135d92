/* report.c - `mmbench report`: its command line, parsed into the options of
 * the report (report/report.h), which does the work. */
#include "cmd/report.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cache.h"
#include "core/dtype.h"
#include "core/util.h"
#include "report/report.h"

#define EXIT_BAD_INPUT MMB_REPORT_BAD_INPUT

static void usage(FILE *f)
{
    char formats[64];
    mmb_report_format_names(formats, sizeof formats, ",", ",");
    fprintf(f,
          "usage: mmbench report [options] [CSV or folder ...]\n"
          "\n"
          "Reads mmbench CSVs (default: every *.csv under <root>/data, recursively), writes\n"
          "gnuplot data and scripts, draws the figures with gnuplot, and writes README.md and\n"
          "tables.tex. <root> is $MMB_SOURCE_ROOT, else the current folder. No GPU needed.\n"
          "\n"
          "  -o, --output DIR     output folder (default <root>/reports)\n"
          "  -p, --profile NAME   the profile whose rows make the findings, figures and\n"
          "                       tables (default course when present, else the profile\n"
          "                       with the most ok rows); the others get their own sections\n"
          "  -s, --size SIZE      size of the bars, tables and heatmaps: N or MxNxK\n"
          "                       (default 4096 when present, else the best covered size)\n"
          "  -f, --formats LIST   figure formats, comma-separated: %s (default all)\n"
          "  -t, --dtype TYPE     element type to show: f32, f64, i32, f16, bf16, tf32, e4m3, i8 (default f32)\n"
          "  -c, --cache MODE     cold or hot rows (default cold when present)\n"
          "  -g, --gnuplot PROG   gnuplot program (default: gnuplot on PATH)\n"
          "  -n, --no-plots       write the scripts, do not run gnuplot\n"
          "  -q, --quiet          no summary line\n"
          "  -h, --help           this text\n",
          formats);
}

/* ---- options ------------------------------------------------------------------------- */

static int formats_parse(struct mmb_report_options *opt, const char *list)
{
    opt->nformats = 0;
    const char *p = list;
    while (*p) {
        size_t n = strcspn(p, ",");
        enum mmb_report_format fmt;
        if (!mmb_report_format_parse(p, n, &fmt)) {
            char names[64];
            mmb_report_format_names(names, sizeof names, ", ", " or ");
            fprintf(stderr, "report: --formats: expected %s, found '%.*s'\n", names, (int)n, p);
            return -1;
        }
        bool dup = false;
        for (size_t i = 0; i < opt->nformats; i++)
            dup = dup || opt->formats[i] == fmt;
        if (!dup)
            opt->formats[opt->nformats++] = fmt;
        p += n + (p[n] == ',');
    }
    if (opt->nformats == 0) {
        char names[64];
        mmb_report_format_names(names, sizeof names, ", ", ", ");
        fprintf(stderr, "report: --formats: expected at least one of %s\n", names);
        return -1;
    }
    return 0;
}

static void command_record(char *command, size_t len, int argc, char **argv)
{
    size_t o = (size_t)snprintf(command, len, "mmbench report");
    for (int i = 1; i < argc && o < len; i++) {
        bool quote = strpbrk(argv[i], " \t'\"$\\") != NULL;
        int w = snprintf(command + o, len - o, quote ? " '%s'" : " %s", argv[i]);
        o += w > 0 ? (size_t)w : 0;
    }
}

struct cli {
    struct mmb_report_options opt;
    char root[4096], out[4096], command[2048];
    const char *size;
};

static int options_parse(struct cli *cli, int argc, char **argv)
{
    static const struct option longs[] = {
        {"output", required_argument, NULL, 'o'}, {"size", required_argument, NULL, 's'},
        {"profile", required_argument, NULL, 'p'},
        {"formats", required_argument, NULL, 'f'}, {"dtype", required_argument, NULL, 't'},
        {"cache", required_argument, NULL, 'c'},  {"gnuplot", required_argument, NULL, 'g'},
        {"no-plots", no_argument, NULL, 'n'},     {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0},
    };
    /* glibc: 0 re-initialises getopt, so that the command can run more than once
     * in one process (the tests do) */
    optind = 0;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":o:p:s:f:t:c:g:nqh", longs, NULL)) != -1) {
        switch (c) {
        case 'o':
            cli->opt.out = optarg;
            break;
        case 'p':
            cli->opt.profile = optarg;
            break;
        case 's':
            cli->size = optarg;
            break;
        case 'f':
            if (formats_parse(&cli->opt, optarg) != 0)
                return EXIT_BAD_INPUT;
            break;
        case 't': {
            enum mmb_dtype t;
            if (!mmb_dtype_parse(optarg, &t)) {
                char names[96] = "";
                for (const struct mmb_dtype_info *d = mmb_dtype_table; d->text; d++)
                    mmb_join_append(names, sizeof names, ", ", d->text);
                fprintf(stderr, "report: --dtype: expected %s, found '%s'\n", names, optarg);
                return EXIT_BAD_INPUT;
            }
            cli->opt.dtype = optarg;
            break;
        }
        case 'c': {
            enum mmb_cache_mode mode;
            if (!mmb_cache_parse(optarg, &mode)) {
                fprintf(stderr, "report: --cache: expected cold or hot, found '%s'\n", optarg);
                return EXIT_BAD_INPUT;
            }
            cli->opt.cache = optarg;
            break;
        }
        case 'g':
            cli->opt.gnuplot = optarg;
            break;
        case 'n':
            cli->opt.no_plots = true;
            break;
        case 'q':
            cli->opt.quiet = true;
            break;
        case 'h':
            usage(stdout);
            return 0;
        case ':':
            fprintf(stderr, "report: option '%s' expects a value\n", argv[optind - 1]);
            return EXIT_BAD_INPUT;
        default:
            fprintf(stderr, "report: unknown option '%s'\n", argv[optind - 1]);
            usage(stderr);
            return EXIT_BAD_INPUT;
        }
    }
    return -1; /* go on */
}

/* ---- the command ---------------------------------------------------------------------- */

int mmb_report_main(int argc, char **argv)
{
    struct cli cli = {0};
    const char *root = getenv("MMB_SOURCE_ROOT");
    snprintf(cli.root, sizeof cli.root, "%s", root && root[0] ? root : ".");
    if ((size_t)snprintf(cli.out, sizeof cli.out, "%s/reports", cli.root) >= sizeof cli.out) {
        fprintf(stderr, "report: MMB_SOURCE_ROOT is too long a path\n");
        return EXIT_BAD_INPUT;
    }
    if (strcmp(cli.root, ".") == 0)
        snprintf(cli.out, sizeof cli.out, "reports");
    cli.opt.root = cli.root;
    cli.opt.out = cli.out;
    for (const struct mmb_report_format_info *fi = mmb_report_format_table; fi->name; fi++)
        cli.opt.formats[cli.opt.nformats++] = fi->value;
    command_record(cli.command, sizeof cli.command, argc, argv);
    cli.opt.command = cli.command;

    int status = options_parse(&cli, argc, argv);
    if (status >= 0)
        return status;
    struct mmb_report_shape size;
    if (cli.size && !mmb_report_shape_parse(cli.size, &size)) {
        fprintf(stderr, "report: --size: expected N or MxNxK (positive integers), found '%s'\n", cli.size);
        return EXIT_BAD_INPUT;
    }
    cli.opt.size = cli.size ? &size : NULL;
    cli.opt.inputs = argv + optind;
    cli.opt.ninputs = (size_t)(argc - optind);
    return mmb_report_write(&cli.opt);
}
