/* check.c - `mmbench check PROFILE...`: every check a profile gets before GPU work,
 * the configurations each kernel's restrictions allow, and with --compile sm_XY every
 * allowed configuration compiled by NVRTC (the CUDA toolkit, no GPU) as a device of
 * that architecture would compile it: sm_XYa for a kernel whose `target` lists it,
 * nothing for a kernel whose `target` does not (sm_90a names the same device as
 * sm_90). --shard K/N
 * counts (and compiles) only the shard's runs, --list prints them: what a shard of
 * `run` would measure, found without a GPU. --command says whether `run` or `tune`
 * measures the profile (scripts/gpu/job.sh asks). Options: cmd/options.c. */
#include "cmd/check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/common.h"
#include "cmd/options.h"
#include "model/library.h"
#include "model/space.h"
#include "results/csv_name.h"
#include "results/metrics.h"
#include "results/shard.h"

#ifdef MMB_HAVE_CUDA
#include "core/file.h"
#include "cuda/compile.h"
#endif

struct check_counts {
    size_t compiled, failed;
    size_t other_targets; /* kernels whose target is not this architecture's */
    size_t specific;      /* kernels compiled for the arch-specific variant */
};

#ifdef MMB_HAVE_CUDA
/* Compiles one configuration at one size and dtype. */
static void compile_config(const struct mmb_profile *p, const struct mmb_kernel_spec *k, const char *text,
                           const struct mmb_config *cfg, const struct mmb_size *size, enum mmb_dtype d, int arch,
                           bool specific, struct check_counts *n)
{
    char why[1024], params[MMB_PARAMS_LEN];
    struct mmb_defines defs;
    struct mmb_cubin cubin = {0};
    enum mmb_status st = MMB_STATUS_COMPILE_ERROR;
    if (mmb_compile_defines(k, cfg, size, d, &defs, why, sizeof why) == 0) {
        struct mmb_compile_request req = {.source_path = k->source, .source = text, .function = defs.function,
                                          .defines = defs.list, .arch = arch, .arch_specific = specific,
                                          .extra_options = k->nvrtc_options, .prelude = k->prelude,
                                          .cuda_headers = defs.cuda_headers, .headers = defs.headers};
        st = mmb_compile(&req, &cubin, why, sizeof why);
    }
    if (st != MMB_STATUS_OK) {
        mmb_space_format_params(k, cfg, params, sizeof params);
        fprintf(stderr, "mmbench check: %s:%d: kernel %s %s [%s] %lldx%lldx%lld sm_%d%s: %s\n", p->path, k->line,
                k->name, params, mmb_dtype_info(d)->text, size->m, size->n, size->k, arch, specific ? "a" : "", why);
        n->failed++;
    } else {
        n->compiled++;
    }
    mmb_cubin_free(&cubin);
}

/* Compiles cfg at this size and dtype if the shard takes that run: once per dtype, or
 * at every size when the defines read it. -1 when the source cannot be read. */
static int compile_at(const struct mmb_profile *p, const struct mmb_kernel_spec *k, char **text,
                      const struct mmb_config *cfg, const struct mmb_size *size, enum mmb_dtype d,
                      const struct mmb_cmd_settings *o, bool specific, bool *compiled, struct check_counts *n)
{
    if ((compiled[d] && !k->defines_use_size) || !mmb_shard_takes(&o->shard, k, cfg, size, d))
        return 0;
    char err[1024];
    if (!*text && !(*text = mmb_file_read(k->source, NULL, err, sizeof err))) {
        fprintf(stderr, "mmbench check: %s:%d: %s\n", p->path, k->line, err);
        n->failed++;
        return -1;
    }
    compile_config(p, k, *text, cfg, size, d, o->arch, specific, n);
    compiled[d] = true;
    return 0;
}
#endif

/* The allowed configurations of one kernel (compiled with o->arch); -1 on a
 * restriction that cannot be evaluated, after a file:line message. */
static int check_kernel(const struct mmb_profile *p, const struct mmb_kernel_spec *k, const struct mmb_cmd_settings *o,
                        struct check_counts *n)
{
    size_t count = mmb_space_size(k), allowed = 0;
    char *text = NULL, other_target[256] = "";
    int rc = 0;
    bool specific = false;
    bool compiles = o->arch && k->kind == MMB_KERNEL_SOURCE &&
                    mmb_kernel_target(k, o->arch, &specific, other_target, sizeof other_target);
    for (size_t i = 0; i < count && rc == 0; i++) {
        struct mmb_config cfg;
#ifdef MMB_HAVE_CUDA
        bool compiled[MMB_DTYPE_COUNT] = {false};
#endif
        mmb_space_config_at(k, i, &cfg);
        bool any = false;
        for (int si = 0; si < p->nsizes && rc == 0; si++)
            for (int d = 0; d < MMB_DTYPE_COUNT && rc == 0; d++) {
                if (!mmb_kernel_runs_dtype(p, k, (enum mmb_dtype)d))
                    continue;
                /* restrictions may read elem_size: each dtype at its own */
                int which = -1;
                char why[512];
                int ok = mmb_space_allowed(k, &cfg, &p->sizes[si], mmb_dtype_info((enum mmb_dtype)d)->size, &which,
                                           why, sizeof why);
                if (ok < 0) {
                    char params[MMB_PARAMS_LEN];
                    mmb_space_format_params(k, &cfg, params, sizeof params);
                    fprintf(stderr, "mmbench check: %s:%d: restriction '%s' of kernel %s cannot be evaluated at %s, "
                            "%s, size %lldx%lldx%lld: %s\n", p->path, k->restrictions[which].line,
                            mmb_expr_text(k->restrictions[which].expr), k->name, params,
                            mmb_dtype_info((enum mmb_dtype)d)->text, p->sizes[si].m, p->sizes[si].n, p->sizes[si].k,
                            why);
                    rc = -1;
                }
                if (ok != 1)
                    continue;
#ifdef MMB_HAVE_CUDA
                if (compiles && compile_at(p, k, &text, &cfg, &p->sizes[si], (enum mmb_dtype)d, o, specific,
                                           compiled, n) != 0)
                    rc = -1;
#endif
                any = true;
            }
        allowed += any;
    }
    free(text);
    const struct mmb_library *lib = mmb_library_of(k->kind);
    char what[80];
    snprintf(what, sizeof what, lib ? "(library %s)" : "%s", lib ? lib->name : k->function);
    printf("  kernel %-12s %s: %zu configurations, %zu allowed by its restrictions\n", k->name, what, count,
           allowed);
    if (other_target[0]) {
        printf("    not compiled for sm_%d: %s\n", o->arch, other_target);
        n->other_targets++;
    }
    n->specific += compiles && specific;
    return rc;
}

/* ---- a shard's runs ---- */

struct shard_count {
    const struct mmb_cmd_settings *o;
    size_t runs[MMB_MAX_KERNELS], total;
    const struct mmb_kernel_spec *first;
};

static int count_run(void *ctx, const struct mmb_shard_run *run)
{
    struct shard_count *c = ctx;
    if (run->allowed != 1)
        return 0;
    c->runs[run->kernel - c->first]++;
    c->total++;
    if (c->o && c->o->list)
        printf("run %s %s %s %lldx%lldx%lld\n", run->kernel->name, run->params[0] ? run->params : "-",
               mmb_dtype_info(run->dtype)->text, run->size->m, run->size->n, run->size->k);
    return 0;
}

/* The runs of the shard per kernel against the whole profile's (--shard), and the runs
 * themselves (--list): what `run --shard` would measure. */
static void shard_report(const struct mmb_profile *p, const struct mmb_cmd_settings *o)
{
    struct shard_count mine = {.o = o, .first = p->kernels}, all = {.first = p->kernels};
    struct mmb_shard everything = {0, 0};
    mmb_shard_each_run(p, &o->shard, count_run, &mine);
    if (mmb_shard_is_all(&o->shard))
        return;
    mmb_shard_each_run(p, &everything, count_run, &all);
    char text[32];
    mmb_shard_text(&o->shard, text, sizeof text);
    printf("  shard %s: %zu of the profile's %zu runs (configuration x size x dtype, allowed)\n", text, mine.total,
           all.total);
    for (int ki = 0; ki < p->nkernels; ki++)
        printf("    kernel %-12s %zu of %zu\n", p->kernels[ki].name, mine.runs[ki], all.runs[ki]);
}

/* One profile: 0, MMB_EXIT_BAD_INPUT, or MMB_EXIT_FAILED when a compile failed. */
static int check_profile(const char *path, const struct mmb_cmd_settings *o)
{
    struct mmb_profile *p = calloc(1, sizeof *p);
    if (!p) {
        perror("mmbench check");
        return MMB_EXIT_FAILED;
    }
    struct mmb_metric_set metrics;
    if (mmb_cmd_load_profile("check", path, p, &metrics) != 0) {
        free(p);
        return MMB_EXIT_BAD_INPUT;
    }
    int rc = 0;
    if (o->print_command) { /* for scripts: how to measure it, and nothing else */
        printf("%s\n", mmb_csv_name_tuning(p->name) ? "tune" : "run");
        mmb_profile_free(p);
        free(p);
        return 0;
    }
    struct check_counts n = {0, 0, 0, 0};
    printf("%s: profile '%s', %d sizes\n", path, p->name, p->nsizes);
    for (int ki = 0; ki < p->nkernels; ki++)
        if (check_kernel(p, &p->kernels[ki], o, &n) != 0)
            rc = MMB_EXIT_BAD_INPUT;
    if (rc == 0)
        shard_report(p, o);
    if (o->arch)
        printf("  compiled for sm_%d: %zu ok, %zu failed%s%s\n", o->arch, n.compiled, n.failed,
               n.specific ? " (arch-specific sm_XYa for the kernels whose target lists it)" : "",
               n.other_targets ? " (kernels of other targets left out)" : "");
    else
        printf("  not compiled: `mmbench check --compile sm_XY` compiles every allowed configuration\n");
    if (n.failed && !rc)
        rc = MMB_EXIT_FAILED;
    mmb_profile_free(p);
    free(p);
    return rc;
}

int mmb_cmd_check(int argc, char **argv)
{
    struct mmb_cmd_settings o;
    int rc = mmb_cmd_options_parse(MMB_CMD_CHECK, argc, argv, &o);
    if (rc)
        return rc > 0 ? 0 : MMB_EXIT_BAD_INPUT;
#ifndef MMB_HAVE_CUDA
    if (o.arch) {
        fprintf(stderr, "mmbench check: --compile needs NVRTC, and this mmbench was built without the CUDA toolkit\n");
        return MMB_EXIT_BAD_INPUT;
    }
#endif
    for (size_t a = 0; a < o.nargs; a++) {
        int r = check_profile(o.args[a], &o);
        if (r == MMB_EXIT_BAD_INPUT || !rc)
            rc = r ? r : rc;
    }
    return rc;
}
