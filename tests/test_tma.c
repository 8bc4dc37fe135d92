/* test_tma.c - the rules of TMA tensor maps (model/tma.c) as cuTensorMapEncodeTiled
 * states them: box dimensions, swizzles, the inner extent in bytes, row pitches and
 * dimensions of the matrices, and the element type of each matrix from the dtype
 * table. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "model/tma.h"

START_TEST(test_types_from_the_dtype_table)
{
    ck_assert_int_eq(mmb_tma_type_of(MMB_F32, MMB_ARG_A), MMB_TMA_F32);
    ck_assert_int_eq(mmb_tma_type_of(MMB_F64, MMB_ARG_B), MMB_TMA_F64);
    ck_assert_int_eq(mmb_tma_type_of(MMB_I32, MMB_ARG_C), MMB_TMA_I32);
    ck_assert_int_eq(mmb_tma_type_of(MMB_DTYPE_COUNT, MMB_ARG_A), MMB_TMA_NONE);
    /* The precisions: the storage of each format (TMA copies bits); e4m3 writes bf16,
     * i8 accumulates and writes int32. */
    ck_assert_int_eq(mmb_tma_type_of(MMB_F16, MMB_ARG_A), MMB_TMA_F16);
    ck_assert_int_eq(mmb_tma_type_of(MMB_F16, MMB_ARG_C), MMB_TMA_F16);
    ck_assert_int_eq(mmb_tma_type_of(MMB_BF16, MMB_ARG_B), MMB_TMA_BF16);
    ck_assert_int_eq(mmb_tma_type_of(MMB_BF16, MMB_ARG_C), MMB_TMA_BF16);
    ck_assert_int_eq(mmb_tma_type_of(MMB_TF32, MMB_ARG_A), MMB_TMA_F32);
    ck_assert_int_eq(mmb_tma_type_of(MMB_TF32, MMB_ARG_C), MMB_TMA_F32);
    ck_assert_int_eq(mmb_tma_type_of(MMB_E4M3, MMB_ARG_B), MMB_TMA_U8);
    ck_assert_int_eq(mmb_tma_type_of(MMB_E4M3, MMB_ARG_C), MMB_TMA_BF16);
    ck_assert_int_eq(mmb_tma_type_of(MMB_I8, MMB_ARG_A), MMB_TMA_U8);
    ck_assert_int_eq(mmb_tma_type_of(MMB_I8, MMB_ARG_C), MMB_TMA_I32);
    /* Every dtype's cells name a type whose size is its format's: the input cell the
     * dtype's element size (elem_size), the output cell its output format's (the
     * pitch of C's map). */
    for (const struct mmb_dtype_info *d = mmb_dtype_table; d->text; d++) {
        ck_assert_msg(mmb_tma_type_bytes(d->tma.in) == d->size, "%s", d->text);
        ck_assert_msg(mmb_tma_type_bytes(d->tma.in) == mmb_format_info(d->in)->size, "%s", d->text);
        ck_assert_msg(mmb_tma_type_bytes(d->tma.out) == mmb_format_info(d->out)->size, "%s", d->text);
    }
    ck_assert_uint_eq(mmb_tma_type_bytes(MMB_TMA_U8), 1);
    ck_assert_uint_eq(mmb_tma_type_bytes(MMB_TMA_BF16), 2);
    ck_assert_uint_eq(mmb_tma_type_bytes(MMB_TMA_TF32), 4);
    ck_assert_uint_eq(mmb_tma_type_bytes(MMB_TMA_NONE), 0);
    ck_assert_uint_eq(mmb_tma_type_bytes((enum mmb_tma_type)13), 0);
}
END_TEST

START_TEST(test_extents)
{
    const struct mmb_size s = {300, 200, 100};
    long long rows, cols;
    mmb_tma_extent(MMB_ARG_A, &s, &rows, &cols);
    ck_assert(rows == 300 && cols == 100); /* M x K */
    mmb_tma_extent(MMB_ARG_B, &s, &rows, &cols);
    ck_assert(rows == 100 && cols == 200); /* K x N */
    mmb_tma_extent(MMB_ARG_C, &s, &rows, &cols);
    ck_assert(rows == 300 && cols == 200); /* M x N */
    /* B held K-major (e4m3, i8) is N x K; A and C, and B of the other dtypes, as they were. */
    struct mmb_size held = mmb_tma_size_held(MMB_E4M3, MMB_ARG_B, &s);
    mmb_tma_extent(MMB_ARG_B, &held, &rows, &cols);
    ck_assert(rows == 200 && cols == 100);
    held = mmb_tma_size_held(MMB_I8, MMB_ARG_B, &s);
    mmb_tma_extent(MMB_ARG_B, &held, &rows, &cols);
    ck_assert(rows == 200 && cols == 100);
    held = mmb_tma_size_held(MMB_F16, MMB_ARG_B, &s);
    mmb_tma_extent(MMB_ARG_B, &held, &rows, &cols);
    ck_assert(rows == 100 && cols == 200);
    held = mmb_tma_size_held(MMB_E4M3, MMB_ARG_A, &s);
    ck_assert(held.m == 300 && held.n == 200 && held.k == 100);
    held = mmb_tma_size_held(MMB_E4M3, MMB_ARG_C, &s);
    ck_assert(held.m == 300 && held.n == 200 && held.k == 100);
    ck_assert_str_eq(mmb_tma_matrix_name(MMB_ARG_B), "B");
    ck_assert_str_eq(mmb_tma_matrix_name(MMB_ARG_INT), "?");
}
END_TEST

static const struct {
    long long inner, outer, swizzle;
    size_t bytes;
    const char *error; /* NULL: a good box */
} boxes[] = {
    {64, 128, 128, 2, NULL},  /* the wgmma tile of f16: 128-byte rows, swizzled */
    {32, 256, 128, 4, NULL},
    {16, 8, 64, 4, NULL},
    {8, 8, 32, 4, NULL},
    {4, 1, 0, 4, NULL},
    {256, 256, 0, 8, NULL},   /* no swizzle: any multiple of 16 bytes */
    {0, 8, 0, 4, "box_inner 0; expected 1 to 256 elements"},
    {257, 8, 0, 4, "box_inner 257; expected 1 to 256 elements"},
    {16, 0, 0, 4, "box_outer 0; expected 1 to 256 elements"},
    {16, 300, 0, 4, "box_outer 300; expected 1 to 256 elements"},
    {16, 8, 16, 4, "swizzle 16; expected 0 (none), 32, 64 or 128 bytes"},
    {16, 8, -128, 4, "swizzle -128; expected"},
    {3, 8, 0, 4, "the box's inner extent is 3 x 4 = 12 bytes; expected a multiple of 16"},
    {64, 8, 128, 4, "the box's inner extent is 64 x 4 = 256 bytes; expected at most the swizzle span, 128 bytes"},
    {16, 8, 32, 4, "16 x 4 = 64 bytes; expected at most the swizzle span, 32 bytes"},
};

START_TEST(test_boxes)
{
    struct mmb_tma_box box = {MMB_ARG_A, boxes[_i].inner, boxes[_i].outer, boxes[_i].swizzle};
    char err[256] = "";
    int rc = mmb_tma_check_box(&box, boxes[_i].bytes, err, sizeof err);
    if (!boxes[_i].error) {
        ck_assert_msg(rc == 0, "%s", err);
    } else {
        ck_assert_int_eq(rc, -1);
        ck_assert_msg(strstr(err, boxes[_i].error), "want '%s', got '%s'", boxes[_i].error, err);
    }
}
END_TEST

START_TEST(test_matrices)
{
    char err[256];
    const struct mmb_size good = {1000, 4096, 72}, odd = {64, 64, 30};
    ck_assert_msg(mmb_tma_check_matrix(MMB_ARG_A, &good, 4, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(mmb_tma_check_matrix(MMB_ARG_C, &good, 2, err, sizeof err) == 0, "%s", err);
    /* A's rows are K = 30 elements: 120 bytes in 4-byte types, 240 in 8-byte ones. */
    ck_assert_int_eq(mmb_tma_check_matrix(MMB_ARG_A, &odd, 4, err, sizeof err), -1);
    ck_assert_str_eq(err, "A's row pitch is 30 x 4 = 120 bytes; a tensor map needs a multiple of 16");
    ck_assert_int_eq(mmb_tma_check_matrix(MMB_ARG_A, &odd, 8, err, sizeof err), 0);
    ck_assert_int_eq(mmb_tma_check_matrix(MMB_ARG_B, &odd, 4, err, sizeof err), 0);
    const struct mmb_size wide = {1, 1LL << 33, 8};
    ck_assert_int_eq(mmb_tma_check_matrix(MMB_ARG_B, &wide, 4, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "B is 8 x 8589934592; a tensor map's dimensions are 1 to 2^32"), "%s", err);
    const struct mmb_size pitch = {1, 1LL << 32, 8};
    ck_assert_int_eq(mmb_tma_check_matrix(MMB_ARG_C, &pitch, 256, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "row pitch is 1099511627776 bytes; a tensor map needs less than 2^40"), "%s", err);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("tma");
    TCase *tc = tcase_create("tma");
    tcase_add_test(tc, test_types_from_the_dtype_table);
    tcase_add_test(tc, test_extents);
    tcase_add_loop_test(tc, test_boxes, 0, sizeof boxes / sizeof boxes[0]);
    tcase_add_test(tc, test_matrices);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
