/* options.c - the one table of every command's options: each row parses its value
 * into mmb_cmd_settings, states its range and default, and gives its --help line (and
 * so the man page's and the completions', options_text.c), so that a shared option is
 * declared once and every option is documented; the options that contradict each
 * other (a valued option given twice is refused too); and the table of the commands:
 * their arguments, what they do, their exit statuses. */
#include "cmd/options.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/common.h"
#include "cmd/options_impl.h"
#include "core/array.h"
#include "core/clock.h"
#include "core/cache.h"
#include "core/converge.h"
#include "core/counters.h"
#include "core/dtype.h"
#include "core/status.h"
#include "core/verdict.h"
#include "report/input/formats.h"
#include "search/strategy.h"

#define S(field) offsetof(struct mmb_cmd_settings, field)
#define BOTH (MMB_CMD_RUN | MMB_CMD_TUNE)
#define ALL (MMB_CMD_RUN | MMB_CMD_TUNE | MMB_CMD_CHECK | MMB_CMD_MERGE | MMB_CMD_REPORT | MMB_CMD_DEVICES | \
             MMB_CMD_EXPORT | MMB_CMD_COLUMNS | MMB_CMD_HELP | MMB_CMD_COMPARE)
#define FORMATS(a, b) ((1LL << MMB_FORMAT_##a) | (1LL << MMB_FORMAT_##b))

static const struct opt_def opts[] = {
    {"device", 0, OPT_INT, S(device), 0, 0, 1023, BOTH, "N", "GPU number, as `mmbench devices` lists them (default 0)"},
    {"devices", 0, OPT_ALL, S(all_devices), 0, 0, 0, BOTH, "all",
     "every GPU at once, a worker process each (run: each sweeps all; tune: GPUs of a model split the space)"},
    {"shard", 0, OPT_SHARD, S(shard), 0, 0, 0, BOTH, "K/N",
     "only shard K of N of the runs (docs/profiles.md), into <CSV stem>.shard-K-of-N.csv (default: all)"},
    {"output", 'o', OPT_TEXT, S(output), 0, 0, 0, BOTH, "CSV",
     "results file (default DATA/<gpu>/<profile>.csv; tune: DATA/<gpu>/tune-<profile>.csv)"},
    {"data-dir", 0, OPT_TEXT, S(data_dir), 0, 0, 0, BOTH | MMB_CMD_MERGE | MMB_CMD_COMPARE, "DATA",
     "folder of the per-GPU results (default data)"},
    {"cache-dir", 0, OPT_TEXT, S(cache_dir), 0, 0, 0, BOTH, "DIR",
     "cubin cache (default $MMB_CACHE_DIR, else ~/.cache/mmbench)"},
    {"no-cache", 0, OPT_FLAG, S(no_cache), 0, 0, 0, BOTH, NULL, "compile every configuration, keep no cubins"},
    {"counters", 0, OPT_COUNTERS, S(counters), S(counters_set), 0, 0, BOTH, "MODE",
     "which rows get CUPTI counters: best (each kernel's fastest configuration per size and dtype, and cuBLAS), "
     "all or none (default: the profile's counters, else best for run and all for tune)"},
    {"no-counters", 0, OPT_FLAG, S(no_counters), 0, 0, 0, BOTH, NULL, "time only: the same as --counters none"},
    {"lock-clocks", 0, OPT_TEXT, S(lock_clocks), 0, 0, 0, BOTH, "base|max|MHZ",
     "lock the SM clocks of the GPUs used (NVML, needs root) to the base (TDP) clock, the highest, or MHZ, and "
     "unlock them when the run ends, also after Ctrl-C or a worker's crash; exit 2 where NVML refuses "
     "(docs/energy.md; default: the clocks as found)"},
    {"energy", 0, OPT_ENERGY, S(energy), S(energy_set), 0, 0, BOTH, "MODE",
     "which rows get the energy window (power_w, energy_j, gflops_per_watt): best (each kernel's fastest "
     "configuration per size and dtype, and cuBLAS, after the timing), all or off; clocks and throttle are read for "
     "every row (docs/energy.md; default: the profile's energy, else off; tune with an energy objective: all)"},
    {"no-energy", 0, OPT_FLAG, S(no_energy), 0, 0, 0, BOTH, NULL, "no energy window: the same as --energy off"},
    {"repeats", 0, OPT_INT, S(timing.repeats), 0, 1, 1000000, BOTH, "N",
     "timed launches, a fixed count, over the profile's repeats or noise (default: the profile's)"},
    {"noise", 0, OPT_NOISE, S(timing.noise), 0, 0, 0, BOTH, "X",
     "time until the median is this precise, such as 0.5% or 0.005: the half-width of its 95% interval "
     "(default: the profile's noise, else a fixed count)"},
    {"min-samples", 0, OPT_INT, S(timing.min_samples), 0, MMB_CONVERGE_MIN_SAMPLES, MMB_CONVERGE_MAX_SAMPLES, BOTH,
     "N", "with a noise target, timed launches at least (default: the profile's, else 10)"},
    {"max-seconds", 0, OPT_SECONDS, S(timing.max_seconds), 0, 0, 0, BOTH, "SECONDS",
     "with a noise target, timed launching per configuration at most, once the least count is taken "
     "(default: the profile's, else 1)"},
    {"warmup", 0, OPT_INT, S(warmup), 0, 0, 1000000, BOTH, "N", "untimed launches first (default: the profile's)"},
    {"timeout", 0, OPT_SECONDS, S(timeout), 0, 0, 0, BOTH, "SECONDS",
     "limit per configuration, then a `timeout` row (default: the profile's, else 120)"},
    {"record-restricted", 0, OPT_FLAG, S(record_restricted), 0, 0, 0, BOTH, NULL,
     "write rows with status restricted too"},
    {"keep-stale", 0, OPT_FLAG, S(keep_stale), 0, 0, 0, BOTH, NULL,
     "take the rows already in the CSV as done even where they were measured otherwise (another kernel source "
     "or included file, compile options, protocol, or none recorded); default: measure those again"},
    {"kernel", 0, OPT_TEXT, S(tune.kernels), 0, 0, 0, MMB_CMD_TUNE, "NAME[,NAME...]",
     "kernels to tune (default: [tune] kernels, else every source kernel)"},
    {"size", 0, OPT_TEXT, S(tune.sizes), 0, 0, 0, MMB_CMD_TUNE, "SIZES",
     "sizes to tune at, as the profile writes them (default: [tune] sizes, else the profile's)"},
    {"strategy", 0, OPT_TEXT, S(tune.strategy), 0, 0, 0, MMB_CMD_TUNE, "S", "search strategy (default brute_force)"},
    {"objective", 0, OPT_TEXT, S(tune.objective), 0, 0, 0, MMB_CMD_TUNE, "O",
     "time, energy (energy_j), gflops, gflops_per_watt or another numeric column, with :min or :max; or two "
     "joined by a comma, such as time,energy, for the Pareto front (docs/energy.md; default time)"},
    {"max-fevals", 0, OPT_LLONG, S(tune.max_fevals), 0, 1, LLONG_MAX, MMB_CMD_TUNE, "N",
     "configurations measured at most per kernel and problem (default: no limit)"},
    {"time-limit", 0, OPT_SECONDS, S(tune.time_limit), 0, 0, 0, MMB_CMD_TUNE, "SECONDS",
     "wall time per kernel and problem (default: none)"},
    {"seed", 0, OPT_U64, S(tune.seed), S(tune.seed_set), 0, 0, MMB_CMD_TUNE, "S",
     "seed of random strategies, unsigned 64-bit (default: [tune] seed, else 0)"},
    {"jobs", 0, OPT_INT, S(jobs), 0, 0, 1024, BOTH | MMB_CMD_CHECK, "N",
     "NVRTC threads: compiling ahead of the GPU into the cubin cache (run, tune; 0 none), compiling (check "
     "--compile; 0 is 1) (default: one per CPU)"},
    {"t4", 0, OPT_TEXT, S(t4), 0, 0, 0, MMB_CMD_TUNE, "FILE",
     "Kernel Tuner T4 file, for a tune of one kernel x size x dtype (default: one beside the CSV each)"},
    {"no-t4", 0, OPT_FLAG, S(no_t4), 0, 0, 0, MMB_CMD_TUNE, NULL, "write no T4 files"},
    {"verbose", 'v', OPT_FLAG, S(verbose), 0, 0, 0, BOTH, NULL, "one line per row, and the counter passes"},
    {"format", 0, OPT_FORMAT, S(format), 0, FORMATS(TEXT, JSONL), 0, BOTH, "FORMAT",
     "text, or jsonl: every row written is also one JSON object on stdout, with the CSV's columns and their types "
     "(mmbench columns), and the summary goes to stderr (default text)"},
    {"fail-on", 0, OPT_STATUSES, S(fail_on), 0, 0, 0, BOTH, "STATUS[,STATUS...]",
     "exit 1 when a row of the sweep (written now, or before and resumed) has one of these statuses, such as "
     "wrong_result,launch_error: for CI (default: a failed configuration is a row, and the exit status 0)"},
    /* check */
    {"compile", 0, OPT_ARCH, S(arch), 0, 0, 0, MMB_CMD_CHECK, "sm_XY",
     "also compile every allowed configuration with NVRTC for that architecture as its device would: "
     "sm_XYa for a kernel whose target lists it, nothing for a kernel of other targets (sm_90a names the same "
     "device as sm_90; needs the CUDA toolkit, not a GPU; default: compile nothing)"},
    {"shard", 0, OPT_SHARD, S(shard), 0, 0, 0, MMB_CMD_CHECK, "K/N",
     "count (and compile) only shard K of N of the runs, as `run --shard K/N` takes them (default: all)"},
    {"list", 0, OPT_FLAG, S(list), 0, 0, 0, MMB_CMD_CHECK, NULL,
     "print the runs, one line each: run KERNEL PARAMS DTYPE MxNxK"},
    {"command", 0, OPT_FLAG, S(print_command), 0, 0, 0, MMB_CMD_CHECK, NULL,
     "print only the command that measures each profile: tune for a tuning profile (its name starts with tune), "
     "else run"},
    /* merge */
    {"tune", 0, OPT_FLAG, S(tune_files), 0, 0, 0, MMB_CMD_MERGE, NULL,
     "merge tune's files (tune-<name>.shard-K-of-N.csv); a tune's runs depend on its strategy, so none is "
     "reported missing"},
    /* compare */
    {"gpus", 0, OPT_TEXT, S(gpus), 0, 0, 0, MMB_CMD_COMPARE, "A B",
     "compare the GPU folders DATA/A (old) and DATA/B (new) instead of two CSVs or folders (also --gpus A,B)"},
    {"threshold", 0, OPT_NOISE, S(threshold), 0, 0, 0, MMB_CMD_COMPARE, "X",
     "SAME only where the ratio's 95% interval lies within 1 +- X, such as 2% or 0.02 (default 2%)"},
    {"format", 0, OPT_FORMAT, S(format), 0, FORMATS(TEXT, MD), 0, MMB_CMD_COMPARE, "FORMAT",
     "text, or md: the same table in Markdown (default text)"},
    {"fail-on", 0, OPT_VERDICTS, S(fail_on), 0, 0, 0, MMB_CMD_COMPARE, "VERDICT[,VERDICT...]",
     "exit 1 when a configuration compared gets one of these verdicts, such as slower,unsure: for CI (default: "
     "the verdicts are printed, and the exit status 0)"},
    {"any-protocol", 0, OPT_FLAG, S(any_protocol), 0, 0, 0, MMB_CMD_COMPARE, NULL,
     "also compare rows timed under different protocols (said in each row's notes); default: leave them out"},
    {"profile", 'p', OPT_TEXT, S(only), 0, 0, 0, MMB_CMD_COMPARE, "NAME",
     "with folders, only the results of profile NAME (NAME.csv of each; tune: tune-NAME.csv) (default: every CSV "
     "both folders have)"},
    /* report */
    {"output", 'o', OPT_TEXT, S(report.out), 0, 0, 0, MMB_CMD_REPORT, "DIR", "output folder (default <root>/reports)"},
    {"profile", 'p', OPT_TEXT, S(report.profile), 0, 0, 0, MMB_CMD_REPORT, "NAME",
     "the profile whose rows make the findings, figures and tables (default course when present, else the "
     "profile with the most ok rows); the others get their own sections"},
    {"size", 's', OPT_SHAPE, S(report_size), 0, 0, 0, MMB_CMD_REPORT, "SIZE",
     "size of the bars, tables and heatmaps: N or MxNxK (default 4096 when present, else the best covered size)"},
    {"formats", 'f', OPT_FORMATS, S(report), 0, 0, 0, MMB_CMD_REPORT, "LIST",
     "figure formats, comma-separated (default all, below)"},
    {"preset", 0, OPT_PRESET, S(report.preset), 0, 0, 0, MMB_CMD_REPORT, "NAME",
     "figure sizes: screen (each figure's own canvas), slides (1920 x 1080, no text under 9.5 pt in the 6 in PDF) "
     "or print (6.5 in wide, no text under 8 pt) (default screen)"},
    {"dtype", 't', OPT_DTYPE, S(report.dtype), 0, 0, 0, MMB_CMD_REPORT, "TYPE",
     "element type to show (default f32)"},
    {"cache", 'c', OPT_CACHE, S(report.cache), 0, 0, 0, MMB_CMD_REPORT, "MODE",
     "cold or hot rows (default cold when present)"},
    {"gnuplot", 'g', OPT_TEXT, S(report.gnuplot), 0, 0, 0, MMB_CMD_REPORT, "PROG",
     "gnuplot program (default: gnuplot on PATH)"},
    {"no-plots", 'n', OPT_FLAG, S(report.no_plots), 0, 0, 0, MMB_CMD_REPORT, NULL,
     "write the scripts, do not run gnuplot"},
    {"quiet", 'q', OPT_FLAG, S(quiet), 0, 0, 0, MMB_CMD_REPORT, NULL, "no summary line"},
    /* devices */
    {"format", 0, OPT_FORMAT, S(format), 0, FORMATS(TEXT, JSON), 0, MMB_CMD_DEVICES, "FORMAT",
     "text, or json: an array of one object per GPU, with every field of the text and its UUID, versions and "
     "limits (default text)"},
    /* export */
    {"best", 0, OPT_FLAG, S(export.best), 0, 0, 0, MMB_CMD_EXPORT, NULL,
     "the fastest ok configuration (lowest median time) of each GPU, kernel, size, dtype and cache mode: the one "
     "export there is, named so that others can follow"},
    {"format", 0, OPT_FORMAT, S(format), 0, FORMATS(HEADER, JSON), 0, MMB_CMD_EXPORT, "FORMAT",
     "header: a C header, '#define MMB_BEST_<KERNEL>_<M>X<N>X<K>_<DTYPE>_<CACHE>_<GPU>_<PARAM> VALUE' for each "
     "parameter and '..._DEFINES \"-Dname=value ...\"' for NVRTC; or json (default header)"},
    {"output", 'o', OPT_TEXT, S(export.output), 0, 0, 0, MMB_CMD_EXPORT, "FILE",
     "write it to FILE, whole or not at all (default: stdout)"},
    {"profile", 'p', OPT_TEXT, S(export.profile), 0, 0, 0, MMB_CMD_EXPORT, "NAME",
     "only rows of this profile, the CSV's profile column (default: every profile)"},
    {"gpu", 0, OPT_TEXT, S(export.gpu), 0, 0, 0, MMB_CMD_EXPORT, "GPU",
     "only rows of this GPU: its name as the CSV has it, or its data folder (h100-80gb-hbm3; default: every GPU)"},
    {"kernel", 0, OPT_TEXT, S(export.kernels), 0, 0, 0, MMB_CMD_EXPORT, "NAME[,NAME...]",
     "only these kernels (default: every kernel with parameters)"},
    /* help */
    {"man", 0, OPT_FLAG, S(man), 0, 0, 0, MMB_CMD_HELP, NULL,
     "print the manual page (roff) made from every command's help: the build installs it as mmbench.1"},
    {"completion", 0, OPT_SHELL, S(completion), 0, 0, 0, MMB_CMD_HELP, "SHELL",
     "print the completion script of bash or zsh (commands, options, their values, profiles) made from the "
     "option table: the build installs both"},
    {"version", 'V', OPT_FLAG, 0, 0, 0, 0, ALL, NULL,
     "mmbench's version and commit, and the CUDA runtime, driver, NVRTC and CUPTI it was built with and finds"},
    {"help", 'h', OPT_FLAG, 0, 0, 0, 0, ALL, NULL, "this text"},
    {NULL, 0, 0, 0, 0, 0, 0, 0, NULL, NULL},
};

_Static_assert(MMB_COUNT(opts) <= MMB_CMD_OPTIONS_MAX, "mmb_cmd_settings.given has one flag per option");

/* Options that cannot both hold, and why: given together, neither is dropped silently.
 * A pair applies to the commands that take both. */
static const struct {
    const char *a, *b, *why;
} contradictions[] = {
    {"device", "devices", "one GPU, or every GPU"},
    {"output", "devices", "--devices all writes one CSV per GPU model, DATA/<gpu>/ (--data-dir)"},
    {"output", "data-dir", "-o names the CSV; --data-dir is only where the default CSV goes"},
    {"cache-dir", "no-cache", "--no-cache keeps no cubins"},
    {"t4", "no-t4", "one T4 file, or none"},
    {"formats", "no-plots", "--no-plots draws no figure"},
    {"gnuplot", "no-plots", "--no-plots draws no figure"},
    {"list", "command", "--command prints only the command that measures each profile"},
    {"compile", "command", "--command prints only the command that measures each profile, and compiles nothing"},
    {"shard", "command", "--command prints only the command that measures each profile, for every shard"},
    {"man", "completion", "one text at a time"},
    {NULL, NULL, NULL},
};

static const struct cmd_def cmds[] = {
    {MMB_CMD_RUN, "run", "PROFILE.ini", "profile", 1, 1,
     "Runs every configuration of every kernel of the profile at every size and dtype on a GPU,\n"
     "one CSV row each; run it again after an interruption and it goes on where it stopped.",
     "0 done, 1 results could not be written, 2 bad input, 69 no GPU, 130 interrupted"},
    {MMB_CMD_TUNE, "tune", "PROFILE.ini", "profile", 1, 1,
     "Searches the parameter spaces of the profile's kernels on a GPU, with cuBLAS measured at\n"
     "every problem; the results CSV is also the resume cache. Options override [tune].",
     "0 done, 1 results could not be written, 2 bad input, 69 no GPU, 130 interrupted"},
    {MMB_CMD_CHECK, "check", "PROFILE.ini...", "profiles", 1, -1,
     "Checks profiles without a GPU: syntax, keys, values, sizes, restrictions and geometry at every\n"
     "size, and counts the configurations each kernel's restrictions allow.",
     "0 all good, 1 a configuration did not compile, 2 bad input"},
    {MMB_CMD_MERGE, "merge", "PROFILE.ini", "profile", 1, 1,
     "In every GPU folder of DATA, merges the profile's shard CSVs (<name>.shard-K-of-N.csv, from\n"
     "`run --shard K/N`) and the merged CSV already there into DATA/<gpu>/<name>.csv: each\n"
     "configuration once per GPU (of two rows of one GPU the later, unless it failed where the earlier\n"
     "of the same origin is ok; docs/profiles.md), with the side files of launch times, in\n"
     "the order of an unsharded run. Prints each shard's rows and the profile's runs no shard has.",
     "0 merged, 1 runs or shard files missing (the merged CSV holds the rest) or a file not\n"
     "written, 2 bad input (shards of different N, two files of one shard, a bad CSV, a row\n"
     "not of the profile, no shard file)"},
    {MMB_CMD_REPORT, "report", "[CSV or folder ...]", "inputs", 0, -1,
     "Reads mmbench CSVs (default: every *.csv under <root>/data, recursively), writes\n"
     "gnuplot data and scripts, draws the figures with gnuplot, and writes README.md,\n"
     "tables.tex and claims.json (each number of the findings with its rows and formula).\n"
     "<root> is $MMB_SOURCE_ROOT, else the current folder. No GPU needed.",
     "0 written, 1 a file could not be written or a figure not drawn, 2 bad input"},
    {MMB_CMD_COMPARE, "compare", "OLD NEW (CSV or folder each)", "inputs", 0, 2,
     "Compares two runs: two results CSVs, two folders of them (the CSVs of one name in both),\n"
     "or two GPU folders of DATA (--gpus A B). For each configuration both have (kernel,\n"
     "parameters, dtype, size, cache; by default also timed under the same protocol), the two\n"
     "medians, their ratio new/old, its 95% interval (distribution-free, from every launch's time\n"
     "where the side file has them, else from each row's min and max; docs/compare.md) and a\n"
     "verdict: FASTER, SLOWER, SAME (the interval within the threshold) or UNSURE. No GPU needed.",
     "0 compared, 1 a verdict that --fail-on names, 2 bad input (a file, a folder, no configuration in common)"},
    {MMB_CMD_DEVICES, "devices", "", "arguments", 0, 0,
     "Lists the GPUs: name, compute capability, SMs, clocks, memory, L2, the peaks mmbench derives\n"
     "and each GPU's data folder.",
     "0 listed, 1 a GPU could not be queried, 69 no GPU"},
    {MMB_CMD_EXPORT, "export", "--best [CSV or folder ...]", "inputs", 0, -1,
     "Reads mmbench CSVs as report does (default: every *.csv under <root>/data, recursively) and\n"
     "writes, for a program to compile the tuned kernel, the fastest ok configuration of each GPU,\n"
     "kernel, size, dtype and cache mode: its parameters as the #defines of a C header, or as JSON.",
     "0 written, 1 the output could not be written, 2 bad input (a CSV, an argument, nothing to\n"
     "export)"},
    {MMB_CMD_COLUMNS, "columns", "", "arguments", 0, 0,
     "Prints the table of the results' columns as JSON, the one the CSV writer and reader use: each\n"
     "column's name, type, role, unit, description, and the values a column of names allows.",
     "0 printed"},
    {MMB_CMD_HELP, "help", "[COMMAND]", "command", 0, 1,
     "Lists the commands, or prints a command's help. --man and --completion print the manual page\n"
     "and the shell completions, made from the same tables as every --help.",
     "0 printed, 2 bad input"},
};

const struct opt_def *const mmb_cmd_option_rows = opts;
const struct cmd_def *const mmb_cmd_command_rows = cmds;
const size_t mmb_cmd_command_count = MMB_COUNT(cmds);

static const struct cmd_def *cmd_of(enum mmb_cmd_kind kind)
{
    size_t i = 0;
    while (i + 1 < MMB_COUNT(cmds) && cmds[i].kind != kind)
        i++;
    return &cmds[i];
}

int mmb_cmd_parse_int(const char *text, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (!*text || *end || errno || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int parse_u64(const char *text, unsigned long long *out)
{
    char *end;
    errno = 0;
    if (!*text || *text == '-' || *text == '+')
        return -1;
    unsigned long long v = strtoull(text, &end, 10);
    if (*end || errno)
        return -1;
    *out = v;
    return 0;
}

static int bad_value(const struct mmb_cmd_settings *s, const struct opt_def *o, const char *text, const char *expect)
{
    fprintf(stderr, "mmbench %s: --%s expects %s, not '%s'\n", s->command, o->name, expect, text);
    return -1;
}

/* "sm_90", "90", "sm_90a" or "90a": two or three digits, the first not 0, and the
 * arch-specific variant's 'a', which names the same device. */
static int arch_parse(const char *text, int *arch)
{
    const char *d = strncmp(text, "sm_", 3) ? text : text + 3;
    long long v;
    char digits[8];
    size_t len = strlen(d);
    if (len > 0 && d[len - 1] == 'a')
        len--;
    if (len < 2 || len > 3 || d[0] == '0')
        return -1;
    memcpy(digits, d, len);
    digits[len] = '\0';
    if (mmb_cmd_parse_int(digits, 10, 999, &v) != 0)
        return -1;
    *arch = (int)v;
    return 0;
}

/* "f32, f64, ... or i8": every element type the dtype table has. */
static void dtype_names(char *out, size_t len)
{
    size_t o = 0;
    out[0] = '\0';
    for (int d = 0; d < MMB_DTYPE_COUNT && o < len; d++) {
        int w = snprintf(out + o, len - o, "%s%s", d == 0 ? "" : d + 1 == MMB_DTYPE_COUNT ? " or " : ", ",
                         mmb_dtype_info((enum mmb_dtype)d)->text);
        o += w > 0 ? (size_t)w : 0;
    }
}

static const char *const format_names[MMB_FORMAT_COUNT] = {"text", "jsonl", "json", "header", "md"};

const char *mmb_cmd_format_text(enum mmb_cmd_format format)
{
    return (unsigned)format < MMB_FORMAT_COUNT ? format_names[format] : "text";
}

/* One word of a --fail-on list: its bit (1u << status, or 1u << verdict, as the row's
 * type says); false when the word names none. */
static bool word_bit(const struct opt_def *o, const char *word, unsigned *bit)
{
    _Static_assert(MMB_STATUS_COUNT <= 32, "--fail-on keeps a bit per status in an unsigned");
    _Static_assert(MMB_VERDICT_COUNT <= 32, "--fail-on keeps a bit per verdict in an unsigned");
    enum mmb_status st;
    enum mmb_verdict v;
    if (o->type == OPT_STATUSES && mmb_status_parse(word, &st)) {
        *bit = 1u << st;
        return true;
    }
    if (o->type == OPT_VERDICTS && mmb_verdict_parse(word, &v)) {
        *bit = 1u << v;
        return true;
    }
    return false;
}

/* A comma-separated list of statuses or verdicts into bits; at least one. */
static int words_parse(const struct mmb_cmd_settings *s, const struct opt_def *o, const char *list, unsigned *bits)
{
    const char *what = o->type == OPT_VERDICTS ? "verdicts" : "statuses";
    char names[512];
    mmb_cmd_option_words(o, ", ", names, sizeof names);
    *bits = 0;
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        char one[64];
        unsigned bit = 0;
        snprintf(one, sizeof one, "%.*s", (int)(n < sizeof one ? n : sizeof one - 1), p);
        bool known = n > 0 && n < sizeof one && word_bit(o, one, &bit);
        if (!known || (p[n] == ',' && !p[n + 1])) {
            fprintf(stderr, "mmbench %s: --%s expects %s of %s, comma-separated, not '%s'%s\n", s->command, o->name,
                    what, names, list, known || n == 0 ? " (an empty one)" : "");
            return -1;
        }
        *bits |= bit;
        p += n + (p[n] == ',');
    }
    if (!*bits) {
        char expect[64];
        snprintf(expect, sizeof expect, "one of the %s or more, comma-separated", what);
        return bad_value(s, o, list, expect);
    }
    return 0;
}

/* "png,pdf": each format once, in the order given; at least one. */
static int formats_parse(const struct mmb_cmd_settings *s, const struct opt_def *o, const char *list,
                         struct mmb_report_options *r)
{
    char names[64];
    mmb_report_format_names(names, sizeof names, ", ", " or ");
    r->nformats = 0;
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        enum mmb_report_format fmt;
        if (!mmb_report_format_parse(p, n, &fmt)) {
            fprintf(stderr, "mmbench %s: --%s expects %s, comma-separated, not '%.*s'\n", s->command, o->name, names,
                    (int)n, p);
            return -1;
        }
        bool dup = false;
        for (size_t i = 0; i < r->nformats; i++)
            dup = dup || r->formats[i] == fmt;
        if (!dup)
            r->formats[r->nformats++] = fmt;
        p += n + (p[n] == ',');
    }
    if (r->nformats == 0)
        return bad_value(s, o, list, names);
    return 0;
}

static int apply(struct mmb_cmd_settings *s, const struct opt_def *o, const char *arg)
{
    char *base = (char *)s;
    char expect[96];
    long long v;
    switch (o->type) {
    case OPT_FLAG:
        *(bool *)(base + o->offset) = true;
        return 0;
    case OPT_ALL:
        if (strcmp(arg, "all") != 0)
            return bad_value(s, o, arg, "'all'");
        *(bool *)(base + o->offset) = true;
        return 0;
    case OPT_INT:
    case OPT_LLONG:
        if (mmb_cmd_parse_int(arg, o->lo, o->hi, &v) != 0) {
            if (o->hi == LLONG_MAX)
                snprintf(expect, sizeof expect, "an integer >= %lld", o->lo);
            else
                snprintf(expect, sizeof expect, "an integer from %lld to %lld", o->lo, o->hi);
            return bad_value(s, o, arg, expect);
        }
        if (o->type == OPT_INT)
            *(int *)(base + o->offset) = (int)v;
        else
            *(long long *)(base + o->offset) = v;
        break;
    case OPT_U64:
        if (parse_u64(arg, (unsigned long long *)(base + o->offset)) != 0)
            return bad_value(s, o, arg, "an unsigned 64-bit integer (0 to 18446744073709551615)");
        break;
    case OPT_SECONDS: {
        char *end;
        errno = 0;
        double d = strtod(arg, &end);
        if (!*arg || *end || errno || !isfinite(d) || d <= 0 || d > 1e9)
            return bad_value(s, o, arg, "seconds, a number > 0");
        *(double *)(base + o->offset) = d;
        break;
    }
    case OPT_NOISE:
        if (mmb_noise_parse(arg, (double *)(base + o->offset)) != 0)
            return bad_value(s, o, arg, "a fraction or a percentage above 0 and below 100%, such as 0.5% or 0.005");
        break;
    case OPT_SHARD: {
        char why[1200];
        if (mmb_shard_parse(arg, (struct mmb_shard *)(base + o->offset), why, sizeof why) != 0) {
            fprintf(stderr, "mmbench %s: --%s %s\n", s->command, o->name, why);
            return -1;
        }
        break;
    }
    case OPT_TEXT:
        if (!*arg)
            return bad_value(s, o, arg, o->arg);
        *(const char **)(base + o->offset) = arg;
        break;
    case OPT_ARCH:
        if (arch_parse(arg, (int *)(base + o->offset)) != 0)
            return bad_value(s, o, arg, "an architecture such as sm_90 or 90");
        break;
    case OPT_DTYPE: {
        enum mmb_dtype t;
        if (!mmb_dtype_parse(arg, &t)) {
            dtype_names(expect, sizeof expect);
            return bad_value(s, o, arg, expect);
        }
        *(const char **)(base + o->offset) = arg;
        break;
    }
    case OPT_CACHE: {
        enum mmb_cache_mode mode;
        if (!mmb_cache_parse(arg, &mode))
            return bad_value(s, o, arg, "cold or hot");
        *(const char **)(base + o->offset) = arg;
        break;
    }
    case OPT_SHAPE:
        if (!mmb_report_shape_parse(arg, (struct mmb_report_shape *)(base + o->offset)))
            return bad_value(s, o, arg, "N or MxNxK (positive integers)");
        s->report.size = &s->report_size;
        break;
    case OPT_FORMATS:
        return formats_parse(s, o, arg, (struct mmb_report_options *)(base + o->offset));
    case OPT_PRESET:
        if (!mmb_report_format_preset_parse(arg, (enum mmb_report_preset *)(base + o->offset))) {
            mmb_cmd_option_words(o, ", ", expect, sizeof expect);
            return bad_value(s, o, arg, expect);
        }
        break;
    case OPT_COUNTERS:
        if (!mmb_counters_parse(arg, (enum mmb_counters *)(base + o->offset))) {
            mmb_counters_names(expect, sizeof expect);
            return bad_value(s, o, arg, expect);
        }
        break;
    case OPT_ENERGY:
        if (!mmb_energy_mode_parse(arg, (enum mmb_energy_mode *)(base + o->offset))) {
            mmb_energy_mode_names(expect, sizeof expect);
            return bad_value(s, o, arg, expect);
        }
        break;
    case OPT_FORMAT:
    case OPT_SHELL: {
        mmb_cmd_option_words(o, " or ", expect, sizeof expect);
        bool found = false;
        for (int f = 0; o->type == OPT_FORMAT && f < MMB_FORMAT_COUNT && !found; f++)
            if ((o->lo & (1LL << f)) && !strcmp(arg, format_names[f])) {
                *(enum mmb_cmd_format *)(base + o->offset) = (enum mmb_cmd_format)f;
                found = true;
            }
        for (const char *const *sh = mmb_cmd_shells; o->type == OPT_SHELL && *sh && !found; sh++)
            if (!strcmp(arg, *sh)) {
                *(const char **)(base + o->offset) = *sh;
                found = true;
            }
        if (!found)
            return bad_value(s, o, arg, expect);
        break;
    }
    case OPT_STATUSES:
    case OPT_VERDICTS:
        return words_parse(s, o, arg, (unsigned *)(base + o->offset));
    }
    if (o->set_offset)
        *(bool *)(base + o->set_offset) = true;
    return 0;
}

static void defaults(enum mmb_cmd_kind kind, struct mmb_cmd_settings *s, const char *cache)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    memset(s, 0, sizeof *s);
    s->started = mmb_seconds_now();
    s->command = cmd_of(kind)->name;
    s->data_dir = "data";
    snprintf(s->default_cache, sizeof s->default_cache, "%s", cache);
    s->cache_dir = s->default_cache;
    s->warmup = -1;
    s->tune.max_fevals = -1;
    s->tune.time_limit = -1;
    s->threshold = MMB_VERDICT_THRESHOLD;
    s->jobs = cpus > 0 ? (int)(cpus < 1024 ? cpus : 1024) : 1;
    s->format = kind == MMB_CMD_EXPORT ? MMB_FORMAT_HEADER : MMB_FORMAT_TEXT;
}

/* Whether the command kind's option name is on the command line (a name may have a
 * row per command: report's --output is not run's). */
static bool given(const struct mmb_cmd_settings *s, enum mmb_cmd_kind kind, const char *name)
{
    for (size_t i = 0; opts[i].name; i++)
        if ((opts[i].commands & kind) && !strcmp(opts[i].name, name))
            return s->given[i];
    return false;
}

static int contradict(const struct mmb_cmd_settings *s, const char *a, const char *b, const char *why)
{
    fprintf(stderr, "mmbench %s: --%s and --%s contradict each other: %s; expected one of them\n", s->command, a, b,
            why);
    return -1;
}

/* The shared settings copied into what tune asks of the search (tune_plan reads them). */
static int finish(enum mmb_cmd_kind kind, struct mmb_cmd_settings *s)
{
    for (size_t i = 0; contradictions[i].a; i++)
        if (given(s, kind, contradictions[i].a) && given(s, kind, contradictions[i].b))
            return contradict(s, contradictions[i].a, contradictions[i].b, contradictions[i].why);
    if ((kind & BOTH) && s->no_cache && given(s, kind, "jobs") && s->jobs > 0)
        return contradict(s, "jobs", "no-cache", "compiles run ahead only through the cubin cache");
    if (kind == MMB_CMD_EXPORT && !s->export.best) {
        fprintf(stderr, "mmbench export: expected --best, the export there is (the fastest configuration of each "
                "kernel, size and dtype); see mmbench export --help\n");
        return -1;
    }
    if (s->no_cache)
        s->cache_dir = NULL;
    if (s->no_counters && s->counters_set && s->counters != MMB_COUNTERS_NONE) {
        fprintf(stderr, "mmbench %s: --no-counters and --counters %s contradict each other; expected one of them\n",
                s->command, mmb_counters_text(s->counters));
        return -1;
    }
    if (s->no_counters) {
        s->counters = MMB_COUNTERS_NONE;
        s->counters_set = true;
    }
    if (s->no_energy && s->energy_set && s->energy != MMB_ENERGY_OFF) {
        fprintf(stderr, "mmbench %s: --no-energy and --energy %s contradict each other; expected one of them\n",
                s->command, mmb_energy_mode_text(s->energy));
        return -1;
    }
    if (s->no_energy) {
        s->energy = MMB_ENERGY_OFF;
        s->energy_set = true;
    }
    struct mmb_tune_options *t = &s->tune;
    t->counters = s->counters;
    t->counters_set = s->counters_set;
    t->energy = s->energy;
    t->energy_set = s->energy_set;
    if (s->lock_clocks && !mmb_clock_lock_parse(s->lock_clocks, &s->lock)) {
        fprintf(stderr, "mmbench %s: --lock-clocks '%s': expected base, max or a whole number of MHz from 100 to "
                "10000\n", s->command, s->lock_clocks);
        return -1;
    }
    t->record_restricted = s->record_restricted;
    t->shard = s->shard;
    if (!(kind & BOTH))
        return 0;
    if (!s->cache_dir && s->jobs > 0) {
        fprintf(stderr, "mmbench %s: --no-cache: compiles cannot run ahead without the cubin cache; "
                "compiling on the measuring thread\n", s->command);
        s->jobs = 0;
    }
    return 0;
}

int mmb_cmd_options_parse(enum mmb_cmd_kind kind, int argc, char **argv, struct mmb_cmd_settings *s)
{
    char cache[MMB_PATH_MAX];
    mmb_default_cache_dir(cache, sizeof cache);
    defaults(kind, s, cache);
    const struct cmd_def *c = cmd_of(kind);
    struct option longopts[MMB_COUNT(opts)];
    char shorts[64] = ":"; /* ':' first: a missing value is told apart from an unknown option */
    size_t n = 0, ns = 1;
    for (size_t i = 0; opts[i].name; i++) {
        if (!(opts[i].commands & kind))
            continue;
        bool takes = opts[i].type != OPT_FLAG;
        longopts[n++] = (struct option){opts[i].name, takes ? required_argument : no_argument, NULL, (int)i + 256};
        if (opts[i].short_name && ns + 3 < sizeof shorts) {
            shorts[ns++] = opts[i].short_name;
            if (takes)
                shorts[ns++] = ':';
            shorts[ns] = '\0';
        }
    }
    longopts[n] = (struct option){NULL, 0, NULL, 0};
    /* glibc: 0 starts getopt afresh, so that a command can run more than once in one
     * process (the tests do); its own messages are replaced by ours */
    optind = 0;
    opterr = 0;
    /* each row's value: one given twice would drop the first silently */
    const char *values[MMB_COUNT(opts)] = {NULL};
    int opt;
    while ((opt = getopt_long(argc, argv, shorts, longopts, NULL)) != -1) {
        const struct opt_def *o = NULL;
        if (opt >= 256)
            o = &opts[opt - 256];
        for (size_t i = 0; !o && opt != ':' && opt != '?' && opts[i].name; i++)
            if (opts[i].short_name == opt && (opts[i].commands & kind))
                o = &opts[i];
        if (!o) {
            fprintf(stderr, "mmbench %s: %s '%s'; see mmbench %s --help\n", s->command,
                    opt == ':' ? "expected a value after" : "no such option as", argv[optind - 1], s->command);
            return -1;
        }
        size_t index = (size_t)(o - opts);
        if (o->type != OPT_FLAG && values[index]) {
            fprintf(stderr, "mmbench %s: --%s is given twice ('%s', then '%s'); expected it once\n", s->command,
                    o->name, values[index], optarg);
            return -1;
        }
        values[index] = optarg; /* a flag: NULL, and twice is once */
        s->given[index] = true;
        if (!strcmp(o->name, "help")) {
            mmb_cmd_options_usage(kind, stdout);
            return 1;
        }
        if (!strcmp(o->name, "version")) {
            mmb_cmd_version_print(stdout);
            return 1;
        }
        if (apply(s, o, optarg) != 0)
            return -1;
    }
    s->args = argv + optind;
    s->nargs = (size_t)(argc - optind);
    if (s->nargs < (size_t)c->min_args || (c->max_args >= 0 && s->nargs > (size_t)c->max_args)) {
        if (c->max_args == 0)
            fprintf(stderr, "mmbench %s: takes no arguments, not '%s'\n", s->command, s->args[0]);
        else if (c->min_args == c->max_args)
            fprintf(stderr, "mmbench %s: expected exactly one %s, got %zu (see mmbench %s --help)\n", s->command,
                    c->what, s->nargs, s->command);
        else
            fprintf(stderr, "mmbench %s: expected one or more %s (see mmbench %s --help)\n", s->command, c->what,
                    s->command);
        return -1;
    }
    s->profile = s->nargs ? s->args[0] : NULL;
    return finish(kind, s);
}

