/* fuzz_options.c - libFuzzer target: the command lines of every command on the one
 * option table, and what run and tune check from them before they look for a GPU: the
 * table (numbers, shards, contradicting or repeated options), the profile it names,
 * the metric set, the timing request against the profile, and tune's plan (kernels,
 * sizes, strategy, objective, T4 file). check runs whole: it reads profiles and writes
 * nothing. merge, report, devices, export, columns, help and compare parse their
 * options only (they write files, need a GPU, print texts or read files).
 *
 * Input: arguments separated by newlines, the first the command (run, tune, check,
 * merge, report, devices, export, columns, help or compare; anything else is run's). An
 * argument that starts with "profiles/" names a file of a private folder holding
 * profiles/p.ini (a source kernel and cuBLAS) and profiles/t.ini (with [tune]). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cmd/check.h"
#include "cmd/options.h"
#include "fuzz_common.h"
#include "cmd/common.h"
#include "model/profile.h"
#include "results/metrics.h"
#include "search/tune_plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define ARGS_MAX 24

static const char plain[] =
    "[profile]\nsizes = 64, 100x30x7\ndtypes = f32, f64\nrepeats = 5\n\n"
    "[kernel naive]\nsource = ../kernels/naive.cu\nfunction = f\nparam.block_size_x = 8, 16\n"
    "param.block_size_y = 8, 16\n\n[kernel cublas]\nlibrary = cublas\n";
static const char tuned[] =
    "[profile]\nsizes = 64\nnoise = 1%\n\n[kernel tunable]\nsource = ../kernels/tunable.cu\nfunction = f\n"
    "param.block_size_x = 8, 16, 32\nparam.tile = 1, 2\nrestrict = block_size_x * tile <= 32\n\n"
    "[tune]\nstrategy = random\nmax_fevals = 4\n";

static void setup_once(void)
{
    static bool done;
    if (done)
        return;
    done = true;
    fuzz_file("p.ini", (const uint8_t *)plain, sizeof plain - 1);
    fuzz_file("t.ini", (const uint8_t *)tuned, sizeof tuned - 1);
    char cache[128];
    snprintf(cache, sizeof cache, "%s/cache", fuzz_dir);
    setenv("MMB_CACHE_DIR", cache, 1);
}

/* What run and tune check after the options and before a GPU (cmd/run.c, cmd/tune/tune.c). */
static void plan(enum mmb_cmd_kind kind, const struct mmb_cmd_settings *s)
{
    struct mmb_profile *p = calloc(1, sizeof *p);
    struct mmb_tune_plan *tp = calloc(1, sizeof *tp);
    if (!p || !tp)
        abort();
    char err[2048];
    struct mmb_metric_set set;
    struct mmb_converge_spec timing;
    if (mmb_cmd_load_profile(s->command, s->profile, p, &set) == 0) {
        if (mmb_profile_timing(p, &s->timing, &timing, err, sizeof err) == 0 && kind == MMB_CMD_TUNE &&
            mmb_tune_plan_make(p, &s->tune, tp, err, sizeof err) == 0)
            (void)mmb_tune_plan_problems(p, tp);
        mmb_profile_free(p);
    }
    free(p);
    free(tp);
}

/* What the table promises: no contradiction got through. */
static bool contradicts(enum mmb_cmd_kind kind, const struct mmb_cmd_settings *s)
{
    if (kind == MMB_CMD_REPORT)
        return s->report.no_plots && (s->report.gnuplot || s->report.nformats);
    if (kind == MMB_CMD_EXPORT)
        return !s->export.best; /* the one export there is must be asked for */
    if (kind == MMB_CMD_HELP)
        return s->man && s->completion;
    return (s->all_devices && s->output) || (s->t4 && s->no_t4) || (s->no_cache && s->cache_dir) ||
           (s->jobs > 0 && !s->cache_dir && kind == MMB_CMD_TUNE);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    setup_once();
    char *text = malloc(size + 1);
    if (!text)
        abort();
    memcpy(text, data, size);
    text[size] = '\0';
    char *argv[ARGS_MAX + 1], paths[ARGS_MAX][256];
    int argc = 0;
    for (char *s = text; argc < ARGS_MAX;) {
        char *nl = strchr(s, '\n');
        if (nl)
            *nl = '\0';
        argv[argc] = s;
        if (!strncmp(s, "profiles/", 9) && strlen(s) < 200) { /* the private folder's */
            snprintf(paths[argc], sizeof paths[argc], "%s/%s", fuzz_dir, s);
            argv[argc] = paths[argc];
        }
        argc++;
        if (!nl)
            break;
        s = nl + 1;
    }
    argv[argc] = NULL;
    static const struct {
        const char *name;
        enum mmb_cmd_kind kind;
    } commands[] = {{"tune", MMB_CMD_TUNE}, {"check", MMB_CMD_CHECK}, {"merge", MMB_CMD_MERGE},
                    {"report", MMB_CMD_REPORT}, {"devices", MMB_CMD_DEVICES}, {"export", MMB_CMD_EXPORT},
                    {"columns", MMB_CMD_COLUMNS}, {"help", MMB_CMD_HELP},
                    {"compare", MMB_CMD_COMPARE}};
    enum mmb_cmd_kind kind = MMB_CMD_RUN;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[0], commands[i].name))
            kind = commands[i].kind;
    if (kind == MMB_CMD_CHECK) {
        (void)mmb_cmd_check(argc, argv);
    } else {
        struct mmb_cmd_settings *s = calloc(1, sizeof *s);
        if (!s)
            abort();
        if (mmb_cmd_options_parse(kind, argc, argv, s) == 0) {
            if (contradicts(kind, s)) {
                fprintf(stderr, "fuzz_options: contradicting options accepted\n");
                abort();
            }
            if (kind & (MMB_CMD_RUN | MMB_CMD_TUNE))
                plan(kind, s);
        }
        free(s);
    }
    free(text);
    return 0;
}
