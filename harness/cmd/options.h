/* options.h - the options of every command, declared once in one table (name,
 * argument, type, range, default, help, which commands take it) that parses the
 * command line and gives --help, the man page and the shell completions their text
 * (options_text.c), beside one table of the commands themselves (what they take as
 * arguments, what they do, their exit statuses). Numbers are parsed whole and
 * range-checked: nothing wraps, nothing empty becomes 0. */
#ifndef MMB_CMD_OPTIONS_H
#define MMB_CMD_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/counters.h"
#include "model/profile_energy.h"
#include "report/input/shape.h"
#include "report/report.h"
#include "results/shard.h"
#include "search/tune_plan.h"

enum mmb_cmd_kind {
    MMB_CMD_RUN = 1,
    MMB_CMD_TUNE = 2,
    MMB_CMD_CHECK = 4,
    MMB_CMD_MERGE = 8,
    MMB_CMD_REPORT = 16,
    MMB_CMD_DEVICES = 32,
    MMB_CMD_EXPORT = 64,
    MMB_CMD_COLUMNS = 128,
    MMB_CMD_HELP = 256,
    MMB_CMD_COMPARE = 512,
};

/* What a command prints on stdout (--format): its text for people, one JSON object
 * per result row (run, tune), one JSON document (devices, export), a C header
 * (export), or Markdown (compare). */
enum mmb_cmd_format {
    MMB_FORMAT_TEXT,
    MMB_FORMAT_JSONL,
    MMB_FORMAT_JSON,
    MMB_FORMAT_HEADER,
    MMB_FORMAT_MD,
    MMB_FORMAT_COUNT
};

/* Rows of the option table at most. */
#define MMB_CMD_OPTIONS_MAX 128

/* Everything a command takes from the command line. */
struct mmb_cmd_settings {
    const char *command;      /* "run", "tune", ...: for messages */
    double started;           /* mmb_seconds_now() when the command began: the phases' start */
    char **args;              /* the positional arguments (profiles; report: CSVs and folders) */
    size_t nargs;
    const char *profile;      /* run, tune, merge: the one positional argument */
    /* run and tune (data_dir: merge too) */
    int device;               /* --device */
    bool all_devices;         /* --devices all */
    const char *output, *data_dir, *cache_dir;
    bool no_cache, no_counters, no_energy, verbose, record_restricted, keep_stale;
    const char *lock_clocks;  /* --lock-clocks, as given */
    struct mmb_clock_lock lock; /* it parsed; kind MMB_CLOCKS_AS_FOUND without it */
    enum mmb_counters counters; /* --counters (--no-counters: none); read when counters_set */
    bool counters_set;
    enum mmb_energy_mode energy; /* --energy (--no-energy: off); read when energy_set */
    bool energy_set;
    struct mmb_timing_request timing; /* --repeats, --noise, --min-samples, --max-seconds; 0: the profile's */
    int warmup;               /* -1: the profile's */
    double timeout;           /* seconds per configuration; 0: the profile's */
    struct mmb_shard shard;   /* --shard K/N (check too); n == 0: all */
    int jobs;                 /* tune: NVRTC threads compiling ahead; 0: none */
    const char *t4;           /* tune: --t4 FILE */
    bool no_t4;               /* tune: --no-t4 */
    struct mmb_tune_options tune; /* what tune asks of the search, the shared ones copied in */
    char default_cache[MMB_PATH_MAX];
    /* check */
    int arch;                 /* --compile sm_XY as XY; 0: compile nothing */
    bool list;                /* --list: the runs */
    bool print_command;       /* --command: only the command that measures each profile */
    /* merge */
    bool tune_files;          /* --tune: tune's shard files */
    /* compare (--format and --fail-on below) */
    const char *gpus;         /* --gpus A (B is the argument), or A,B */
    double threshold;         /* --threshold: SAME within it (default MMB_VERDICT_THRESHOLD) */
    bool any_protocol;        /* --any-protocol */
    const char *only;         /* --profile NAME: only NAME.csv of each folder */
    /* report: its options, output folder, root and command line filled in */
    struct mmb_report_options report;
    struct mmb_report_shape report_size; /* --size, when report.size points here */
    bool quiet;               /* report: no summary line */
    /* run, tune, devices, export, compare */
    enum mmb_cmd_format format; /* --format */
    /* --fail-on, one bit per word: run, tune: (1u << status) per status; compare:
     * (1u << verdict) per verdict */
    unsigned fail_on;
    /* export */
    struct {
        bool best;            /* --best */
        const char *output, *profile, *gpu, *kernels;
    } export;
    /* help */
    bool man;                 /* --man */
    const char *completion;   /* --completion SHELL */
    bool given[MMB_CMD_OPTIONS_MAX]; /* [i]: the table's option i is on the command line */
};

/* Fills s from argv (argv[0] is the command's name) for the command kind. Returns 0,
 * 1 after printing --help or --version to stdout, or -1 after a message on stderr
 * (bad input). */
int mmb_cmd_options_parse(enum mmb_cmd_kind kind, int argc, char **argv, struct mmb_cmd_settings *s);

/* The name of a --format value ("jsonl"). */
const char *mmb_cmd_format_text(enum mmb_cmd_format format);

/* Parses a whole decimal integer in [lo, hi]; -1 on anything else (empty, trailing
 * text, out of range). For every number a command takes. */
int mmb_cmd_parse_int(const char *text, long long lo, long long hi, long long *out);

#endif
