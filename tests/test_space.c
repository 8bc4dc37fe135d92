/* test_space.c - parameter spaces: enumeration order and count, restrictions (the
 * seed-002 space counted by an independent loop), launch geometry, and the params
 * text round trip. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "profile_fixture.h"
#include "model/space.h"

static struct mmb_profile *load_good(void)
{
    struct mmb_profile *p = calloc(1, sizeof *p);
    ck_assert(p);
    char path[1024], err[1024];
    snprintf(path, sizeof path, "%s/tests/fixtures/profiles/good.ini", getenv("MMB_SOURCE_ROOT"));
    ck_assert_msg(mmb_profile_load(path, p, err, sizeof err) == 0, "%s", err);
    return p;
}

/* A hand-built kernel: params "a" = {1, 2, 3}, "b" = {10, 20}, "c" = {-1, 5, 7, 9}. */
static struct mmb_kernel_spec *hand_kernel(void)
{
    struct mmb_kernel_spec *k = calloc(1, sizeof *k);
    ck_assert(k);
    strcpy(k->name, "hand");
    const char *names[] = {"a", "b", "c"};
    const long long vals[3][4] = {{1, 2, 3}, {10, 20}, {-1, 5, 7, 9}};
    const int counts[] = {3, 2, 4};
    for (int i = 0; i < 3; i++) {
        strcpy(k->params[i].name, names[i]);
        k->params[i].nvalues = counts[i];
        memcpy(k->params[i].values, vals[i], sizeof vals[i]);
    }
    k->nparams = 3;
    return k;
}

static struct mmb_expr *expr(const char *text)
{
    char err[256];
    struct mmb_expr *e = mmb_expr_parse(text, err, sizeof err);
    ck_assert_msg(e, "%s", err);
    return e;
}

START_TEST(test_enumeration_order)
{
    struct mmb_kernel_spec *k = hand_kernel();
    ck_assert_uint_eq(mmb_space_size(k), 3 * 2 * 4);
    struct mmb_config c;
    mmb_space_config_at(k, 0, &c);
    ck_assert(c.values[0] == 1 && c.values[1] == 10 && c.values[2] == -1);
    mmb_space_config_at(k, 1, &c); /* last parameter fastest */
    ck_assert(c.values[0] == 1 && c.values[1] == 10 && c.values[2] == 5);
    mmb_space_config_at(k, 4, &c);
    ck_assert(c.values[0] == 1 && c.values[1] == 20 && c.values[2] == -1);
    mmb_space_config_at(k, 8, &c); /* first parameter slowest */
    ck_assert(c.values[0] == 2 && c.values[1] == 10 && c.values[2] == -1);
    mmb_space_config_at(k, 23, &c);
    ck_assert(c.values[0] == 3 && c.values[1] == 20 && c.values[2] == 9);
    /* Every index gives a distinct configuration, matching a nested loop in order. */
    size_t idx = 0;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 2; b++)
            for (int cc = 0; cc < 4; cc++, idx++) {
                mmb_space_config_at(k, idx, &c);
                ck_assert_int_eq(c.values[0], k->params[0].values[a]);
                ck_assert_int_eq(c.values[1], k->params[1].values[b]);
                ck_assert_int_eq(c.values[2], k->params[2].values[cc]);
            }
    free(k);
}
END_TEST

START_TEST(test_no_params)
{
    struct mmb_kernel_spec *k = calloc(1, sizeof *k);
    ck_assert(k);
    ck_assert_uint_eq(mmb_space_size(k), 1);
    struct mmb_config c;
    mmb_space_config_at(k, 0, &c);
    char buf[16] = "junk";
    mmb_space_format_params(k, &c, buf, sizeof buf);
    ck_assert_str_eq(buf, "");
    size_t index = 99;
    ck_assert_int_eq(mmb_space_parse_params(k, "", &c, &index), 0);
    ck_assert_uint_eq(index, 0);
    ck_assert_int_eq(mmb_space_parse_params(k, "a=1", &c, &index), -1);
    /* No restrictions: everything is allowed; geometry falls back to 1 x 1 x 1. */
    struct mmb_size size = {100, 200, 300};
    ck_assert_int_eq(mmb_space_allowed(k, &c, &size, 4, NULL, NULL, 0), 1);
    struct mmb_geometry g;
    char err[256];
    ck_assert_msg(mmb_space_geometry(k, &c, &size, 4, 132, &g, err, sizeof err) == 0, "%s", err);
    ck_assert(g.block[0] == 1 && g.block[1] == 1 && g.block[2] == 1);
    ck_assert(g.grid[0] == 200 && g.grid[1] == 100 && g.grid[2] == 1);
    ck_assert_int_eq(g.smem_bytes, 0);
    free(k);
}
END_TEST

START_TEST(test_count_is_product)
{
    struct mmb_profile *p = load_good();
    for (int i = 0; i < p->nkernels; i++) {
        const struct mmb_kernel_spec *k = &p->kernels[i];
        size_t product = 1;
        for (int j = 0; j < k->nparams; j++)
            product *= (size_t)k->params[j].nvalues;
        ck_assert_uint_eq(mmb_space_size(k), product);
    }
    ck_assert_uint_eq(mmb_space_size(kernel_named(p, "tunable")), 3 * 6 * 4 * 4);
    ck_assert_uint_eq(mmb_space_size(kernel_named(p, "cublas")), 1);
    unload(p);
}
END_TEST

/* Seed 002: block_size_x in 16, 32, 64; block_size_y 1..32 and tile sizes 1..8 in
 * powers of two; block_size_x == block_size_y * tile_size_y. */
START_TEST(test_seed002_restriction)
{
    struct mmb_profile *p = load_good();
    const struct mmb_kernel_spec *k = kernel_named(p, "tunable");
    ck_assert_str_eq(k->params[0].name, "block_size_x");
    ck_assert_str_eq(k->params[3].name, "tile_size_y");
    size_t expected = 0;
    const long long bxs[] = {16, 32, 64};
    for (int i = 0; i < 3; i++)
        for (long long by = 1; by <= 32; by *= 2)
            for (long long tx = 1; tx <= 8; tx *= 2)
                for (long long ty = 1; ty <= 8; ty *= 2)
                    expected += bxs[i] == by * ty;
    ck_assert_uint_eq(expected, 44); /* 4 + 4 + 3 (bx, by, ty) times 4 tile_size_x */

    struct mmb_size size = {4096, 4096, 4096};
    size_t allowed = 0, refused = 0;
    char err[512];
    for (size_t i = 0; i < mmb_space_size(k); i++) {
        struct mmb_config c;
        mmb_space_config_at(k, i, &c);
        int failed = -1;
        int r = mmb_space_allowed(k, &c, &size, 4, &failed, err, sizeof err);
        ck_assert_msg(r >= 0, "%s", err);
        if (r) {
            allowed++;
            ck_assert_int_eq(c.values[0], c.values[1] * c.values[3]);
        } else {
            refused++;
            ck_assert_int_eq(failed, 0);
            ck_assert_int_ne(c.values[0], c.values[1] * c.values[3]);
        }
    }
    ck_assert_uint_eq(allowed, expected);
    ck_assert_uint_eq(allowed + refused, 288);
    unload(p);
}
END_TEST

START_TEST(test_restriction_uses_sizes)
{
    struct mmb_profile *p = load_good();
    const struct mmb_kernel_spec *k = kernel_named(p, "naive");
    /* restrict 0: block_size_x * block_size_y <= 1024
     * restrict 1: block_size_x >= block_size_y and M % 16 == 0 */
    struct mmb_config c = {{32, 32}};
    struct mmb_size s1024 = {1024, 1024, 1024}, s1000 = {1000, 1024, 1024};
    int failed = -1;
    char err[256];
    ck_assert_int_eq(mmb_space_allowed(k, &c, &s1024, 4, &failed, err, sizeof err), 1);
    ck_assert_int_eq(mmb_space_allowed(k, &c, &s1000, 4, &failed, err, sizeof err), 0);
    ck_assert_int_eq(failed, 1);
    c.values[0] = 64;
    ck_assert_int_eq(mmb_space_allowed(k, &c, &s1024, 4, &failed, err, sizeof err), 0);
    ck_assert_int_eq(failed, 0);
    unload(p);
}
END_TEST

START_TEST(test_restriction_error)
{
    struct mmb_kernel_spec *k = hand_kernel();
    k->restrictions[0].expr = expr("N / (a - 1) > 0");
    k->restrictions[0].line = 42;
    k->nrestrictions = 1;
    struct mmb_config c = {{1, 10, 5}};
    struct mmb_size s = {64, 64, 64};
    char err[512];
    ck_assert_int_eq(mmb_space_allowed(k, &c, &s, 4, NULL, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "kernel 'hand', restriction at line 42: division by zero"), "%s", err);
    c.values[0] = 2;
    ck_assert_int_eq(mmb_space_allowed(k, &c, &s, 4, NULL, err, sizeof err), 1);
    mmb_expr_free(k->restrictions[0].expr);
    free(k);
}
END_TEST

START_TEST(test_geometry)
{
    struct mmb_profile *p = load_good();
    char err[512];
    struct mmb_geometry g;
    /* tunable: blocks from block_size_*, divisors block * tile, smem 2 bx^2 elem_size */
    const struct mmb_kernel_spec *k = kernel_named(p, "tunable");
    struct mmb_config c = {{32, 8, 2, 4}};
    struct mmb_size s = {1000, 3000, 77};
    ck_assert_msg(mmb_space_geometry(k, &c, &s, 4, 132, &g, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(g.block[0], 32);
    ck_assert_int_eq(g.block[1], 8);
    ck_assert_int_eq(g.block[2], 1);
    ck_assert_int_eq(g.grid[0], 47); /* ceil(3000 / 64): x runs over N */
    ck_assert_int_eq(g.grid[1], 32); /* ceil(1000 / 32): y runs over M */
    ck_assert_int_eq(g.grid[2], 1);
    ck_assert_int_eq(g.smem_bytes, 2 * 32 * 32 * 4);
    ck_assert_msg(mmb_space_geometry(k, &c, &s, 8, 132, &g, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(g.smem_bytes, 2 * 32 * 32 * 8);
    /* Exact division adds no extra block. */
    struct mmb_size s2 = {4096, 4096, 4096};
    ck_assert(!mmb_space_geometry(k, &c, &s2, 4, 132, &g, err, sizeof err));
    ck_assert_int_eq(g.grid[0], 64);
    ck_assert_int_eq(g.grid[1], 128);
    /* naive: the defaults, divisors equal to the blocks */
    k = kernel_named(p, "naive");
    struct mmb_config c2 = {{16, 4}};
    struct mmb_size s3 = {17, 1, 5};
    ck_assert(!mmb_space_geometry(k, &c2, &s3, 4, 132, &g, err, sizeof err));
    ck_assert(g.block[0] == 16 && g.block[1] == 4 && g.block[2] == 1);
    ck_assert(g.grid[0] == 1 && g.grid[1] == 5 && g.grid[2] == 1);
    ck_assert_int_eq(g.smem_bytes, 0);
    unload(p);
}
END_TEST

/* The binding of tests/fixtures/profiles/good-binding.ini evaluated: the int
 * arguments, the defines, and a grid given by expressions. */
START_TEST(test_binding_values)
{
    struct mmb_profile *p = calloc(1, sizeof *p);
    ck_assert(p);
    char path[1024], err[1024];
    snprintf(path, sizeof path, "%s/tests/fixtures/profiles/good-binding.ini", getenv("MMB_SOURCE_ROOT"));
    ck_assert_msg(mmb_profile_load(path, p, err, sizeof err) == 0, "%s", err);
    const struct mmb_kernel_spec *k = kernel_named(p, "seed");
    struct mmb_config c = {{16}};
    struct mmb_size s = {100, 30, 7};
    int ints[MMB_MAX_ARGS];
    ck_assert_msg(mmb_space_int_args(k, &c, &s, 8, ints, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(ints[3], 30);     /* N */
    ck_assert_int_eq(ints[4], 30 / 16); /* N / tile */
    ck_assert_int_eq(ints[5], 7 * 8);   /* K * elem_size */
    long long defs[MMB_MAX_DEFINES];
    ck_assert_msg(mmb_space_define_values(k, &c, &s, 8, defs, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(defs[0], 30);
    ck_assert_int_eq(defs[1], 16);
    struct mmb_geometry g;
    ck_assert_msg(mmb_space_geometry(k, &c, &s, 4, 132, &g, err, sizeof err) == 0, "%s", err);
    ck_assert(g.block[0] == 16 && g.block[1] == 16 && g.block[2] == 1);
    ck_assert_int_eq(g.grid[0], 1);   /* ceil_div(30, 32) */
    ck_assert_int_eq(g.grid[1], 7);   /* ceil(100 / 16), from grid_div_y = block_y */
    ck_assert_int_eq(g.grid[2], 3);
    ck_assert_int_eq(g.smem_bytes, 2 * 16 * 16 * 4);
    /* An int argument that does not fit the kernel's int is refused. */
    struct mmb_size huge = {1, 1, 3000000000LL};
    ck_assert_int_eq(mmb_space_int_args(k, &c, &huge, 8, ints, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "argument 6 = 24000000000 does not fit the kernel's int"), "%s", err);
    unload(p);
}
END_TEST

START_TEST(test_geometry_errors)
{
    struct mmb_kernel_spec *k = hand_kernel();
    struct mmb_config c = {{1, 10, -1}};
    struct mmb_size s = {64, 64, 64};
    struct mmb_geometry g;
    char err[512];
    k->grid_div_x = expr("a - 1");
    ck_assert_int_eq(mmb_space_geometry(k, &c, &s, 4, 132, &g, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "grid_div_x is 0; expected at least 1"), "%s", err);
    mmb_expr_free(k->grid_div_x);
    k->grid_div_x = NULL;
    k->block_y = expr("c");
    ck_assert_int_eq(mmb_space_geometry(k, &c, &s, 4, 132, &g, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "block_y is -1; expected at least 1"), "%s", err);
    mmb_expr_free(k->block_y);
    k->block_y = NULL;
    k->smem = expr("c * 4");
    ck_assert_int_eq(mmb_space_geometry(k, &c, &s, 4, 132, &g, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "smem is -4 bytes"), "%s", err);
    mmb_expr_free(k->smem);
    k->smem = expr("K / (b - 10)");
    ck_assert_int_eq(mmb_space_geometry(k, &c, &s, 4, 132, &g, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "kernel 'hand', smem: division by zero"), "%s", err);
    mmb_expr_free(k->smem);
    k->smem = NULL;
    ck_assert_int_eq(mmb_space_geometry(k, &c, &s, 4, 132, &g, err, sizeof err), 0);
    /* A persistent kernel's grid: sm_count is the device's, and an error without one. */
    k->grid_x = expr("min(sm_count * b, ceil_div(N, 8))");
    ck_assert_msg(mmb_space_geometry(k, &c, &s, 4, 132, &g, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(g.grid[0], 8);
    ck_assert_msg(mmb_space_geometry(k, &c, &s, 4, 0, &g, err, sizeof err) == -1, "sm_count 0 was accepted");
    ck_assert_msg(strstr(err, "kernel 'hand', grid_x: ") && strstr(err, "sm_count"), "%s", err);
    mmb_expr_free(k->grid_x);
    k->grid_x = expr("sm_count * 2");
    ck_assert_msg(mmb_space_geometry(k, &c, &s, 4, 132, &g, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(g.grid[0], 264);
    mmb_expr_free(k->grid_x);
    k->grid_x = NULL;
    free(k);
}
END_TEST

/* Thread-block clusters: their shape, a grid that is not a whole number of them, and
 * a grid that waits for max_active_clusters, which only the loaded kernel tells. */
START_TEST(test_clusters)
{
    struct mmb_kernel_spec *k = hand_kernel();
    struct mmb_config c = {{2, 10, -1}};
    struct mmb_size s = {64, 64, 64};
    struct mmb_geometry g;
    char err[512];
    ck_assert_msg(mmb_space_geometry(k, &c, &s, 4, 132, &g, err, sizeof err) == 0, "%s", err);
    ck_assert(g.cluster[0] == 1 && g.cluster[1] == 1 && g.cluster[2] == 1 && !g.grid_pending);
    k->block_x = expr("8");
    k->block_y = expr("8");
    k->cluster_x = expr("a");
    k->cluster_y = expr("a * 2");
    ck_assert_msg(mmb_space_geometry(k, &c, &s, 4, 132, &g, err, sizeof err) == 0, "%s", err);
    ck_assert(g.cluster[0] == 2 && g.cluster[1] == 4 && g.cluster[2] == 1);
    ck_assert(g.grid[0] == 8 && g.grid[1] == 8);
    struct mmb_size odd = {56, 72, 64}; /* 9 x 7 blocks */
    ck_assert_int_eq(mmb_space_geometry(k, &c, &odd, 4, 132, &g, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "kernel 'hand': the grid, 9x7x1 blocks, is not a whole number of clusters of 2x4x1"),
                  "%s", err);
    mmb_expr_free(k->cluster_y);
    k->cluster_y = expr("c");
    ck_assert_int_eq(mmb_space_geometry(k, &c, &s, 4, 132, &g, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "cluster_y is -1; expected at least 1"), "%s", err);
    mmb_expr_free(k->cluster_y);
    k->cluster_y = NULL;
    /* A persistent grid of clusters: pending until max_active_clusters is known. */
    k->grid_x = expr("min(max_active_clusters, ceil_div(N, 8) / a) * a");
    k->grid_y = expr("1");
    ck_assert_msg(mmb_space_geometry(k, &c, &s, 4, 132, &g, err, sizeof err) == 0, "%s", err);
    ck_assert(g.grid_pending && g.grid[0] == 0 && g.block[0] == 8 && g.cluster[0] == 2);
    ck_assert_msg(mmb_space_grid(k, &c, &s, 4, 132, 3, &g, err, sizeof err) == 0, "%s", err);
    ck_assert(!g.grid_pending && g.grid[0] == 6 && g.grid[1] == 1 && g.grid[2] == 1);
    ck_assert_msg(mmb_space_grid(k, &c, &s, 4, 132, 66, &g, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(g.grid[0], 8); /* ceil_div(64, 8) / 2 clusters of 2 */
    ck_assert_int_eq(mmb_space_grid(k, &c, &s, 4, 132, 0, &g, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "not one cluster of this configuration fits"), "%s", err);
    mmb_expr_free(k->grid_x);
    k->grid_x = expr("max_active_clusters * a + 1");
    ck_assert_msg(mmb_space_geometry(k, &c, &s, 4, 132, &g, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(mmb_space_grid(k, &c, &s, 4, 132, 5, &g, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "the grid, 11x1x1 blocks, is not a whole number of clusters of 2x1x1"), "%s", err);
    struct mmb_expr *owned[] = {k->block_x, k->block_y, k->cluster_x, k->grid_x, k->grid_y};
    for (size_t i = 0; i < sizeof owned / sizeof owned[0]; i++)
        mmb_expr_free(owned[i]);
    free(k);
}
END_TEST

/* The tensor maps of tests/fixtures/profiles/good-hopper.ini evaluated per
 * configuration and dtype, and checked by model/tma.h's rules. */
START_TEST(test_tma_boxes)
{
    struct mmb_profile *p = calloc(1, sizeof *p);
    ck_assert(p);
    char path[1024], err[1024];
    snprintf(path, sizeof path, "%s/tests/fixtures/profiles/good-hopper.ini", getenv("MMB_SOURCE_ROOT"));
    ck_assert_msg(mmb_profile_load(path, p, err, sizeof err) == 0, "%s", err);
    const struct mmb_kernel_spec *k = kernel_named(p, "tc");
    struct mmb_config c = {{32, 2}};
    struct mmb_size s = {256, 256, 256};
    struct mmb_tma_box box;
    ck_assert_msg(mmb_space_tma_box(k, 0, &c, &s, 4, &box, err, sizeof err) == 0, "%s", err);
    ck_assert(box.matrix == MMB_ARG_A && box.inner == 32 && box.outer == 2 && box.swizzle == 128);
    ck_assert_msg(mmb_tma_check_box(&box, 4, err, sizeof err) == 0, "%s", err);
    /* The same configuration in f64: a row of the box is 256 bytes, past the swizzle. */
    ck_assert_int_eq(mmb_tma_check_box(&box, 8, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "32 x 8 = 256 bytes; expected at most the swizzle span, 128 bytes"), "%s", err);
    ck_assert_msg(mmb_space_tma_box(k, 2, &c, &s, 8, &box, err, sizeof err) == 0, "%s", err);
    ck_assert(box.matrix == MMB_ARG_C && box.inner == 8 && box.outer == 16 && box.swizzle == 0);
    /* A box that cannot be evaluated names its argument. */
    struct mmb_config zero = {{0, 1}};
    ck_assert_int_eq(mmb_space_tma_box(k, 0, &zero, &s, 4, &box, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "argument 1, tma() box_outer: division by zero"), "%s", err);
    /* The grid's max_active_clusters, once known. */
    struct mmb_geometry g;
    ck_assert_msg(mmb_space_geometry(k, &c, &s, 4, 132, &g, err, sizeof err) == 0, "%s", err);
    ck_assert(g.grid_pending && g.cluster[0] == 2 && g.block[0] == 128);
    ck_assert_msg(mmb_space_grid(k, &c, &s, 4, 132, 64, &g, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(g.grid[0], 4); /* min(64, 4 tiles / 2) = 2 clusters of 2 blocks */
    unload(p);
}
END_TEST

START_TEST(test_params_round_trip)
{
    struct mmb_profile *p = load_good();
    const struct mmb_kernel_spec *k = kernel_named(p, "tunable");
    struct mmb_config c, back;
    char text[256];
    mmb_space_config_at(k, 0, &c);
    mmb_space_format_params(k, &c, text, sizeof text);
    ck_assert_str_eq(text, "block_size_x=16;block_size_y=1;tile_size_x=1;tile_size_y=1");
    for (size_t i = 0; i < mmb_space_size(k); i++) {
        mmb_space_config_at(k, i, &c);
        mmb_space_format_params(k, &c, text, sizeof text);
        size_t index = (size_t)-1;
        ck_assert_msg(mmb_space_parse_params(k, text, &back, &index) == 0, "%s", text);
        ck_assert_uint_eq(index, i);
        ck_assert(!memcmp(c.values, back.values, sizeof c.values));
    }
    /* Order does not matter when reading; index may be NULL. */
    ck_assert_int_eq(mmb_space_parse_params(k, "tile_size_y=2;tile_size_x=8;block_size_y=32;block_size_x=64",
                                            &back, NULL), 0);
    ck_assert(back.values[0] == 64 && back.values[1] == 32 && back.values[2] == 8 && back.values[3] == 2);
    /* A truncating buffer stays terminated. */
    mmb_space_format_params(k, &c, text, 10);
    ck_assert_int_eq(strlen(text), 9);
    unload(p);
}
END_TEST

START_TEST(test_params_parse_errors)
{
    struct mmb_kernel_spec *k = hand_kernel();
    struct mmb_config c;
    size_t index;
    static const char *const bad[] = {
        "a=1;b=10",             /* c missing */
        "a=1;b=10;c=5;d=1",     /* unknown name */
        "a=1;b=10;c=6",         /* 6 is not a value of c */
        "a=1;b=10;c=5;a=2",     /* a twice */
        "a=1;b=10;c=5;",        /* trailing ';' */
        "a=1;b=10;c",           /* no '=' */
        "a=1;b=;c=5",           /* no value */
        "a=1;b=10x;c=5",        /* not a number */
        "a=1;b=10;c=+5",        /* not how format writes it */
        "A=1;b=10;c=5",         /* names are case-sensitive */
        "a=1;b=10;c=5 ",
        "",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(mmb_space_parse_params(k, bad[i], &c, &index) == -1, "'%s' parsed", bad[i]);
    ck_assert_int_eq(mmb_space_parse_params(k, "a=3;b=20;c=-1", &c, &index), 0);
    ck_assert_uint_eq(index, 2 * 8 + 1 * 4 + 0);
    free(k);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("space");
    TCase *tc = tcase_create("space");
    tcase_add_test(tc, test_enumeration_order);
    tcase_add_test(tc, test_no_params);
    tcase_add_test(tc, test_count_is_product);
    tcase_add_test(tc, test_seed002_restriction);
    tcase_add_test(tc, test_restriction_uses_sizes);
    tcase_add_test(tc, test_restriction_error);
    tcase_add_test(tc, test_geometry);
    tcase_add_test(tc, test_geometry_errors);
    tcase_add_test(tc, test_clusters);
    tcase_add_test(tc, test_tma_boxes);
    tcase_add_test(tc, test_binding_values);
    tcase_add_test(tc, test_params_round_trip);
    tcase_add_test(tc, test_params_parse_errors);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
