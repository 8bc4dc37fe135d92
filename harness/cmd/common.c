/* common.c - what every subcommand shares: loading a profile with all its checks
 * (its metric set parsed once, here), the sweep's settings from the environment, and
 * the line each row prints. */
#include "cmd/common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/space.h"
#include "results/best/best.h"
#include "results/columns.h"
#include "search/tune_spec.h"

#ifdef MMB_HAVE_CUDA
#include "cuda/compile.h"
#include "cuda/cupti_host.h"
#include "cuda/gpu.h"
#include "cuda/l2flush.h"
#include "cuda/nvml.h"
#include "cuda/problem/blas.h"
#include "cuda/session/session.h"

/* A version as CUDA writes it, 12040, as 12.4. */
static void cuda_text(int v, char *out, size_t len)
{
    snprintf(out, len, "%d.%d", v / 1000, (v % 1000) / 10);
}

/* A version as cuBLAS writes it, 130100, as 13.1.0; "?" for 0 (not found). */
static void blas_text(int v, char *out, size_t len)
{
    if (v > 0)
        snprintf(out, len, "%d.%d.%d", v / 10000, v / 100 % 100, v % 100);
    else
        snprintf(out, len, "?");
}

void mmb_cmd_version_print(FILE *f)
{
    char err[512] = "", rt_built[16], rt[16] = "?", nvrtc[16] = "?", drv[16], release[64];
    char blas_built[16], blas[16], blas_lt[16];
    int runtime_built = 0, runtime = 0, driver = 0, nvrtc_major = 0, nvrtc_minor = 0;
    int cublas_built = 0, cublas = 0, cublas_lt = 0;
    unsigned cupti_built = 0, cupti = 0;
    /* each failure is said at the end; the other versions are printed all the same */
    bool versions = mmb_gpu_versions(&runtime_built, &runtime, &driver, err, sizeof err) == 0;
    if (mmb_compile_nvrtc_version(&nvrtc_major, &nvrtc_minor, err, sizeof err) == 0)
        snprintf(nvrtc, sizeof nvrtc, "%d.%d", nvrtc_major, nvrtc_minor);
    bool have_cupti = mmb_cupti_host_version(&cupti_built, &cupti, err, sizeof err) == 0;
    mmb_blas_versions(&cublas_built, &cublas, &cublas_lt, err, sizeof err);
    mmb_nvml_driver_release(release, sizeof release);
    blas_text(cublas_built, blas_built, sizeof blas_built);
    blas_text(cublas, blas, sizeof blas);
    blas_text(cublas_lt, blas_lt, sizeof blas_lt);
    cuda_text(runtime_built, rt_built, sizeof rt_built);
    if (versions)
        cuda_text(runtime, rt, sizeof rt);
    cuda_text(driver, drv, sizeof drv);
    fprintf(f, "mmbench %s (commit %s)\n", MMB_VERSION, mmb_cmd_commit);
    fprintf(f, "built with CUDA %s: runtime %s, NVRTC %s, CUPTI API %u, cuBLAS %s\n", rt_built, rt_built, rt_built,
            cupti_built, blas_built);
    fprintf(f, "found: runtime %s, NVRTC %s, CUPTI API ", rt, nvrtc);
    if (have_cupti)
        fprintf(f, "%u", cupti);
    else
        fputs("?", f);
    fprintf(f, ", cuBLAS %s, cuBLASLt %s, driver: ", blas, blas_lt);
    if (!versions)
        fputs("?", f);
    else if (driver == 0)
        fputs("none found", f);
    else if (release[0])
        fprintf(f, "%s (CUDA %s)", release, drv);
    else
        fprintf(f, "CUDA %s", drv);
    if (versions && driver && driver < runtime)
        fprintf(f, ", older than the runtime: run and tune need a driver of CUDA %s or later", rt);
    fputc('\n', f);
    if (err[0])
        fprintf(f, "(%s)\n", err);
}
#else
void mmb_cmd_version_print(FILE *f)
{
    fprintf(f, "mmbench %s (commit %s)\nbuilt without CUDA: report, check, merge, export and columns work; run, "
            "tune and devices need a build with the CUDA toolkit\n", MMB_VERSION, mmb_cmd_commit);
}
#endif

int mmb_cmd_load_profile(const char *command, const char *path, struct mmb_profile *p,
                         struct mmb_metric_set *metrics)
{
    char err[1024];
    if (mmb_profile_load(path, p, err, sizeof err) != 0) {
        fprintf(stderr, "mmbench %s: %s\n", command, err);
        return -1;
    }
    if (mmb_tune_spec_check(p, err, sizeof err) != 0 || mmb_space_check_restrictions(p, err, sizeof err) != 0 ||
        mmb_profile_check_motivations(p, err, sizeof err) != 0) {
        fprintf(stderr, "mmbench %s: %s\n", command, err);
        mmb_profile_free(p);
        return -1;
    }
    if (mmb_metric_set_parse(p->metrics, metrics, err, sizeof err) != 0) {
        fprintf(stderr, "mmbench %s: %s:%d: metrics: %s\n", command, path, p->metrics_line, err);
        mmb_profile_free(p);
        return -1;
    }
    return 0;
}

void mmb_default_cache_dir(char *out, size_t len)
{
    const char *env = getenv("MMB_CACHE_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    if (env && *env)
        snprintf(out, len, "%s", env);
    else if (xdg && *xdg)
        snprintf(out, len, "%s/mmbench", xdg);
    else
        snprintf(out, len, "%s/.cache/mmbench", home && *home ? home : "/tmp");
}

#ifdef MMB_HAVE_CUDA
int mmb_cmd_l2_flush_method(const char *command, const char **method)
{
    const char *how = getenv("MMB_L2_SWEEP");
    char canon[MMB_L2_FLUSH_METHOD_LEN], err[256];
    int batch;
    *method = how && *how ? how : NULL;
    if ((!*method || mmb_l2_flush_check_method(how, canon, sizeof canon, err, sizeof err) == 0) &&
        mmb_session_batch_size(&batch, err, sizeof err) == 0)
        return 0;
    fprintf(stderr, "mmbench %s: %s\n", command, err);
    return -1;
}
#endif

void mmb_cmd_print_row(const char *command, const struct mmb_row *row, bool clear_progress)
{
    fprintf(stderr, "%smmbench %s: %s %s [%s] %s %lldx%lldx%lld: %s", clear_progress ? "\r\033[K" : "", command,
            row->kernel, row->params[0] ? row->params : "-", row->dtype, row->cache, row->m, row->n, row->k,
            mmb_status_text(row->status));
    if (row->status == MMB_STATUS_OK)
        fprintf(stderr, " %.4f ms, %.1f GFLOP/s\n", row->time_ms_median, row->gflops);
    else
        fprintf(stderr, ": %s\n", row->reason);
}

FILE *mmb_cmd_summary_open(struct mmb_cmd_summary *s, const char *command, bool to_stderr)
{
    *s = (struct mmb_cmd_summary){.f = stdout, .command = command};
    if (to_stderr && !(s->f = open_memstream(&s->text, &s->len)))
        s->f = stderr; /* no memory for the prefixes: the lines as they are */
    return s->f;
}

void mmb_cmd_summary_close(struct mmb_cmd_summary *s)
{
    if (s->f == stdout) {
        fflush(stdout);
        return;
    }
    if (s->f != stderr && fclose(s->f) == 0 && s->text)
        for (const char *line = s->text; *line;) {
            size_t n = strcspn(line, "\n");
            fprintf(stderr, "mmbench %s: %.*s\n", s->command, (int)n, line);
            line += n + (line[n] == '\n');
        }
    free(s->text);
    *s = (struct mmb_cmd_summary){0};
}

/* A group's fastest row in the file stays the fastest but lacks what this sweep would
 * give it (an earlier run measured otherwise): said once per group. */
void mmb_cmd_best_missing_warn(const char *command, const char *kernel, const struct mmb_size *size, const char *csv,
                           unsigned missing)
{
    if (!missing)
        return;
    const char *what = missing == (MMB_BEST_COUNTERS | MMB_BEST_ENERGY) ? "counters and no energy"
                       : missing == MMB_BEST_COUNTERS                   ? "counters"
                                                                        : "energy";
    fprintf(stderr, "mmbench %s: warning: %s at %lldx%lldx%lld: its fastest row in %s has no %s (an earlier run did "
            "not measure them) and stays so (remove the kernel's rows at this size to measure it)\n", command,
            kernel, size->m, size->n, size->k, csv, what);
}
