/* common.h - what every subcommand shares: its exit codes, its --version, loading a
 * profile with all of its checks, the sweep's settings from the environment (the
 * cubin cache, the L2 flush, the counter batch), and the line a row prints. */
#ifndef MMB_CMD_COMMON_H
#define MMB_CMD_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sysexits.h>

#include "model/profile.h"
#include "results/metrics.h"
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

/* The git commit the program was built from ("b8c7dd6abcde", with "-dirty" when the
 * tree had changes; "unknown" outside a git checkout), written at build time. */
extern const char mmb_cmd_commit[];

/* --version: mmbench's version and commit, and the CUDA runtime, NVRTC, CUPTI and
 * driver it was built with and finds now ("built without CUDA" in a CUDA-free build;
 * "driver: none found" without one). Needs no GPU and starts no CUDA context. */
void mmb_cmd_version_print(FILE *f);

/* Loads path with every check a profile gets before any GPU work ([tune] included),
 * and parses its metric set, once, into metrics. Prints "mmbench COMMAND: FILE:LINE:
 * ..." and returns -1 on bad input; p is freed then. */
int mmb_cmd_load_profile(const char *command, const char *path, struct mmb_profile *p,
                         struct mmb_metric_set *metrics);

/* $MMB_CACHE_DIR, else $XDG_CACHE_HOME/mmbench, else ~/.cache/mmbench. */
void mmb_default_cache_dir(char *out, size_t len);

/* The L2 flush method from MMB_L2_SWEEP (NULL: the default), checked, and
 * MMB_COUNTER_BATCH checked; -1 after a message naming the command on bad input. */
int mmb_cmd_l2_flush_method(const char *command, const char **method);

/* Where a command's summary for people goes: stdout, or, when stdout carries rows for
 * a program (--format jsonl), stderr, every line starting "mmbench COMMAND: " (the
 * text gathers in memory until the summary is closed). */
struct mmb_cmd_summary {
    FILE *f;
    char *text;
    size_t len;
    const char *command;
};
FILE *mmb_cmd_summary_open(struct mmb_cmd_summary *s, const char *command, bool to_stderr);
void mmb_cmd_summary_close(struct mmb_cmd_summary *s);

/* The one-line account of a row on stderr: "mmbench COMMAND: " and the kernel, params,
 * dtype, cache, shape, status, then the time or the reason. clear_progress erases a
 * progress line first. */
void mmb_cmd_print_row(const char *command, const struct mmb_row *row, bool clear_progress);

/* counters or energy = best: a group's fastest row in csv stays the fastest but lacks
 * missing (results/best/best.h's MMB_BEST_COUNTERS, MMB_BEST_ENERGY: an earlier run
 * did not measure them); a warning says so. Nothing when missing is 0. */
void mmb_cmd_best_missing_warn(const char *command, const char *kernel, const struct mmb_size *size,
                               const char *csv, unsigned missing);

#endif
