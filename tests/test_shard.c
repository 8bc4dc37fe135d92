/* test_shard.c - shards without a GPU: K/N parsed strictly; over the shipped profiles
 * every run lands in exactly one of N shards for N = 1..8, and every run of a shard in
 * exactly one of its parts (the GPUs of one model); a run keeps its shard when the
 * profile gains or loses a kernel; shard file names round-trip; the GPUs of a node
 * split their model's work, and GPUs of one model in one file each have their rows. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_run.h"
#include "csv_rows.h"
#include "profile_fixture.h"
#include "results/csv.h"
#include "results/shard.h"
#include "tmpdir.h"




static struct mmb_profile *load(const char *path)
{
    struct mmb_profile *p = calloc(1, sizeof *p);
    char err[1024];
    ck_assert_ptr_nonnull(p);
    ck_assert_msg(mmb_profile_load(path, p, err, sizeof err) == 0, "%s", err);
    return p;
}

static struct mmb_profile *load_shipped(const char *name)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/profiles/%s", root, name);
    return load(path);
}

/* ---- runs as key texts ---- */

struct keys {
    char (*v)[384];
    size_t n, cap;
};

static void run_key(const struct mmb_shard_run *r, char *out, size_t len)
{
    snprintf(out, len, "%s|%s|%s|%lldx%lldx%lld", r->kernel->name, r->params, mmb_dtype_info(r->dtype)->text,
             r->size->m, r->size->n, r->size->k);
}

static int add_key(void *ctx, const struct mmb_shard_run *r)
{
    struct keys *k = ctx;
    if (k->n == k->cap) {
        k->cap = k->cap ? 2 * k->cap : 256;
        k->v = realloc(k->v, k->cap * sizeof *k->v);
        ck_assert_ptr_nonnull(k->v);
    }
    run_key(r, k->v[k->n++], sizeof k->v[0]);
    return 0;
}

static int key_cmp(const void *a, const void *b)
{
    return strcmp(a, b);
}

static struct keys keys_of(const struct mmb_profile *p, const struct mmb_shard *s)
{
    struct keys k = {0};
    ck_assert_int_eq(mmb_shard_each_run(p, s, add_key, &k), 0);
    if (k.n)
        qsort(k.v, k.n, sizeof k.v[0], key_cmp);
    return k;
}

static bool keys_have(const struct keys *k, const char *key)
{
    return k->n && bsearch(key, k->v, k->n, sizeof k->v[0], key_cmp) != NULL;
}

/* ---- tests ---- */

START_TEST(test_parse)
{
    struct mmb_shard s;
    char err[256], text[32];
    ck_assert_int_eq(mmb_shard_parse("2/4", &s, err, sizeof err), 0);
    ck_assert_uint_eq(s.k, 2);
    ck_assert_uint_eq(s.n, 4);
    mmb_shard_text(&s, text, sizeof text);
    ck_assert_str_eq(text, "2/4");
    ck_assert_int_eq(mmb_shard_parse("1/1", &s, err, sizeof err), 0);
    ck_assert_int_eq(mmb_shard_parse("4096/4096", &s, err, sizeof err), 0);
    const char *bad[] = {"", "2", "/4", "2/", "0/4", "5/4", "-1/4", "+1/4", "1/4097", "1/4x", " 1/4", "1//4",
                         "1/4/4", "99999999999/4"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_msg(mmb_shard_parse(bad[i], &s, err, sizeof err) == -1, "'%s' was taken", bad[i]);
        ck_assert_msg(strstr(err, "expects K/N"), "%s", err);
    }
    struct mmb_shard all = {0, 0};
    mmb_shard_text(&all, text, sizeof text);
    ck_assert_str_eq(text, "all");
}
END_TEST

/* Every run in exactly one shard, for N = 1..8, over a profile. */
static void check_cover(const char *name)
{
    struct mmb_profile *p = load_shipped(name);
    struct mmb_shard all = {0, 0};
    struct keys whole = keys_of(p, &all);
    ck_assert_uint_gt(whole.n, 0);
    for (unsigned n = 1; n <= 8; n++) {
        unsigned *seen = calloc(whole.n, sizeof *seen);
        size_t total = 0;
        for (unsigned k = 1; k <= n; k++) {
            struct mmb_shard s = {k, n};
            struct keys part = keys_of(p, &s);
            total += part.n;
            for (size_t i = 0; i < part.n; i++) {
                char (*at)[384] = bsearch(part.v[i], whole.v, whole.n, sizeof whole.v[0], key_cmp);
                ck_assert_msg(at != NULL, "%s: %s in shard %u/%u is not a run", name, part.v[i], k, n);
                seen[at - whole.v]++;
            }
            /* a hash, not a deal: no shard is starved on these sizes of profile */
            if (whole.n >= 40 * n)
                ck_assert_msg(part.n * 2 * n >= whole.n, "%s: shard %u/%u has %zu of %zu runs", name, k, n, part.n,
                              whole.n);
            free(part.v);
        }
        ck_assert_uint_eq(total, whole.n);
        for (size_t i = 0; i < whole.n; i++)
            ck_assert_msg(seen[i] == 1, "%s: %s is in %u shards of %u", name, whole.v[i], seen[i], n);
        free(seen);
    }
    free(whole.v);
    unload(p);
}

START_TEST(test_every_run_once)
{
    check_cover("tune-seed.ini");
    check_cover("course.ini");
    check_cover("dtypes.ini");
}
END_TEST

/* The parts of a shard (GPUs of one model) are disjoint and cover it. */
START_TEST(test_parts_cover_shard)
{
    struct mmb_profile *p = load_shipped("course.ini");
    struct mmb_shard all = {0, 0};
    struct keys whole = keys_of(p, &all);
    for (unsigned n = 0; n <= 3; n++)
        for (unsigned k = n ? 1 : 0; k <= n; k++) {
            struct mmb_shard s = {k, n};
            struct keys mine = keys_of(p, &s);
            for (unsigned parts = 1; parts <= 8; parts++) {
                size_t total = 0;
                for (unsigned j = 0; j < parts; j++) {
                    struct mmb_shard sub;
                    ck_assert_int_eq(mmb_shard_split(&s, j, parts, &sub), 0);
                    struct keys got = keys_of(p, &sub);
                    for (size_t i = 0; i < got.n; i++)
                        ck_assert_msg(keys_have(&mine, got.v[i]), "%s of part %u/%u is not in %u/%u", got.v[i], j,
                                      parts, k, n);
                    total += got.n;
                    free(got.v);
                }
                ck_assert_uint_eq(total, mine.n); /* disjoint (the sum) and inside: the cover */
            }
            free(mine.v);
        }
    struct mmb_shard s = {1, 2}, out;
    ck_assert_int_eq(mmb_shard_split(&s, 2, 2, &out), -1);
    ck_assert_int_eq(mmb_shard_split(&s, 0, 0, &out), -1);
    ck_assert_int_eq(mmb_shard_split(&s, 0, MMB_SHARD_PARTS_MAX + 1, &out), -1);
    free(whole.v);
    unload(p);
}
END_TEST

/* course.ini with one kernel more (first, so that every index after it moves) and one
 * less: every run both profiles have stays in its shard. */
START_TEST(test_stable_when_kernels_change)
{
    char dir[128], kernels[1200], cmd[4096], path[256];
    snprintf(dir, sizeof dir, "%s/profiles", tmpdir);
    snprintf(kernels, sizeof kernels, "%s/kernels", root);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && ln -s '%s' '%s/kernels' && "
             "awk '/^\\[kernel naive\\]/ { print \"[kernel extra]\\nsource = ../kernels/naive.cu\\n"
             "function = matmul_naive\\nparam.block_size_x = 8, 64\\nparam.block_size_y = 8\\n\" } "
             "/^\\[kernel tiled\\]/ { skip = 1 } /^\\[kernel rect_tiles\\]/ { skip = 0 } !skip' "
             "'%s/profiles/course.ini' > '%s/course.ini'",
             dir, kernels, tmpdir, root, dir);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(path, sizeof path, "%s/course.ini", dir);
    struct mmb_profile *before = load_shipped("course.ini"), *after = load(path);
    ck_assert_int_eq(after->nkernels, before->nkernels); /* one in, one out */
    ck_assert_str_eq(after->kernels[0].name, "extra");
    for (unsigned n = 2; n <= 8; n++)
        for (unsigned k = 1; k <= n; k++) {
            struct mmb_shard s = {k, n}, all = {0, 0};
            struct keys b = keys_of(before, &s), a = keys_of(after, &s), a_all = keys_of(after, &all);
            size_t common = 0;
            for (size_t i = 0; i < b.n; i++)
                if (keys_have(&a_all, b.v[i])) {
                    ck_assert_msg(keys_have(&a, b.v[i]), "%s left shard %u/%u", b.v[i], k, n);
                    common++;
                }
            ck_assert_uint_gt(common, 0);
            free(a.v);
            free(b.v);
            free(a_all.v);
        }
    unload(before);
    unload(after);
}
END_TEST

START_TEST(test_paths)
{
    char out[256];
    size_t stem;
    struct mmb_shard s = {2, 4}, all = {0, 0}, got;
    ck_assert_int_eq(mmb_shard_path("data/h100/course.csv", &s, out, sizeof out), 0);
    ck_assert_str_eq(out, "data/h100/course.shard-2-of-4.csv");
    ck_assert(mmb_shard_path_parse(out, &stem, &got));
    ck_assert_uint_eq(stem, strlen("data/h100/course"));
    ck_assert_uint_eq(got.k, 2);
    ck_assert_uint_eq(got.n, 4);
    ck_assert_int_eq(mmb_shard_path("out/x", &s, out, sizeof out), 0);
    ck_assert_str_eq(out, "out/x.shard-2-of-4.csv");
    ck_assert_int_eq(mmb_shard_path("data/h100/course.csv", &all, out, sizeof out), 0);
    ck_assert_str_eq(out, "data/h100/course.csv");
    ck_assert_int_eq(mmb_shard_path("data/h100/course.csv", &s, out, 10), -1);
    const char *not_shards[] = {"course.csv", "course.shard-2-of-4.txt", "course.shard-0-of-4.csv",
                                "course.shard-5-of-4.csv", "course.shard-2-of-.csv", "course.shard-x-of-4.csv",
                                "a.shard-1-of-2/course.csv", "course.shard-1-of-4097.csv"};
    for (size_t i = 0; i < sizeof not_shards / sizeof not_shards[0]; i++)
        ck_assert_msg(!mmb_shard_path_parse(not_shards[i], &stem, &got), "%s", not_shards[i]);
}
END_TEST

/* The rule is the documented text hash: pinned, so that an edit that would split
 * differently from machines running the older mmbench fails here. */
START_TEST(test_rule_pinned)
{
    ck_assert_uint_eq(mmb_shard_of("naive", "block_size_x=16;block_size_y=16", "f32", 256, 256, 256, 1), 1);
    /* computed apart from this code (FNV-1a 64 and splitmix64's finaliser in Python) */
    ck_assert_uint_eq(mmb_shard_hash("naive", "block_size_x=16;block_size_y=16", "f32", 256, 256, 256),
                      0xd137cd6d8aba9025ULL);
    unsigned a = mmb_shard_of("naive", "block_size_x=16;block_size_y=16", "f32", 256, 256, 256, 7);
    ck_assert_uint_eq(a, 5);
    unsigned b = mmb_shard_of("naive", "block_size_x=16;block_size_y=16", "f32", 512, 512, 512, 7);
    ck_assert(a >= 1 && a <= 7 && b >= 1 && b <= 7);
    struct mmb_row row;
    mmb_row_init(&row);
    snprintf(row.kernel, sizeof row.kernel, "naive");
    snprintf(row.params, sizeof row.params, "block_size_x=16;block_size_y=16");
    snprintf(row.dtype, sizeof row.dtype, "f32");
    row.m = row.n = row.k = 256;
    struct mmb_shard s = {a, 7};
    ck_assert(mmb_shard_has_row(&s, &row));
    snprintf(row.gpu_uuid, sizeof row.gpu_uuid, "GPU-other"); /* the GPU is not in the rule */
    ck_assert(mmb_shard_has_row(&s, &row));
}
END_TEST

/* The GPUs of a node grouped by model: each takes its part of its model's work. */
START_TEST(test_device_parts)
{
    const char *node[] = {"h100-80gb-hbm3", "a100-sxm4-40gb", "h100-80gb-hbm3", "h100-80gb-hbm3", "l4"};
    unsigned want_part[] = {0, 0, 1, 2, 0}, want_parts[] = {3, 1, 3, 3, 1};
    for (int me = 0; me < 5; me++) {
        unsigned part, parts;
        mmb_shard_device_part(node, 5, me, &part, &parts);
        ck_assert_uint_eq(part, want_part[me]);
        ck_assert_uint_eq(parts, want_parts[me]);
    }
    /* any number of GPUs of one model: parts 0..n-1 of n, each once */
    const char *same[MMB_SHARD_PARTS_MAX];
    for (int n = 1; n <= MMB_SHARD_PARTS_MAX; n++) {
        for (int i = 0; i < n; i++)
            same[i] = "h200";
        for (int me = 0; me < n; me++) {
            unsigned part, parts;
            mmb_shard_device_part(same, n, me, &part, &parts);
            ck_assert_uint_eq(part, (unsigned)me);
            ck_assert_uint_eq(parts, (unsigned)n);
        }
    }
}
END_TEST

/* Two GPUs of one model in one file (run --devices all): each has its own rows, and a
 * GPU that sweeps alone takes either's row as done. */
START_TEST(test_key_has_gpu)
{
    char path[512], err[1024];
    snprintf(path, sizeof path, "%s/two-gpus.csv", tmpdir);
    struct mmb_csv_writer *w = mmb_csv_writer_open(path, err, sizeof err);
    ck_assert_msg(w != NULL, "%s", err);
    struct mmb_row a, b;
    mmb_row_init(&a);
    snprintf(a.gpu, sizeof a.gpu, "NVIDIA H100 80GB HBM3");
    snprintf(a.kernel, sizeof a.kernel, "naive");
    snprintf(a.params, sizeof a.params, "block_size_x=16;block_size_y=8");
    snprintf(a.dtype, sizeof a.dtype, "f32");
    snprintf(a.cache, sizeof a.cache, "cold");
    a.m = a.n = a.k = 1024;
    snprintf(a.gpu_uuid, sizeof a.gpu_uuid, "GPU-aaaa");
    b = a;
    snprintf(b.gpu_uuid, sizeof b.gpu_uuid, "GPU-bbbb");
    ck_assert_int_eq(mmb_csv_append_row(w, &a, err, sizeof err), 0);
    ck_assert(mmb_csv_writer_has(w, &a));
    ck_assert(!mmb_csv_writer_has(w, &b));
    ck_assert(mmb_csv_writer_has_any_gpu(w, &b));
    ck_assert_int_eq(mmb_csv_append_row(w, &b, err, sizeof err), 0);
    mmb_csv_writer_close(w);

    w = mmb_csv_writer_open(path, err, sizeof err);
    ck_assert_msg(w != NULL, "%s", err);
    ck_assert_uint_eq(mmb_csv_writer_rows(w), 2);
    ck_assert(mmb_csv_writer_has(w, &a) && mmb_csv_writer_has(w, &b));
    struct mmb_row c = a;
    snprintf(c.gpu_uuid, sizeof c.gpu_uuid, "GPU-cccc");
    ck_assert(!mmb_csv_writer_has(w, &c));
    ck_assert(mmb_csv_writer_has_any_gpu(w, &c));
    c.k++;
    ck_assert(!mmb_csv_writer_has_any_gpu(w, &c));
    mmb_csv_writer_close(w);
    struct collected rows = read_csv(path);
    ck_assert_uint_eq(rows.n, 2);
    ck_assert_str_eq(rows.rows[0].gpu_uuid, "GPU-aaaa");
    ck_assert_str_eq(rows.rows[1].gpu_uuid, "GPU-bbbb");
    free(rows.rows);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("shard");
    TCase *tc = tcase_create("shard");
    tcase_add_checked_fixture(tc, tmpdir_setup, tmpdir_teardown);
    tcase_add_test(tc, test_parse);
    tcase_add_test(tc, test_every_run_once);
    tcase_add_test(tc, test_parts_cover_shard);
    tcase_add_test(tc, test_stable_when_kernels_change);
    tcase_add_test(tc, test_paths);
    tcase_add_test(tc, test_rule_pinned);
    tcase_add_test(tc, test_device_parts);
    tcase_add_test(tc, test_key_has_gpu);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
