/* space.c - a kernel's parameter space: configurations by index, restrictions,
 * launch geometry, and the "name=value;..." text that identifies a configuration in
 * CSV rows and tune caches. */
#include "model/space.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "model/params.h"

struct scope {
    const struct mmb_kernel_spec *kernel;
    const struct mmb_config *cfg;
    const struct mmb_size *size;
    long long elem_size;
    long long sm_count; /* the device's multiprocessors; 0 where no device is known (planning) */
    long long active_clusters; /* max_active_clusters; 0 where not known (before the module is loaded) */
};

static bool name_is(const char *name, size_t len, const char *want)
{
    return strlen(want) == len && !memcmp(name, want, len);
}

static bool scope_lookup(void *ctx, const char *name, size_t len, long long *value)
{
    const struct scope *s = ctx;
    for (int i = 0; i < s->kernel->nparams; i++) {
        if (name_is(name, len, s->kernel->params[i].name)) {
            *value = s->cfg->values[i];
            return true;
        }
    }
    const long long vars[] = {s->size->m, s->size->n, s->size->k, s->elem_size};
    const char *const names[] = {"M", "N", "K", "elem_size"};
    for (int i = 0; i < 4; i++) {
        if (name_is(name, len, names[i])) {
            *value = vars[i];
            return true;
        }
    }
    if (s->sm_count > 0 && name_is(name, len, "sm_count")) {
        *value = s->sm_count;
        return true;
    }
    if (s->active_clusters > 0 && name_is(name, len, "max_active_clusters")) {
        *value = s->active_clusters;
        return true;
    }
    return false;
}

size_t mmb_space_size(const struct mmb_kernel_spec *kernel)
{
    size_t n = 1;
    for (int i = 0; i < kernel->nparams; i++)
        n *= (size_t)kernel->params[i].nvalues;
    return n;
}

void mmb_space_config_at(const struct mmb_kernel_spec *kernel, size_t index, struct mmb_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    /* Mixed radix with the last parameter as the fastest digit. */
    for (int i = kernel->nparams - 1; i >= 0; i--) {
        size_t n = (size_t)kernel->params[i].nvalues;
        cfg->values[i] = kernel->params[i].values[index % n];
        index /= n;
    }
}

int mmb_space_allowed(const struct mmb_kernel_spec *kernel, const struct mmb_config *cfg,
                      const struct mmb_size *size, size_t elem_size, int *failed,
                      char *err, size_t errlen)
{
    struct scope s = {kernel, cfg, size, (long long)elem_size, 0, 0};
    for (int i = 0; i < kernel->nrestrictions; i++) {
        long long v;
        char eerr[512];
        if (mmb_expr_eval(kernel->restrictions[i].expr, scope_lookup, &s, &v, eerr, sizeof eerr)) {
            if (failed)
                *failed = i;
            return mmb_failf(err, errlen, "kernel '%s', restriction at line %d: %s", kernel->name,
                             kernel->restrictions[i].line, eerr);
        }
        if (!v) {
            if (failed)
                *failed = i;
            return 0;
        }
    }
    return 1;
}

/* A missing expression (a kernel built without mmb_profile_load) takes the
 * profile's default; so does every field of a loaded profile that was not set. */
static int eval_or(const struct mmb_expr *e, const char *what, long long fallback, struct scope *s,
                   long long *out, char *err, size_t errlen)
{
    if (!e) {
        *out = fallback;
        return 0;
    }
    char eerr[512];
    if (mmb_expr_eval(e, scope_lookup, s, out, eerr, sizeof eerr))
        return mmb_failf(err, errlen, "kernel '%s', %s: %s", s->kernel->name, what, eerr);
    return 0;
}

static long long param_or_one(const struct mmb_kernel_spec *k, const struct mmb_config *cfg, const char *name)
{
    for (int i = 0; i < k->nparams; i++)
        if (!strcmp(k->params[i].name, name))
            return cfg->values[i];
    return 1;
}

static int names_active_clusters(void *ctx, const char *name, size_t len, size_t column)
{
    return name_is(name, len, "max_active_clusters");
}

/* The grid, from the divisors unless grid_x, grid_y or grid_z say otherwise; left
 * pending (zero) when one of those names max_active_clusters and s does not know it. */
static int eval_grid(const struct mmb_kernel_spec *kernel, struct scope *s, struct mmb_geometry *geo, char *err,
                     size_t errlen)
{
    const struct mmb_expr *divs[2] = {kernel->grid_div_x, kernel->grid_div_y};
    static const char *const div_names[2] = {"grid_div_x", "grid_div_y"};
    const long long extent[2] = {s->size->n, s->size->m}; /* x runs along the columns of C */
    for (int i = 0; i < 2; i++) {
        long long div;
        if (eval_or(divs[i], div_names[i], geo->block[i], s, &div, err, errlen))
            return -1;
        if (div < 1)
            return mmb_failf(err, errlen, "kernel '%s': %s is %lld; expected at least 1", kernel->name, div_names[i],
                        div);
        geo->grid[i] = extent[i] / div + (extent[i] % div != 0);
    }
    geo->grid[2] = 1;
    const struct mmb_expr *grids[3] = {kernel->grid_x, kernel->grid_y, kernel->grid_z};
    static const char *const grid_names[3] = {"grid_x", "grid_y", "grid_z"};
    geo->grid_pending = false;
    for (int i = 0; i < 3; i++)
        geo->grid_pending |= grids[i] && !s->active_clusters && mmb_expr_each_name(grids[i], names_active_clusters, NULL);
    if (geo->grid_pending) {
        memset(geo->grid, 0, sizeof geo->grid);
        return 0;
    }
    for (int i = 0; i < 3; i++) {
        if (!grids[i])
            continue;
        if (eval_or(grids[i], grid_names[i], geo->grid[i], s, &geo->grid[i], err, errlen))
            return -1;
        if (geo->grid[i] < 1)
            return mmb_failf(err, errlen, "kernel '%s': %s is %lld; expected at least 1", kernel->name,
                             grid_names[i], geo->grid[i]);
    }
    for (int i = 0; i < 3; i++)
        if (geo->grid[i] % geo->cluster[i])
            return mmb_failf(err, errlen, "kernel '%s': the grid, %lldx%lldx%lld blocks, is not a whole number of "
                             "clusters of %lldx%lldx%lld", kernel->name, geo->grid[0], geo->grid[1], geo->grid[2],
                             geo->cluster[0], geo->cluster[1], geo->cluster[2]);
    return 0;
}

int mmb_space_geometry(const struct mmb_kernel_spec *kernel, const struct mmb_config *cfg,
                       const struct mmb_size *size, size_t elem_size, int sm_count,
                       struct mmb_geometry *geo, char *err, size_t errlen)
{
    struct scope s = {kernel, cfg, size, (long long)elem_size, sm_count, 0};
    const struct mmb_expr *blocks[3] = {kernel->block_x, kernel->block_y, kernel->block_z};
    static const char *const block_names[3] = {"block_x", "block_y", "block_z"};
    static const char *const block_params[3] = {"block_size_x", "block_size_y", "block_size_z"};
    const struct mmb_expr *clusters[3] = {kernel->cluster_x, kernel->cluster_y, kernel->cluster_z};
    static const char *const cluster_names[3] = {"cluster_x", "cluster_y", "cluster_z"};
    memset(geo, 0, sizeof *geo);
    for (int i = 0; i < 3; i++) {
        if (eval_or(blocks[i], block_names[i], param_or_one(kernel, cfg, block_params[i]), &s, &geo->block[i],
                    err, errlen))
            return -1;
        if (geo->block[i] < 1)
            return mmb_failf(err, errlen, "kernel '%s': %s is %lld; expected at least 1", kernel->name,
                        block_names[i], geo->block[i]);
        if (eval_or(clusters[i], cluster_names[i], 1, &s, &geo->cluster[i], err, errlen))
            return -1;
        if (geo->cluster[i] < 1)
            return mmb_failf(err, errlen, "kernel '%s': %s is %lld; expected at least 1", kernel->name,
                             cluster_names[i], geo->cluster[i]);
    }
    if (eval_or(kernel->smem, "smem", 0, &s, &geo->smem_bytes, err, errlen))
        return -1;
    if (geo->smem_bytes < 0)
        return mmb_failf(err, errlen, "kernel '%s': smem is %lld bytes; expected 0 or more", kernel->name,
                    geo->smem_bytes);
    return eval_grid(kernel, &s, geo, err, errlen);
}

int mmb_space_grid(const struct mmb_kernel_spec *kernel, const struct mmb_config *cfg, const struct mmb_size *size,
                   size_t elem_size, int sm_count, long long max_active_clusters, struct mmb_geometry *geo, char *err,
                   size_t errlen)
{
    if (max_active_clusters < 1)
        return mmb_failf(err, errlen, "kernel '%s': max_active_clusters is %lld; not one cluster of this "
                         "configuration fits on the device", kernel->name, max_active_clusters);
    struct scope s = {kernel, cfg, size, (long long)elem_size, sm_count, max_active_clusters};
    return eval_grid(kernel, &s, geo, err, errlen);
}

void mmb_space_format_params(const struct mmb_kernel_spec *kernel, const struct mmb_config *cfg,
                             char *buf, size_t len)
{
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    for (int i = 0; i < kernel->nparams; i++)
        mmb_params_append(buf, len, &used, kernel->params[i].name, cfg->values[i]);
}

int mmb_space_parse_params(const struct mmb_kernel_spec *kernel, const char *text,
                           struct mmb_config *cfg, size_t *index)
{
    int digit[MMB_MAX_PARAMS];
    bool seen[MMB_MAX_PARAMS] = {false};
    int nseen = 0, more;
    memset(cfg, 0, sizeof *cfg);
    struct mmb_params_item item;
    for (const char *s = text; (more = mmb_params_next(&s, &item)) != 0;) {
        if (more < 0)
            return -1;
        int i = 0;
        while (i < kernel->nparams && !name_is(item.name, item.name_len, kernel->params[i].name))
            i++;
        if (i == kernel->nparams || seen[i])
            return -1;
        const struct mmb_param *p = &kernel->params[i];
        int j = 0;
        while (j < p->nvalues && p->values[j] != item.value)
            j++;
        if (j == p->nvalues)
            return -1;
        seen[i] = true;
        nseen++;
        digit[i] = j;
        cfg->values[i] = item.value;
    }
    if (nseen != kernel->nparams)
        return -1;
    if (index) {
        size_t idx = 0;
        for (int i = 0; i < kernel->nparams; i++)
            idx = idx * (size_t)kernel->params[i].nvalues + (size_t)digit[i];
        *index = idx;
    }
    return 0;
}

int mmb_space_check_restrictions(const struct mmb_profile *p, char *err, size_t errlen)
{
    for (int ki = 0; ki < p->nkernels; ki++) {
        const struct mmb_kernel_spec *k = &p->kernels[ki];
        size_t n = k->nrestrictions ? mmb_space_size(k) : 0;
        for (size_t i = 0; i < n; i++) {
            struct mmb_config cfg;
            mmb_space_config_at(k, i, &cfg);
            for (int si = 0; si < p->nsizes; si++)
                for (int d = 0; d < MMB_DTYPE_COUNT; d++) {
                    if (!mmb_kernel_runs_dtype(p, k, (enum mmb_dtype)d))
                        continue;
                    int which = -1;
                    char why[512];
                    if (mmb_space_allowed(k, &cfg, &p->sizes[si], mmb_dtype_info((enum mmb_dtype)d)->size, &which,
                                          why, sizeof why) >= 0)
                        continue;
                    char params[MMB_PARAMS_LEN];
                    mmb_space_format_params(k, &cfg, params, sizeof params);
                    const char *colon = strstr(why, ": ");
                    return mmb_failf(err, errlen, "%s:%d: restriction '%s' of kernel '%s' cannot be evaluated at %s, "
                                     "size %lldx%lldx%lld, %s; expected a value at every configuration: %s",
                                     p->path, k->restrictions[which].line, mmb_expr_text(k->restrictions[which].expr),
                                     k->name, params[0] ? params : "no parameters", p->sizes[si].m, p->sizes[si].n,
                                     p->sizes[si].k, mmb_dtype_info((enum mmb_dtype)d)->text,
                                     colon ? colon + 2 : why);
                }
        }
    }
    return 0;
}

/* An int the kernel receives: the value must fit. */
static int eval_int(const struct mmb_expr *e, const char *what, struct scope *s, int *out, char *err, size_t errlen)
{
    long long v;
    if (eval_or(e, what, 0, s, &v, err, errlen))
        return -1;
    if (v < INT32_MIN || v > INT32_MAX)
        return mmb_failf(err, errlen, "kernel '%s', %s = %lld does not fit the kernel's int", s->kernel->name, what, v);
    *out = (int)v;
    return 0;
}

int mmb_space_int_args(const struct mmb_kernel_spec *kernel, const struct mmb_config *cfg,
                       const struct mmb_size *size, size_t elem_size, int *values, char *err, size_t errlen)
{
    struct scope s = {kernel, cfg, size, (long long)elem_size, 0, 0};
    for (int i = 0; i < kernel->nargs; i++) {
        char what[32];
        snprintf(what, sizeof what, "argument %d", i + 1);
        values[i] = 0;
        if (kernel->args[i].kind == MMB_ARG_INT && eval_int(kernel->args[i].expr, what, &s, &values[i], err, errlen))
            return -1;
    }
    return 0;
}

int mmb_space_define_values(const struct mmb_kernel_spec *kernel, const struct mmb_config *cfg,
                            const struct mmb_size *size, size_t elem_size, long long *values, char *err,
                            size_t errlen)
{
    struct scope s = {kernel, cfg, size, (long long)elem_size, 0, 0};
    for (int i = 0; i < kernel->ndefines; i++)
        if (eval_or(kernel->defines[i].expr, kernel->defines[i].name, 0, &s, &values[i], err, errlen))
            return -1;
    return 0;
}

int mmb_space_tma_box(const struct mmb_kernel_spec *kernel, int arg, const struct mmb_config *cfg,
                      const struct mmb_size *size, size_t elem_size, struct mmb_tma_box *box, char *err, size_t errlen)
{
    const struct mmb_kernel_arg *a = &kernel->args[arg];
    struct scope s = {kernel, cfg, size, (long long)elem_size, 0, 0};
    char what[48];
    memset(box, 0, sizeof *box);
    box->matrix = a->matrix;
    const struct mmb_expr *e[3] = {a->box_inner, a->box_outer, a->swizzle};
    long long *out[3] = {&box->inner, &box->outer, &box->swizzle};
    static const char *const names[3] = {"box_inner", "box_outer", "swizzle"};
    for (int i = 0; i < 3; i++) {
        snprintf(what, sizeof what, "argument %d, tma() %s", arg + 1, names[i]);
        if (eval_or(e[i], what, 0, &s, out[i], err, errlen))
            return -1;
    }
    return 0;
}
