/* fuzz_tune_history.c - libFuzzer target: a tune's results CSV read back as its
 * history (the resume of `mmbench tune`) and exported as Kernel Tuner T4 JSON, for a
 * fixed kernel space (seed 002's) and problem. */
#include <stddef.h>
#include <stdint.h>

#include "core/expr.h"
#include "fuzz_common.h"
#include "model/space.h"
#include "results/row.h"
#include "results/t4/t4.h"
#include "search/tuner.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct mmb_kernel_spec kernel;
static struct mmb_row identity;

static void add_param(const char *name, const long long *values, int n)
{
    struct mmb_param *p = &kernel.params[kernel.nparams++];
    snprintf(p->name, sizeof p->name, "%s", name);
    memcpy(p->values, values, sizeof values[0] * (size_t)n);
    p->nvalues = n;
}

static void setup(void)
{
    static const long long bx[] = {16, 32, 64}, by[] = {1, 2, 4, 8, 16, 32}, t[] = {1, 2, 4, 8};
    char err[256];
    snprintf(kernel.name, sizeof kernel.name, "tunable");
    add_param("block_size_x", bx, 3);
    add_param("block_size_y", by, 6);
    add_param("tile_size_x", t, 4);
    add_param("tile_size_y", t, 4);
    kernel.restrictions[0].expr = mmb_expr_parse("block_size_x == block_size_y * tile_size_y", err, sizeof err);
    if (!kernel.restrictions[0].expr)
        abort();
    kernel.nrestrictions = 1;
    mmb_row_init(&identity);
    snprintf(identity.gpu, sizeof identity.gpu, "NVIDIA H100 80GB HBM3");
    snprintf(identity.profile, sizeof identity.profile, "tune-seed");
    snprintf(identity.kernel, sizeof identity.kernel, "tunable");
    snprintf(identity.dtype, sizeof identity.dtype, "f32");
    snprintf(identity.cache, sizeof identity.cache, "cold");
    identity.m = identity.n = identity.k = 4096;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!kernel.nparams)
        setup();
    const char *path = fuzz_file("tune.csv", data, size);
    char err[1024], t4[200];
    size_t loaded = 0, stale = 0, count = 0;
    struct mmb_tune_history *h = mmb_tune_history_new();
    if (!h)
        abort();
    snprintf(t4, sizeof t4, "%s.t4.json", path);
    if (mmb_tune_history_load(h, path, &kernel, &identity, &loaded, &stale, err, sizeof err) == 0)
        mmb_tune_history_export_t4(h, "time", NULL, NULL, t4, &count, err, sizeof err);
    mmb_tune_history_free(h);
    return 0;
}
