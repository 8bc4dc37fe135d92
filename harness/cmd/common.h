/* common.h - what every subcommand shares: its exit codes, loading a profile with
 * all of its checks, the environment read once, and the line a row prints. */
#ifndef MMB_CMD_COMMON_H
#define MMB_CMD_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <sysexits.h>

#include "model/profile.h"
#include "results/row.h"

/* Exit codes (README "Exit codes"). */
enum {
    MMB_EXIT_OK = 0,
    MMB_EXIT_FAILED = 1,          /* results could not be written, or a compile failed in check */
    MMB_EXIT_BAD_INPUT = 2,       /* profile, CSV, command line: with file:line and what was expected */
    MMB_EXIT_NO_GPU = EX_UNAVAILABLE,     /* 69 */
    MMB_EXIT_DEVICE_LOST = EX_TEMPFAIL,   /* 75: a worker's sticky GPU error; its supervisor restarts it */
    MMB_EXIT_INTERRUPTED = 130,   /* Ctrl-C: finished rows kept */
};

/* Loads path with every check a profile gets before any GPU work ([tune] included).
 * Prints "mmbench: FILE:LINE: ..." and returns -1 on bad input; p is freed then. */
int mmb_cmd_load_profile(const char *path, struct mmb_profile *p);

/* $MMB_CACHE_DIR, else $XDG_CACHE_HOME/mmbench, else ~/.cache/mmbench. */
void mmb_default_cache_dir(char *out, size_t len);

/* The L2 flush method from MMB_L2_SWEEP (NULL: the default), checked, and
 * MMB_COUNTER_BATCH checked; -1 after a message naming the command on bad input. */
int mmb_cmd_l2_flush_method(const char *command, const char **method);

/* For a command's getopt_long loop, called with each option it returns: an option
 * that takes a value, given a second time, would drop the first silently. Returns -1
 * after "PREFIX: --name is given twice ('a', then 'b'); expected it once", else 0.
 * given[code] keeps each option's value (start all NULL); codes below ncodes. */
struct option;
int mmb_cmd_option_once(const char *prefix, const struct option *longs, int code, const char *value,
                        const char **given, size_t ncodes);
/* Two options that cannot both hold: -1 after "PREFIX: --a and --b contradict each
 * other: why; expected one of them". */
int mmb_cmd_options_contradict(const char *prefix, const char *a, const char *b, const char *why);

/* The one-line account of a row on stderr: kernel, params, dtype, cache, shape,
 * status, then the time or the reason. clear_progress erases a progress line first. */
void mmb_cmd_print_row(const struct mmb_row *row, bool clear_progress);

#endif
