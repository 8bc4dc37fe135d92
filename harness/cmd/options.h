/* options.h - the options of `run` and `tune`, declared once in one table (name,
 * argument, type, range, default, help, which commands take it) that parses the
 * command line and prints --help. Numbers are parsed whole and range-checked:
 * nothing wraps, nothing empty becomes 0. */
#ifndef MMB_CMD_OPTIONS_H
#define MMB_CMD_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/util.h"
#include "results/shard.h"
#include "search/tune_plan.h"

enum mmb_cmd_kind {
    MMB_CMD_RUN = 1,
    MMB_CMD_TUNE = 2,
};

/* Rows of the option table at most. */
#define MMB_CMD_OPTIONS_MAX 128

/* Everything `run` and `tune` take from the command line. */
struct mmb_cmd_settings {
    const char *command;      /* "run" or "tune", for messages */
    const char *profile;      /* the one positional argument */
    int device;               /* --device */
    bool all_devices;         /* --devices all */
    const char *output, *data_dir, *cache_dir;
    bool no_cache, no_counters, verbose, record_restricted;
    struct mmb_timing_request timing; /* --repeats, --noise, --min-samples, --max-seconds; 0: the profile's */
    int warmup;               /* -1: the profile's */
    double timeout;           /* seconds per configuration; 0: the profile's */
    struct mmb_shard shard;   /* --shard K/N; n == 0: all */
    struct mmb_tune_options tune; /* tune's own, and the shared ones copied in */
    char default_cache[MMB_PATH_MAX];
    bool given[MMB_CMD_OPTIONS_MAX]; /* [i]: the table's option i is on the command line */
};

/* Fills s from argv for the command kind (MMB_CMD_RUN or MMB_CMD_TUNE). Returns 0, 1
 * after printing --help to stdout, or -1 after a message on stderr (bad input). */
int mmb_cmd_options_parse(enum mmb_cmd_kind kind, int argc, char **argv, struct mmb_cmd_settings *s);

/* Parses a whole decimal integer in [lo, hi]; -1 on anything else (empty, trailing
 * text, out of range). For every number a command takes. */
int mmb_cmd_parse_int(const char *text, long long lo, long long hi, long long *out);

#endif
