/* dtype.c - the precision tables: dtypes, storage formats (with their exact
 * conversions to and from double) and pipes. */
#include "core/dtype.h"

#include <math.h>
#include <string.h>

/* ---- conversions ---------------------------------------------------------------- */

/* v rounded to nearest, ties to even, on the grid of a binary format with p
 * significand bits whose smallest normal number is 2^emin (subnormals below it);
 * beyond max, infinity where the format has one, else NaN. v / q is exact: q is a
 * power of two within double's range. */
static double round_binary(double v, int p, int emin, double max, bool has_inf)
{
    if (isnan(v) || v == 0.0)
        return v;
    if (isinf(v))
        return has_inf ? v : NAN;
    int e;
    frexp(v, &e); /* |v| in [2^(e-1), 2^e) */
    int exponent = e - 1 < emin ? emin : e - 1;
    double q = ldexp(1.0, exponent - p + 1);
    double r = nearbyint(v / q) * q;
    if (fabs(r) > max)
        return has_inf ? copysign(INFINITY, v) : NAN;
    return r;
}

/* The bits of r, a value of the grid of a binary format with exp_width exponent
 * bits (bias 2^(exp_width-1) - 1) and mant_bits fraction bits: sign, exponent field,
 * fraction; infinity as the all-ones exponent; nan_bits for NaN. */
static unsigned pack_binary(double r, int exp_width, int mant_bits, unsigned nan_bits)
{
    if (isnan(r))
        return nan_bits;
    int bias = (1 << (exp_width - 1)) - 1, emin = 1 - bias;
    unsigned top = (signbit(r) ? 1u : 0u) << (mant_bits + exp_width);
    double a = fabs(r);
    if (isinf(a))
        return top | (((1u << exp_width) - 1u) << mant_bits);
    if (a == 0.0)
        return top;
    int e;
    frexp(a, &e);
    int exponent = e - 1;
    if (exponent < emin) /* subnormal: a multiple of 2^(emin - mant_bits) */
        return top | (unsigned)ldexp(a, mant_bits - emin);
    unsigned mant = (unsigned)ldexp(ldexp(a, -exponent) - 1.0, mant_bits);
    return top | ((unsigned)(exponent + bias) << mant_bits) | mant;
}

/* The value of bits in a binary format: sign, exp_width exponent bits of bias
 * 2^(exp_width-1) - 1, mant_bits fraction bits. ieee: the all-ones exponent holds
 * infinities and NaNs; else (e4m3) only all-ones exponent and fraction is NaN. */
static double unpack_binary(unsigned bits, int exp_width, int mant_bits, bool ieee)
{
    unsigned mant = bits & ((1u << mant_bits) - 1u);
    unsigned exp = (bits >> mant_bits) & ((1u << exp_width) - 1u);
    double sign = (bits >> (mant_bits + exp_width)) & 1u ? -1.0 : 1.0;
    int bias = (1 << (exp_width - 1)) - 1;
    unsigned all_ones = (1u << exp_width) - 1u;
    if (ieee && exp == all_ones)
        return mant ? NAN : sign * INFINITY;
    if (!ieee && exp == all_ones && mant == (1u << mant_bits) - 1u)
        return NAN;
    if (exp == 0)
        return sign * ldexp((double)mant, 1 - bias - mant_bits);
    return sign * ldexp((double)(mant | (1u << mant_bits)), (int)exp - bias - mant_bits);
}

static double f32_decode(const void *p, size_t i) { return ((const float *)p)[i]; }
static void f32_encode(void *p, size_t i, double v) { ((float *)p)[i] = (float)v; }
static double f64_decode(const void *p, size_t i) { return ((const double *)p)[i]; }
static void f64_encode(void *p, size_t i, double v) { ((double *)p)[i] = v; }
/* Integers: v rounded to nearest and saturated to [lo, hi]; NaN stores 0. */
static double saturate(double v, double lo, double hi)
{
    return isnan(v) ? 0.0 : v < lo ? lo : v > hi ? hi : nearbyint(v);
}
static double i32_decode(const void *p, size_t i) { return ((const int32_t *)p)[i]; }
static void i32_encode(void *p, size_t i, double v) { ((int32_t *)p)[i] = (int32_t)saturate(v, INT32_MIN, INT32_MAX); }
static double i8_decode(const void *p, size_t i) { return ((const int8_t *)p)[i]; }
static void i8_encode(void *p, size_t i, double v) { ((int8_t *)p)[i] = (int8_t)saturate(v, -128, 127); }

static double f16_decode(const void *p, size_t i) { return unpack_binary(((const uint16_t *)p)[i], 5, 10, true); }
static void f16_encode(void *p, size_t i, double v)
{
    ((uint16_t *)p)[i] = (uint16_t)pack_binary(round_binary(v, 11, -14, 65504.0, true), 5, 10, 0x7e00u);
}

/* bf16 is the top half of a float. */
static double bf16_decode(const void *p, size_t i) { return unpack_binary(((const uint16_t *)p)[i], 8, 7, true); }
static void bf16_encode(void *p, size_t i, double v)
{
    ((uint16_t *)p)[i] =
        (uint16_t)pack_binary(round_binary(v, 8, -126, 0x1.fep127, true), 8, 7, 0x7fc0u);
}

/* TF32: FP32's exponent, 10 fraction bits, held in a float. */
static void tf32_encode(void *p, size_t i, double v)
{
    ((float *)p)[i] = (float)round_binary(v, 11, -126, 0x1.ffcp127, true);
}

/* OCP FP8 E4M3 (CUDA's __nv_fp8_e4m3): bias 7, no infinities, 0x7f/0xff NaN, max 448. */
static double e4m3_decode(const void *p, size_t i) { return unpack_binary(((const uint8_t *)p)[i], 4, 3, false); }
static void e4m3_encode(void *p, size_t i, double v)
{
    ((uint8_t *)p)[i] = (uint8_t)pack_binary(round_binary(v, 4, -6, 448.0, false), 4, 3, 0x7fu);
}

/* ---- tables --------------------------------------------------------------------- */

const struct mmb_format_info mmb_format_table[] = {
    {MMB_FMT_F32, "f32", "float", NULL, 4, 24, 0xFF, -1, 1, f32_decode, f32_encode},
    {MMB_FMT_F64, "f64", "double", NULL, 8, 53, 0xFF, -1, 1, f64_decode, f64_encode},
    {MMB_FMT_I32, "i32", "int", NULL, 4, 0, 0x7F, -8, 8, i32_decode, i32_encode},
    {MMB_FMT_F16, "f16", "__half", "cuda_fp16.h", 2, 11, 0xFF, -1, 1, f16_decode, f16_encode},
    {MMB_FMT_BF16, "bf16", "__nv_bfloat16", "cuda_bf16.h", 2, 8, 0xFF, -1, 1, bf16_decode, bf16_encode},
    {MMB_FMT_TF32, "tf32", "float", NULL, 4, 11, 0xFF, -1, 1, f32_decode, tf32_encode},
    {MMB_FMT_E4M3, "e4m3", "__nv_fp8_e4m3", "cuda_fp8.h", 1, 4, 0xFF, -1, 1, e4m3_decode, e4m3_encode},
    {MMB_FMT_I8, "i8", "signed char", NULL, 1, 0, 0x7F, -128, 127, i8_decode, i8_encode},
    {MMB_FMT_COUNT, NULL, NULL, NULL, 0, 0, 0, 0, 0, NULL, NULL},
};

const struct mmb_pipe_info mmb_pipe_table[] = {
    {MMB_PIPE_FP32, "fp32", "the FP32 pipe", "fp32", false, MMB_PIPE_FP32},
    {MMB_PIPE_FP64, "fp64", "the FP64 pipe", "fp64", false, MMB_PIPE_FP64},
    {MMB_PIPE_INT32, "int32", "the INT32 pipe", "int32", false, MMB_PIPE_INT32},
    {MMB_PIPE_TENSOR_F16, "tensor_f16", "the tensor cores, FP16 inputs", "tensor", true, MMB_PIPE_TENSOR_F16},
    {MMB_PIPE_TENSOR_BF16, "tensor_bf16", "the tensor cores, BF16 inputs", "tensor", true, MMB_PIPE_TENSOR_BF16},
    {MMB_PIPE_TENSOR_TF32, "tensor_tf32", "the tensor cores, TF32 inputs", "tensor", true, MMB_PIPE_TENSOR_TF32},
    {MMB_PIPE_TENSOR_FP8, "tensor_fp8", "the tensor cores, FP8 inputs", "tensor", true, MMB_PIPE_TENSOR_FP8},
    {MMB_PIPE_TENSOR_I8, "tensor_i8", "the tensor cores, INT8 inputs", "tensor", true, MMB_PIPE_TENSOR_I8},
    {MMB_PIPE_TENSOR_F64, "tensor_f64", "the FP64 tensor cores (DMMA)", "tensor", true, MMB_PIPE_FP64},
    {MMB_PIPE_COUNT, NULL, NULL, NULL, false, MMB_PIPE_COUNT},
};

#define EXACT {true, 0.0, 0.0, 0, false}
/* FP32 accumulation of exact products, checked against the exact result */
#define FP32_ACC {false, 0.0, 3.0, 24, true}
/* FP8 MMAs add their products to the accumulator keeping about 14 significant bits;
 * libraries promote the partial sums to FP32 at intervals: tau_min covers that (as
 * docs/profiles.md derives) */
#define FP8_MMA_ACC {false, 0x1p-10, 3.0, 24, true}

/* Inputs are drawn as today's (uniform in [-1, 1), integers uniform in their range)
 * and rounded to the input format (model/inputs.c). f32 and f64 keep the fixed
 * tolerances they always had: their reference is cuBLAS in the same precision, and
 * 1e-4 is what tells an FP32 kernel from one that rounds its inputs to TF32. e4m3 and
 * i8 hold B K-major ("TN"): the layout of cuBLASLt's FP8 kernels, the only one it has
 * on Ada and Hopper, and of cuBLAS's int8 tensor-core kernels (NN int8 ran at 6% of
 * the INT8 peak on an H100).
 *
 * The last cell is the TMA element type of A and B and of C: TMA copies bits, so each
 * is the storage of the in and out formats. tf32 is FLOAT32, not TFLOAT32: its inputs
 * are already rounded to TF32 in their float storage, so the copy is exact either
 * way, and FLOAT32 says what the memory holds. CUtensorMapDataType has no signed or
 * FP8 8-bit type: e4m3 and i8 inputs are UINT8, the storage of both. */
const struct mmb_dtype_info mmb_dtype_table[] = {
    {MMB_F32, "f32", "float", 4, MMB_FMT_F32, MMB_FMT_F32, MMB_FMT_F32, "float", MMB_PIPE_FP32, false,
     MMB_REF_CUBLAS, {false, 1e-4, 0.0, 24, false},
     {MMB_BLAS_SGEMM, MMB_COMPUTE_32F, 0, "cublasSgemm, pedantic FP32 math (no TF32)"}, {MMB_TMA_F32, MMB_TMA_F32}},
    {MMB_F64, "f64", "double", 8, MMB_FMT_F64, MMB_FMT_F64, MMB_FMT_F64, "double", MMB_PIPE_FP64, false,
     MMB_REF_CUBLAS, {false, 1e-11, 0.0, 53, false},
     {MMB_BLAS_DGEMM, MMB_COMPUTE_64F, 0, "cublasDgemm"}, {MMB_TMA_F64, MMB_TMA_F64}},
    {MMB_I32, "i32", "int", 4, MMB_FMT_I32, MMB_FMT_I32, MMB_FMT_I32, "int", MMB_PIPE_INT32, false,
     MMB_REF_EXACT, EXACT, {MMB_BLAS_NONE, MMB_COMPUTE_32I, 0, "none: cuBLAS has no int32 GEMM"},
     {MMB_TMA_I32, MMB_TMA_I32}},
    {MMB_F16, "f16", "__half", 2, MMB_FMT_F16, MMB_FMT_F16, MMB_FMT_F64, "float", MMB_PIPE_TENSOR_F16, false,
     MMB_REF_WIDE, FP32_ACC,
     {MMB_BLAS_GEMM_EX, MMB_COMPUTE_32F, 0, "cublasGemmEx, CUDA_R_16F in and out, CUBLAS_COMPUTE_32F"},
     {MMB_TMA_F16, MMB_TMA_F16}},
    {MMB_BF16, "bf16", "__nv_bfloat16", 2, MMB_FMT_BF16, MMB_FMT_BF16, MMB_FMT_F64, "float", MMB_PIPE_TENSOR_BF16,
     false, MMB_REF_WIDE, FP32_ACC,
     {MMB_BLAS_GEMM_EX, MMB_COMPUTE_32F, 80, "cublasGemmEx, CUDA_R_16BF in and out, CUBLAS_COMPUTE_32F"},
     {MMB_TMA_BF16, MMB_TMA_BF16}},
    {MMB_TF32, "tf32", "float", 4, MMB_FMT_TF32, MMB_FMT_F32, MMB_FMT_F64, "float", MMB_PIPE_TENSOR_TF32, false,
     MMB_REF_WIDE, FP32_ACC,
     {MMB_BLAS_GEMM_EX, MMB_COMPUTE_32F_FAST_TF32, 80,
      "cublasGemmEx, CUDA_R_32F in and out, CUBLAS_COMPUTE_32F_FAST_TF32"},
     {MMB_TMA_F32, MMB_TMA_F32}},
    {MMB_E4M3, "e4m3", "__nv_fp8_e4m3", 1, MMB_FMT_E4M3, MMB_FMT_BF16, MMB_FMT_F64, "float", MMB_PIPE_TENSOR_FP8,
     true, MMB_REF_WIDE, FP8_MMA_ACC,
     {MMB_BLAS_LT_MATMUL, MMB_COMPUTE_32F, 89,
      "cublasLtMatmul, CUDA_R_8F_E4M3 in (TN), CUDA_R_16BF out, CUBLAS_COMPUTE_32F, scales 1"},
     {MMB_TMA_U8, MMB_TMA_BF16}},
    {MMB_I8, "i8", "signed char", 1, MMB_FMT_I8, MMB_FMT_I32, MMB_FMT_I32, "int", MMB_PIPE_TENSOR_I8, true,
     MMB_REF_EXACT, EXACT,
     {MMB_BLAS_GEMM_EX, MMB_COMPUTE_32I, 0, "cublasGemmEx, CUDA_R_8I in, CUDA_R_32I out, CUBLAS_COMPUTE_32I"},
     {MMB_TMA_U8, MMB_TMA_I32}},
    {MMB_DTYPE_COUNT, NULL, NULL, 0, MMB_FMT_COUNT, MMB_FMT_COUNT, MMB_FMT_COUNT, NULL, MMB_PIPE_COUNT, false,
     MMB_REF_CUBLAS, EXACT, {MMB_BLAS_NONE, MMB_COMPUTE_32F, 0, NULL}, {MMB_TMA_NONE, MMB_TMA_NONE}},
};

const struct mmb_dtype_info *mmb_dtype_info(enum mmb_dtype dtype)
{
    if ((unsigned)dtype >= MMB_DTYPE_COUNT)
        return NULL;
    return &mmb_dtype_table[dtype];
}

bool mmb_dtype_parse(const char *text, enum mmb_dtype *out)
{
    for (const struct mmb_dtype_info *d = mmb_dtype_table; d->text; d++) {
        if (strcmp(d->text, text) == 0) {
            *out = d->value;
            return true;
        }
    }
    return false;
}

const struct mmb_format_info *mmb_format_info(enum mmb_format format)
{
    return (unsigned)format < MMB_FMT_COUNT ? &mmb_format_table[format] : NULL;
}

const struct mmb_pipe_info *mmb_pipe_info(enum mmb_pipe pipe)
{
    return (unsigned)pipe < MMB_PIPE_COUNT ? &mmb_pipe_table[pipe] : NULL;
}

bool mmb_pipe_parse(const char *text, enum mmb_pipe *out)
{
    for (const struct mmb_pipe_info *p = mmb_pipe_table; p->text; p++) {
        if (strcmp(p->text, text) == 0) {
            *out = p->value;
            return true;
        }
    }
    return false;
}

double mmb_dtype_tolerance(enum mmb_dtype dtype, long long k)
{
    const struct mmb_dtype_info *d = mmb_dtype_info(dtype);
    if (!d || d->tolerance.exact)
        return 0.0;
    double grows = d->tolerance.k_factor * (double)(k > 0 ? k : 0) * ldexp(1.0, -d->tolerance.acc_bits);
    return grows > d->tolerance.tau_min ? grows : d->tolerance.tau_min;
}

double mmb_dtype_out_roundoff(enum mmb_dtype dtype)
{
    const struct mmb_dtype_info *d = mmb_dtype_info(dtype);
    if (!d || d->tolerance.exact || !d->tolerance.out_rounding)
        return 0.0;
    return ldexp(1.0, -mmb_format_info(d->out)->precision);
}

double mmb_dtype_tolerance_for(enum mmb_dtype dtype, long long k, double override)
{
    return isnan(override) ? mmb_dtype_tolerance(dtype, k) : override;
}

size_t mmb_dtype_b_index(enum mmb_dtype dtype, long long k, long long n, long long K, long long N)
{
    const struct mmb_dtype_info *d = mmb_dtype_info(dtype);
    return d && d->b_col_major ? (size_t)(n * K + k) : (size_t)(k * N + n);
}
