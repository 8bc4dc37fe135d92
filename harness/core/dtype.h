/* dtype.h - the precisions a sweep can run, named once: each dtype's input,
 * accumulate and output types, the pipe it runs on, the layout of B, its tolerance
 * rule and the library call that computes it; the storage formats behind them (size,
 * precision, the CUDA header that declares them, poison, conversions to and from
 * double); and the arithmetic pipes. docs/profiles.md ("Precisions") says why each
 * row is what it is. */
#ifndef MMB_DTYPE_H
#define MMB_DTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The order is part of the files: profiles' dtype bits and the input seeds use it,
 * so new dtypes go at the end. */
enum mmb_dtype { MMB_F32, MMB_F64, MMB_I32, MMB_F16, MMB_BF16, MMB_TF32, MMB_E4M3, MMB_I8, MMB_DTYPE_COUNT };

/* How one element is held in memory. TF32 is held as a float whose significand has
 * only TF32's 11 bits. */
enum mmb_format {
    MMB_FMT_F32, MMB_FMT_F64, MMB_FMT_I32, MMB_FMT_F16, MMB_FMT_BF16, MMB_FMT_TF32, MMB_FMT_E4M3, MMB_FMT_I8,
    MMB_FMT_COUNT
};

struct mmb_format_info {
    enum mmb_format value;
    const char *text;
    const char *ctype;       /* the C type kernels see (NVRTC) */
    const char *header;      /* the CUDA header that declares ctype; NULL for a built-in type */
    size_t size;             /* bytes */
    int precision;           /* significand bits, the implicit one included (f32: 24); 0 for integers */
    int poison_byte;         /* memset byte that makes every element a NaN, or an integer no result reaches */
    /* Random inputs (model/inputs.c): integers uniform in [draw_min, draw_max]; reals
     * uniform in [draw_min, draw_max), rounded to the format. */
    int draw_min, draw_max;
    /* Element i of data as a double (exact for every format). */
    double (*decode)(const void *data, size_t i);
    /* Stores v, rounded to nearest (ties to even) in the format, as element i; integers
     * saturate (NaN stores 0). */
    void (*encode)(void *data, size_t i, double v);
};

/* The arithmetic units a GEMM runs on; a row's peak is its pipe's (results/peaks.h). */
enum mmb_pipe {
    MMB_PIPE_FP32, MMB_PIPE_FP64, MMB_PIPE_INT32,
    MMB_PIPE_TENSOR_F16, MMB_PIPE_TENSOR_BF16, MMB_PIPE_TENSOR_TF32, MMB_PIPE_TENSOR_FP8, MMB_PIPE_TENSOR_I8,
    MMB_PIPE_TENSOR_F64,
    MMB_PIPE_COUNT
};

struct mmb_pipe_info {
    enum mmb_pipe value;
    const char *text;        /* the CSV's pipe column: tensor_f16 */
    const char *meaning;     /* "the FP16 tensor cores" */
    const char *limiter;     /* the limiter column's name for it (results/limiter.h) */
    bool tensor;
    /* Where a GPU without this pipe runs the same work: DGEMM without FP64 tensor
     * cores runs on the FP64 pipe. The pipe itself when there is no such fallback. */
    enum mmb_pipe fallback;
};

/* How the reference result is computed (cuda/problem/reference.c). */
enum mmb_ref_kind {
    MMB_REF_CUBLAS,  /* cuBLAS in the dtype's own type, pedantic math (f32, f64) */
    MMB_REF_WIDE,    /* cuBLAS DGEMM over the inputs widened to double: exact products, sums to 2^-53 */
    MMB_REF_EXACT,   /* an integer kernel: exact */
};

/* The library call that computes a dtype, as data: cuda/problem/blas.c maps it onto
 * cuBLAS and cuBLASLt through tables of its own. */
enum mmb_blas_api { MMB_BLAS_NONE, MMB_BLAS_SGEMM, MMB_BLAS_DGEMM, MMB_BLAS_GEMM_EX, MMB_BLAS_LT_MATMUL };
enum mmb_blas_compute { MMB_COMPUTE_32F, MMB_COMPUTE_32F_FAST_TF32, MMB_COMPUTE_32I, MMB_COMPUTE_64F,
                        MMB_COMPUTE_COUNT };

struct mmb_blas_call {
    enum mmb_blas_api api;
    enum mmb_blas_compute compute;
    int min_cc;              /* major * 10 + minor the call needs; 0: any */
    const char *text;        /* for messages and the docs */
};

/* The tolerance rule (docs/profiles.md derives it): an output element passes when
 *     |C - ref| <= tau(K) max|ref| + u_out |ref|,
 *     tau(K) = max(tau_min, k_factor K 2^-acc_bits),
 * with ref the exact product of the rounded inputs (MMB_REF_WIDE) and u_out =
 * 2^-precision of the output format (0 when out_rounding is false: the output type
 * is the accumulator's, and tau covers it). */
struct mmb_tolerance_rule {
    bool exact;              /* integers: any difference fails */
    double tau_min;
    double k_factor;
    int acc_bits;            /* the accumulator's significand bits: 24 for FP32 */
    bool out_rounding;
};

/* How the tensor memory accelerator (TMA) reads and writes an element: the values of
 * the driver's CUtensorMapDataType, which cuda/tensor_map.c checks against cuda.h (core/
 * builds without CUDA). TMA copies bits: an 8-bit type (e4m3, i8) is MMB_TMA_U8. */
enum mmb_tma_type {
    MMB_TMA_NONE = -1,
    MMB_TMA_U8 = 0, MMB_TMA_U16 = 1, MMB_TMA_U32 = 2, MMB_TMA_I32 = 3, MMB_TMA_U64 = 4, MMB_TMA_I64 = 5,
    MMB_TMA_F16 = 6, MMB_TMA_F32 = 7, MMB_TMA_F64 = 8, MMB_TMA_BF16 = 9, MMB_TMA_F32_FTZ = 10,
    MMB_TMA_TF32 = 11, MMB_TMA_TF32_FTZ = 12,
};

struct mmb_dtype_info {
    enum mmb_dtype value;
    const char *text;        /* in profiles and CSVs: f32 */
    const char *ctype;       /* elem_t, as NVRTC gets it (the input format's) */
    size_t size;             /* bytes per input element: elem_size in expressions */
    enum mmb_format in, out; /* A and B; C */
    enum mmb_format ref;     /* the reference result's format */
    const char *acc_ctype;   /* acc_t */
    enum mmb_pipe pipe;      /* where an own kernel of this dtype is measured against */
    bool b_col_major;        /* B held column-major (K-major): element (k, n) at B[n * K + k] */
    enum mmb_ref_kind ref_kind;
    struct mmb_tolerance_rule tolerance;
    struct mmb_blas_call blas;
    /* The TMA element type of the inputs A and B (the in format) and of the output C
     * (the out format), for tensor maps (args = tma(...)); MMB_TMA_NONE: no tensor map
     * of it. */
    struct { enum mmb_tma_type in, out; } tma;
};

extern const struct mmb_dtype_info mmb_dtype_table[];   /* ends with a NULL text sentinel */
extern const struct mmb_format_info mmb_format_table[]; /* in enum order, ends with a NULL text sentinel */
extern const struct mmb_pipe_info mmb_pipe_table[];     /* in enum order, ends with a NULL text sentinel */

const struct mmb_dtype_info *mmb_dtype_info(enum mmb_dtype dtype);
bool mmb_dtype_parse(const char *text, enum mmb_dtype *out);
const struct mmb_format_info *mmb_format_info(enum mmb_format format);
const struct mmb_pipe_info *mmb_pipe_info(enum mmb_pipe pipe);
bool mmb_pipe_parse(const char *text, enum mmb_pipe *out);

/* tau(K) of dtype's rule: the tolerance relative to max|ref|, 0 for exact dtypes. */
double mmb_dtype_tolerance(enum mmb_dtype dtype, long long k);
/* u_out of dtype's rule: 2^-precision of its output, 0 when the rule has none. */
double mmb_dtype_out_roundoff(enum mmb_dtype dtype);
/* The tolerance a problem of depth k is checked with: override when it is a number
 * (a profile's tolerance.DTYPE), else tau(K). */
double mmb_dtype_tolerance_for(enum mmb_dtype dtype, long long k, double override);
/* Index of element (k, n) of B in dtype's layout. */
size_t mmb_dtype_b_index(enum mmb_dtype dtype, long long k, long long n, long long K, long long N);

#endif
