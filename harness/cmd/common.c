/* common.c - what every subcommand shares: loading a profile with all its checks
 * (its metric set parsed once, here), the sweep's settings from the environment, and
 * the line each row prints. */
#include "cmd/common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/space.h"
#include "search/tune_spec.h"

#ifdef MMB_HAVE_CUDA
#include "cuda/l2flush.h"
#include "cuda/session/session.h"
#endif

int mmb_cmd_load_profile(const char *command, const char *path, struct mmb_profile *p,
                         struct mmb_metric_set *metrics)
{
    char err[1024];
    if (mmb_profile_load(path, p, err, sizeof err) != 0) {
        fprintf(stderr, "mmbench %s: %s\n", command, err);
        return -1;
    }
    if (mmb_tune_spec_check(p, err, sizeof err) != 0 || mmb_space_check_restrictions(p, err, sizeof err) != 0) {
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

void mmb_cmd_print_row(const struct mmb_row *row, bool clear_progress)
{
    fprintf(stderr, "%s%s %s [%s] %s %lldx%lldx%lld: %s", clear_progress ? "\r\033[K" : "", row->kernel,
            row->params[0] ? row->params : "-", row->dtype, row->cache, row->m, row->n, row->k,
            mmb_status_text(row->status));
    if (row->status == MMB_STATUS_OK)
        fprintf(stderr, " %.4f ms, %.1f GFLOP/s\n", row->time_ms_median, row->gflops);
    else
        fprintf(stderr, ": %s\n", row->reason);
}
