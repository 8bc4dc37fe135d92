/* shard.h - a share of a profile's runs for one machine or one GPU. `--shard K/N`
 * takes the runs (configuration x size x dtype) whose key text hashes to K-1 modulo
 * N: every machine computes the same split from the row alone, without the rest of
 * the profile, so a run keeps its shard when the profile gains or loses a kernel.
 * A shard's rows go to a file of its own beside the unsharded one. */
#ifndef MMB_SHARD_H
#define MMB_SHARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/dtype.h"
#include "model/profile.h"
#include "model/space.h"
#include "results/row.h"

/* N at most on the command line (a Slurm array of that many tasks). */
#define MMB_SHARD_MAX 4096
/* Parts one shard splits into at most (the GPUs of one model on a node). */
#define MMB_SHARD_PARTS_MAX 64

struct mmb_shard {
    unsigned k, n; /* 1 <= k <= n; n == 0: everything, not sharded */
};

/* "K/N" with 1 <= K <= N <= MMB_SHARD_MAX, both whole decimal numbers. Returns 0, or
 * -1 with err saying what was expected. */
int mmb_shard_parse(const char *text, struct mmb_shard *out, char *err, size_t errlen);
/* "2/4", or "all" when not sharded. */
void mmb_shard_text(const struct mmb_shard *s, char *out, size_t len);
bool mmb_shard_is_all(const struct mmb_shard *s);

/* The rule, documented in docs/profiles.md: FNV-1a 64 of the text
 * "KERNEL\x1fPARAMS\x1fDTYPE\x1fM\x1fN\x1fK" (the row's cells as the CSV holds them),
 * then splitmix64's finaliser; the run belongs to shard (hash mod N) + 1. */
uint64_t mmb_shard_hash(const char *kernel, const char *params, const char *dtype, long long m, long long n,
                        long long k);
/* The shard (1..n) of a run; 1 when n <= 1. */
unsigned mmb_shard_of(const char *kernel, const char *params, const char *dtype, long long m, long long n,
                      long long k, unsigned nshards);
/* Whether s takes the run of row (its kernel, params, dtype, m, n, k); always when
 * s is everything. */
bool mmb_shard_has_row(const struct mmb_shard *s, const struct mmb_row *row);

/* Part `part` (0-based) of `parts` of shard s: the runs of s whose hash modulo
 * N x parts is (K - 1) + N x part, i.e. shard (K + N part)/(N parts), so that the parts
 * of one shard are disjoint, cover it, and follow the same rule. s may be everything
 * (then the parts are shards part+1/parts). -1 when N x parts would not fit. */
int mmb_shard_split(const struct mmb_shard *s, unsigned part, unsigned parts, struct mmb_shard *out);

/* The part of its model's work that GPU `me` of the GPUs 0..n-1 working at once takes,
 * when models[i] names GPU i's model (its data folder): *part counts the GPUs before
 * it of its model, *parts all of them. */
void mmb_shard_device_part(const char *const *models, int n, int me, unsigned *part, unsigned *parts);

/* "data/h100/course.csv" and 2/4 -> "data/h100/course.shard-2-of-4.csv" (".csv" is
 * appended when the path lacks it); the path itself when s is everything. -1 when
 * out is too small. */
int mmb_shard_path(const char *csv_path, const struct mmb_shard *s, char *out, size_t len);
/* Whether path names a shard file ("STEM.shard-K-of-N.csv" with 1 <= K <= N <=
 * MMB_SHARD_MAX); *stem_len is the length of path up to ".shard-", so that the
 * unsharded file is that prefix + ".csv". */
bool mmb_shard_path_parse(const char *path, size_t *stem_len, struct mmb_shard *out);

/* Checks the shard files among paths[0..n) (other paths are left alone): -1 with err
 * naming both files when two of them name one shard of one CSV (a leading zero spells
 * the same number: x.shard-1-of-2.csv and x.shard-01-of-2.csv), or when one CSV has
 * shards of two N (their runs overlap); 0 otherwise, or -1 without memory. Which pair
 * is named does not depend on the order of paths. */
int mmb_shard_paths_check(char *const *paths, size_t n, char *err, size_t errlen);

/* One run of a profile: a configuration of a kernel at a size and dtype, with the
 * params text its row carries. */
struct mmb_shard_run {
    const struct mmb_kernel_spec *kernel;
    size_t index;                 /* in the kernel's space */
    struct mmb_config cfg;
    const struct mmb_size *size;
    enum mmb_dtype dtype;
    char params[MMB_PARAMS_LEN];
    int allowed;                  /* mmb_space_allowed: 1, 0 restricted, -1 invalid */
};

/* Whether s takes kernel's configuration cfg at size and dtype (its params text
 * hashed as the row will carry it). */
bool mmb_shard_takes(const struct mmb_shard *s, const struct mmb_kernel_spec *kernel, const struct mmb_config *cfg,
                     const struct mmb_size *size, enum mmb_dtype dtype);

/* Calls fn for every run of the profile that s takes, restricted ones included (see
 * run->allowed), in the sweep's order: size, dtype, kernel, configuration. Stops at
 * and returns fn's first non-zero value; 0 when all were seen. */
int mmb_shard_each_run(const struct mmb_profile *p, const struct mmb_shard *s,
                       int (*fn)(void *ctx, const struct mmb_shard_run *run), void *ctx);

#endif
