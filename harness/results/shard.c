/* shard.c - which runs a shard takes (a hash of the row's key text), the text of a
 * shard, its parts, and the names of shard files. */
#include "results/shard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/hash.h"

/* Digits only (no sign, no space), at most 9 of them; -1 otherwise. */
static long long whole(const char *s, size_t len)
{
    if (len == 0 || len > 9)
        return -1;
    long long v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = 10 * v + (s[i] - '0');
    }
    return v;
}

int mmb_shard_parse(const char *text, struct mmb_shard *out, char *err, size_t errlen)
{
    const char *slash = strchr(text, '/');
    long long k = slash ? whole(text, (size_t)(slash - text)) : -1;
    long long n = slash ? whole(slash + 1, strlen(slash + 1)) : -1;
    if (k < 1 || n < 1 || k > n || n > MMB_SHARD_MAX)
        return mmb_failf(err, errlen, "expects K/N, shard K of N with 1 <= K <= N <= %d (such as 2/4), not '%s'",
                         MMB_SHARD_MAX, text);
    out->k = (unsigned)k;
    out->n = (unsigned)n;
    return 0;
}

bool mmb_shard_is_all(const struct mmb_shard *s)
{
    return s->n == 0;
}

void mmb_shard_text(const struct mmb_shard *s, char *out, size_t len)
{
    if (mmb_shard_is_all(s))
        snprintf(out, len, "all");
    else
        snprintf(out, len, "%u/%u", s->k, s->n);
}

uint64_t mmb_shard_hash(const char *kernel, const char *params, const char *dtype, long long m, long long n,
                        long long k)
{
    char text[512];
    int len = snprintf(text, sizeof text, "%s\x1f%s\x1f%s\x1f%lld\x1f%lld\x1f%lld", kernel, params, dtype, m, n, k);
    size_t used = len < 0 ? 0 : (size_t)len < sizeof text ? (size_t)len : sizeof text - 1;
    uint64_t z = mmb_hash_bytes(MMB_FNV_SEED, text, used);
    /* FNV-1a's low bits follow the last bytes closely (sizes that differ in their
     * last digit); the finaliser spreads every bit over the remainder. */
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

unsigned mmb_shard_of(const char *kernel, const char *params, const char *dtype, long long m, long long n,
                      long long k, unsigned nshards)
{
    if (nshards <= 1)
        return 1;
    return (unsigned)(mmb_shard_hash(kernel, params, dtype, m, n, k) % nshards) + 1;
}

bool mmb_shard_has_row(const struct mmb_shard *s, const struct mmb_row *row)
{
    if (mmb_shard_is_all(s))
        return true;
    return mmb_shard_of(row->kernel, row->params, row->dtype, row->m, row->n, row->k, s->n) == s->k;
}

int mmb_shard_split(const struct mmb_shard *s, unsigned part, unsigned parts, struct mmb_shard *out)
{
    unsigned k = mmb_shard_is_all(s) ? 1 : s->k, n = mmb_shard_is_all(s) ? 1 : s->n;
    if (parts == 0 || part >= parts || parts > MMB_SHARD_PARTS_MAX)
        return -1;
    if (parts == 1) {
        *out = *s;
        return 0;
    }
    out->k = k + n * part;
    out->n = n * parts;
    return 0;
}

void mmb_shard_device_part(const char *const *models, int n, int me, unsigned *part, unsigned *parts)
{
    *part = 0;
    *parts = 0;
    for (int i = 0; i < n; i++)
        if (!strcmp(models[i], models[me])) {
            *part += i < me;
            ++*parts;
        }
}

int mmb_shard_path(const char *csv_path, const struct mmb_shard *s, char *out, size_t len)
{
    size_t stem = strlen(csv_path);
    if (stem >= 4 && !strcmp(csv_path + stem - 4, ".csv"))
        stem -= 4;
    int w = mmb_shard_is_all(s) ? snprintf(out, len, "%s", csv_path)
                                : snprintf(out, len, "%.*s.shard-%u-of-%u.csv", (int)stem, csv_path, s->k, s->n);
    return w < 0 || (size_t)w >= len ? -1 : 0;
}

bool mmb_shard_path_parse(const char *path, size_t *stem_len, struct mmb_shard *out)
{
    size_t len = strlen(path);
    if (len < 4 || strcmp(path + len - 4, ".csv") != 0)
        return false;
    const char *mark = NULL;
    for (const char *p = strstr(path, ".shard-"); p; p = strstr(p + 1, ".shard-"))
        mark = p; /* the last one: a folder may be called x.shard-y */
    if (!mark)
        return false;
    const char *k = mark + 7, *of = strstr(k, "-of-");
    if (!of)
        return false;
    long long kv = whole(k, (size_t)(of - k)), nv = whole(of + 4, (size_t)(path + len - 4 - (of + 4)));
    if (kv < 1 || nv < 1 || kv > nv || nv > MMB_SHARD_MAX)
        return false;
    *stem_len = (size_t)(mark - path);
    *out = (struct mmb_shard){(unsigned)kv, (unsigned)nv};
    return true;
}

struct shard_file {
    const char *path;
    size_t stem; /* length of path up to ".shard-" */
    struct mmb_shard s;
};

/* By CSV (the stem), then N, then K, then the name: equal shards side by side. */
static int shard_file_cmp(const void *a, const void *b)
{
    const struct shard_file *x = a, *y = b;
    size_t common = x->stem < y->stem ? x->stem : y->stem;
    int c = memcmp(x->path, y->path, common);
    if (c || x->stem != y->stem)
        return c ? c : (x->stem < y->stem ? -1 : 1);
    if (x->s.n != y->s.n)
        return x->s.n < y->s.n ? -1 : 1;
    if (x->s.k != y->s.k)
        return x->s.k < y->s.k ? -1 : 1;
    return strcmp(x->path, y->path);
}

int mmb_shard_paths_check(char *const *paths, size_t n, char *err, size_t errlen)
{
    struct shard_file *f = malloc((n ? n : 1) * sizeof *f);
    if (!f)
        return mmb_failf(err, errlen, "out of memory");
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (mmb_shard_path_parse(paths[i], &f[m].stem, &f[m].s))
            f[m++].path = paths[i];
    if (m > 1)
        qsort(f, m, sizeof *f, shard_file_cmp);
    int rc = 0;
    for (size_t i = 1; i < m && rc == 0; i++) {
        const struct shard_file *a = &f[i - 1], *b = &f[i];
        if (a->stem != b->stem || memcmp(a->path, b->path, a->stem) != 0)
            continue;
        if (a->s.n == b->s.n && a->s.k == b->s.k)
            rc = mmb_failf(err, errlen, "%s and %s name one shard, %u/%u of %.*s.csv: expected one file per shard (a "
                           "leading zero spells the same number); remove one of them", a->path, b->path, a->s.k,
                           a->s.n, (int)a->stem, a->path);
        else if (a->s.n != b->s.n)
            rc = mmb_failf(err, errlen, "%s and %s: shards of %u and of %u of %.*s.csv: expected one N (a shard's "
                           "runs depend on N); remove the files of the N you do not want", a->path, b->path, a->s.n,
                           b->s.n, (int)a->stem, a->path);
    }
    free(f);
    return rc;
}

bool mmb_shard_takes(const struct mmb_shard *s, const struct mmb_kernel_spec *kernel, const struct mmb_config *cfg,
                     const struct mmb_size *size, enum mmb_dtype dtype)
{
    if (mmb_shard_is_all(s))
        return true;
    char params[MMB_PARAMS_LEN];
    mmb_space_format_params(kernel, cfg, params, sizeof params);
    return mmb_shard_of(kernel->name, params, mmb_dtype_info(dtype)->text, size->m, size->n, size->k, s->n) == s->k;
}

int mmb_shard_each_run(const struct mmb_profile *p, const struct mmb_shard *s,
                       int (*fn)(void *ctx, const struct mmb_shard_run *run), void *ctx)
{
    struct mmb_shard_run run;
    for (int si = 0; si < p->nsizes; si++)
        for (int d = 0; d < MMB_DTYPE_COUNT; d++) {
            if (!(p->dtypes & (1u << d)))
                continue;
            for (int ki = 0; ki < p->nkernels; ki++) {
                const struct mmb_kernel_spec *k = &p->kernels[ki];
                if (!mmb_kernel_runs_dtype(p, k, (enum mmb_dtype)d))
                    continue;
                size_t count = mmb_space_size(k);
                for (size_t i = 0; i < count; i++) {
                    run.kernel = k;
                    run.index = i;
                    run.size = &p->sizes[si];
                    run.dtype = (enum mmb_dtype)d;
                    mmb_space_config_at(k, i, &run.cfg);
                    mmb_space_format_params(k, &run.cfg, run.params, sizeof run.params);
                    if (!mmb_shard_is_all(s) &&
                        mmb_shard_of(k->name, run.params, mmb_dtype_info(run.dtype)->text, run.size->m,
                                     run.size->n, run.size->k, s->n) != s->k)
                        continue;
                    int failed;
                    char why[64];
                    run.allowed = mmb_space_allowed(k, &run.cfg, run.size, mmb_dtype_info(run.dtype)->size, &failed,
                                                    why, sizeof why);
                    int rc = fn(ctx, &run);
                    if (rc)
                        return rc;
                }
            }
        }
    return 0;
}
