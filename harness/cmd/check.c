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
#include "cuda/compile_pool.h"
#endif

struct check_counts {
    size_t compiled, failed;
    size_t other_targets; /* kernels whose target is not this architecture's */
    size_t specific;      /* kernels compiled for the arch-specific variant */
};

#ifdef MMB_HAVE_CUDA
/* One configuration at one size and dtype, compiled by the pool. */
struct check_job {
    const struct mmb_kernel_spec *kernel;
    struct mmb_config cfg;
    const struct mmb_size *size;
    enum mmb_dtype dtype;
    bool specific;
};

/* A profile's compiles: handed to the pool as they are found, read back in that order. */
struct check_compiles {
    struct mmb_compile_pool *pool;
    char *texts[MMB_MAX_KERNELS];  /* the kernels' sources, which the pool reads */
    struct check_job *jobs;
    size_t n, cap;
};

/* Hands one configuration at one size and dtype to the pool; -1 when out of memory. */
static int compile_submit(struct check_compiles *cc, const struct mmb_kernel_spec *k, const char *text,
                          const struct mmb_config *cfg, const struct mmb_size *size, enum mmb_dtype d, bool specific)
{
    if (cc->n == cc->cap) {
        size_t cap = cc->cap ? 2 * cc->cap : 64;
        struct check_job *jobs = realloc(cc->jobs, cap * sizeof *jobs);
        if (!jobs)
            return -1;
        cc->jobs = jobs;
        cc->cap = cap;
    }
    cc->jobs[cc->n++] = (struct check_job){k, *cfg, size, d, specific};
    return mmb_compile_pool_submit(cc->pool, k, text, cfg, 1, size, d);
}

/* Every compile's outcome, in the order submitted: a line for each failure. */
static void compile_results(const struct mmb_profile *p, struct check_compiles *cc, int arch, struct check_counts *n)
{
    /* The pool runs the last submitted first: the first job is compiled on this thread
     * while the workers take the rest from the other end. */
    for (size_t i = 0; i < cc->n; i++) {
        const struct check_job *j = &cc->jobs[i];
        char why[1024], params[MMB_PARAMS_LEN];
        enum mmb_status st = mmb_compile_pool_result(cc->pool, j->kernel, &j->cfg, j->size, j->dtype, why, sizeof why);
        if (st == MMB_STATUS_OK) {
            n->compiled++;
            continue;
        }
        if (st == MMB_STATUS_SKIPPED) { /* its defines could not be evaluated: say why */
            struct mmb_defines defs;
            (void)mmb_compile_defines(j->kernel, &j->cfg, j->size, j->dtype, &defs, why, sizeof why);
        }
        mmb_space_format_params(j->kernel, &j->cfg, params, sizeof params);
        fprintf(stderr, "mmbench check: %s:%d: kernel %s %s [%s] %lldx%lldx%lld sm_%d%s: %s\n", p->path,
                j->kernel->line, j->kernel->name, params, mmb_dtype_info(j->dtype)->text, j->size->m, j->size->n,
                j->size->k, arch, j->specific ? "a" : "", why);
        n->failed++;
    }
}

static void compiles_close(struct check_compiles *cc)
{
    mmb_compile_pool_close(cc->pool); /* before the sources it reads */
    for (int i = 0; i < MMB_MAX_KERNELS; i++)
        free(cc->texts[i]);
    free(cc->jobs);
}

/* Compiles cfg at this size and dtype if the shard takes that run: once per dtype, or
 * at every size when the defines read it. -1 when the source cannot be read or memory
 * runs out. */
static int compile_at(const struct mmb_profile *p, const struct mmb_kernel_spec *k, struct check_compiles *cc,
                      const struct mmb_config *cfg, const struct mmb_size *size, enum mmb_dtype d,
                      const struct mmb_cmd_settings *o, bool specific, bool *compiled, struct check_counts *n)
{
    if ((compiled[d] && !k->defines_use_size) || !mmb_shard_takes(&o->shard, k, cfg, size, d))
        return 0;
    size_t ki = (size_t)(k - p->kernels);
    char err[1024];
    if (!cc->texts[ki] && !(cc->texts[ki] = mmb_file_read(k->source, NULL, err, sizeof err))) {
        fprintf(stderr, "mmbench check: %s:%d: %s\n", p->path, k->line, err);
        n->failed++;
        return -1;
    }
    if (compile_submit(cc, k, cc->texts[ki], cfg, size, d, specific) != 0) {
        fprintf(stderr, "mmbench check: out of host memory\n");
        n->failed++;
        return -1;
    }
    compiled[d] = true;
    return 0;
}
#else
struct check_compiles {
    int unused;
};
#endif

/* The allowed configurations of one kernel (compiled with o->arch); -1 on a
 * restriction that cannot be evaluated, after a file:line message. */
static int check_kernel(const struct mmb_profile *p, const struct mmb_kernel_spec *k, const struct mmb_cmd_settings *o,
                        struct check_compiles *cc, struct check_counts *n)
{
    size_t count = mmb_space_size(k), allowed = 0;
    char other_target[256] = "";
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
                if (compiles && compile_at(p, k, cc, &cfg, &p->sizes[si], (enum mmb_dtype)d, o, specific,
                                           compiled, n) != 0)
                    rc = -1;
#endif
                any = true;
            }
        allowed += any;
    }
    (void)cc;
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
    struct check_compiles cc;
    memset(&cc, 0, sizeof cc);
#ifdef MMB_HAVE_CUDA
    char err[1024];
    /* NVRTC on every CPU (--jobs); nothing cached: a check keeps no cubins */
    if (o->arch && mmb_compile_pool_open(&cc.pool, o->jobs > 0 ? o->jobs : 1, o->arch, NULL, err, sizeof err) != 0) {
        fprintf(stderr, "mmbench check: %s\n", err);
        mmb_profile_free(p);
        free(p);
        return MMB_EXIT_FAILED;
    }
#endif
    printf("%s: profile '%s', %d sizes\n", path, p->name, p->nsizes);
    for (int ki = 0; ki < p->nkernels; ki++)
        if (check_kernel(p, &p->kernels[ki], o, &cc, &n) != 0)
            rc = MMB_EXIT_BAD_INPUT;
#ifdef MMB_HAVE_CUDA
    if (o->arch) {
        fflush(stdout);
        compile_results(p, &cc, o->arch, &n);
        compiles_close(&cc);
    }
#endif
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
