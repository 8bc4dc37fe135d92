/* tma.h - the rules of TMA tensor maps (args = tma(X, box_inner, box_outer, swizzle),
 * docs/profiles.md "Tensor maps"), as cuTensorMapEncodeTiled states them, checked
 * without a GPU: a box and its swizzle (at load where they are constants, else for
 * each configuration), a matrix's dimensions and row pitch (for each size). Each
 * matrix is a 2-D row-major tensor whose inner (contiguous) dimension is its
 * columns: A is M x K, B is K x N (N x K where the dtype holds B K-major), C is
 * M x N. */
#ifndef MMB_TMA_H
#define MMB_TMA_H

#include <stddef.h>

#include "core/dtype.h"
#include "model/profile.h"
#include "model/sizes.h"

/* The most elements a box may span in one dimension. */
#define MMB_TMA_BOX_MAX 256
/* Bytes that a row pitch and a box's inner extent must be a multiple of. */
#define MMB_TMA_ALIGN 16

/* One tensor map of one configuration: the box in elements and the swizzle in bytes. */
struct mmb_tma_box {
    enum mmb_arg_kind matrix; /* MMB_ARG_A, MMB_ARG_B or MMB_ARG_C */
    long long inner, outer;   /* elements along the columns, along the rows */
    long long swizzle;        /* 0, 32, 64 or 128 */
};

/* "A", "B", "C"; "?" for any other kind. */
const char *mmb_tma_matrix_name(enum mmb_arg_kind matrix);
/* The element type of matrix at dtype: A and B the input type, C the output type
 * (the dtype table's tma cells). */
enum mmb_tma_type mmb_tma_type_of(enum mmb_dtype dtype, enum mmb_arg_kind matrix);
/* Bytes of one element; 0 for MMB_TMA_NONE or an unknown value. */
size_t mmb_tma_type_bytes(enum mmb_tma_type type);
/* The matrix's rows and columns at size. */
void mmb_tma_extent(enum mmb_arg_kind matrix, const struct mmb_size *size, long long *rows, long long *cols);
/* The size whose extent (mmb_tma_extent) is matrix as dtype holds it in memory: B of
 * a dtype that holds it K-major (core/dtype.h, e4m3 and i8) is N rows of K elements,
 * the extent of size with N and K exchanged; any other matrix, size itself. */
struct mmb_size mmb_tma_size_held(enum mmb_dtype dtype, enum mmb_arg_kind matrix, const struct mmb_size *size);

/* Each returns 0, or -1 with err saying what was expected. */
int mmb_tma_check_swizzle(long long swizzle, char *err, size_t errlen);
/* what: "box_inner" or "box_outer". */
int mmb_tma_check_box_dim(const char *what, long long elements, char *err, size_t errlen);
/* Every rule of a box of elements of elem_bytes: each dimension 1..256, the swizzle
 * one of 0, 32, 64, 128, the inner extent a multiple of 16 bytes and, swizzled, at
 * most the swizzle's span. */
int mmb_tma_check_box(const struct mmb_tma_box *box, size_t elem_bytes, char *err, size_t errlen);
/* The matrix at size: its row pitch a multiple of 16 bytes, its dimensions and
 * pitch within what a tensor map can describe. */
int mmb_tma_check_matrix(enum mmb_arg_kind matrix, const struct mmb_size *size, size_t elem_bytes, char *err,
                         size_t errlen);

#endif
