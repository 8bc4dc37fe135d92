/* test_dtype.c - the precision tables (core/dtype.h): every dtype's formats, pipe
 * and library call are consistent; the conversions of f16, bf16, tf32 and e4m3 are
 * exact one way and round to nearest, ties to even, the other, over every bit pattern;
 * and the tolerance rule, on the host, passes a correct FP32-accumulating GEMM and
 * fails one that accumulates in the input type (K = 8192) or truncates its output
 * (K = 256), in every rounding dtype; and where it puts an FP8 tensor core's own
 * accumulation, with and without promotion to FP32. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "core/dtype.h"
#include "model/inputs.h"

START_TEST(test_tables_consistent)
{
    int n = 0;
    for (const struct mmb_dtype_info *d = mmb_dtype_table; d->text; d++, n++) {
        ck_assert_int_eq(d->value, n);
        const struct mmb_format_info *in = mmb_format_info(d->in), *out = mmb_format_info(d->out);
        ck_assert_ptr_nonnull(in);
        ck_assert_ptr_nonnull(out);
        ck_assert_ptr_nonnull(mmb_format_info(d->ref));
        ck_assert_str_eq(d->ctype, in->ctype);
        ck_assert_uint_eq(d->size, in->size);
        ck_assert_ptr_nonnull(mmb_pipe_info(d->pipe));
        ck_assert(d->acc_ctype && d->acc_ctype[0]);
        ck_assert(d->blas.text && d->blas.text[0]);
        /* exact dtypes have integer outputs and an exact reference; the others round */
        ck_assert_int_eq(d->tolerance.exact, out->precision == 0);
        ck_assert_int_eq(d->tolerance.exact, d->ref_kind == MMB_REF_EXACT);
        if (d->ref_kind == MMB_REF_WIDE)
            ck_assert_int_eq(d->ref, MMB_FMT_F64);
        if (d->ref_kind == MMB_REF_CUBLAS)
            ck_assert_int_eq(d->ref, d->out);
        if (d->ref_kind == MMB_REF_WIDE)
            ck_assert_int_ne(d->blas.api, MMB_BLAS_NONE);
    }
    ck_assert_int_eq(n, MMB_DTYPE_COUNT);
    n = 0;
    for (const struct mmb_format_info *f = mmb_format_table; f->text; f++, n++) {
        ck_assert_int_eq(f->value, n);
        ck_assert(f->decode && f->encode && f->size >= 1 && f->draw_min < f->draw_max);
    }
    ck_assert_int_eq(n, MMB_FMT_COUNT);
    n = 0;
    for (const struct mmb_pipe_info *p = mmb_pipe_table; p->text; p++, n++) {
        enum mmb_pipe back;
        ck_assert_int_eq(p->value, n);
        ck_assert(mmb_pipe_parse(p->text, &back) && back == p->value);
        ck_assert_ptr_nonnull(mmb_pipe_info(p->fallback));
        ck_assert(!mmb_pipe_info(p->fallback)->tensor || p->fallback == p->value);
    }
    ck_assert_int_eq(n, MMB_PIPE_COUNT);
    enum mmb_pipe p;
    ck_assert(!mmb_pipe_parse("tensor", &p));
    ck_assert_str_eq(mmb_pipe_info(MMB_PIPE_TENSOR_F64)->text, "tensor_f64");
    ck_assert_int_eq(mmb_pipe_info(MMB_PIPE_TENSOR_F64)->fallback, MMB_PIPE_FP64);
    ck_assert_uint_eq(mmb_dtype_b_index(MMB_E4M3, 3, 5, 16, 32), 5 * 16 + 3);
    ck_assert_uint_eq(mmb_dtype_b_index(MMB_F16, 3, 5, 16, 32), 3 * 32 + 5);
}
END_TEST

/* Every bit pattern of a 16- or 8-bit format decodes to a value that encodes back to
 * the same bits (NaNs to the format's NaN). */
static void round_trip_all(enum mmb_format format, unsigned patterns)
{
    const struct mmb_format_info *f = mmb_format_info(format);
    unsigned nans = 0;
    for (unsigned bits = 0; bits < patterns; bits++) {
        unsigned char in[2] = {(unsigned char)bits, (unsigned char)(bits >> 8)}, out[2] = {0, 0};
        double v = f->decode(in, 0);
        f->encode(out, 0, v);
        if (isnan(v)) {
            nans++;
            ck_assert_msg(isnan(f->decode(out, 0)), "%s 0x%x", f->text, bits);
            continue;
        }
        ck_assert_msg(memcmp(in, out, f->size) == 0, "%s 0x%x -> %.17g -> 0x%x", f->text, bits, v,
                      out[0] | out[1] << 8);
    }
    printf("%s: %u patterns, %u NaN\n", f->text, patterns, nans);
}

static double dec(enum mmb_format format, unsigned bits)
{
    unsigned char b[2] = {(unsigned char)bits, (unsigned char)(bits >> 8)};
    return mmb_format_info(format)->decode(b, 0);
}

static unsigned enc(enum mmb_format format, double v)
{
    unsigned char b[4] = {0, 0, 0, 0};
    mmb_format_info(format)->encode(b, 0, v);
    return b[0] | b[1] << 8;
}

static double rounded(enum mmb_format format, double v)
{
    unsigned char b[8];
    mmb_format_info(format)->encode(b, 0, v);
    return mmb_format_info(format)->decode(b, 0);
}

START_TEST(test_f16_bits)
{
    round_trip_all(MMB_FMT_F16, 1u << 16);
    ck_assert_uint_eq(enc(MMB_FMT_F16, 1.0), 0x3c00);
    ck_assert_uint_eq(enc(MMB_FMT_F16, -2.0), 0xc000);
    ck_assert_uint_eq(enc(MMB_FMT_F16, 65504.0), 0x7bff);
    ck_assert_uint_eq(enc(MMB_FMT_F16, 65519.9), 0x7bff);
    ck_assert_uint_eq(enc(MMB_FMT_F16, 65520.0), 0x7c00); /* the tie rounds to even: infinity */
    ck_assert_uint_eq(enc(MMB_FMT_F16, 0x1p-24), 0x0001); /* the smallest subnormal */
    ck_assert_uint_eq(enc(MMB_FMT_F16, 0x1p-25), 0x0000); /* a tie with zero: even */
    ck_assert_uint_eq(enc(MMB_FMT_F16, 1.0 + 0x1p-11), 0x3c00);     /* tie: to even */
    ck_assert_uint_eq(enc(MMB_FMT_F16, 1.0 + 3 * 0x1p-11), 0x3c02); /* tie: to even */
    ck_assert(isinf(dec(MMB_FMT_F16, 0x7c00)) && isnan(dec(MMB_FMT_F16, 0x7e00)));
    ck_assert(isnan(dec(MMB_FMT_F16, 0xffff))); /* the poison */
#ifdef __FLT16_MAX__
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic" /* _Float16 is ISO C23 (TS 18661-3), not C11 */
    /* against the compiler's own conversion, on random doubles */
    uint64_t state = 7;
    for (int i = 0; i < 200000; i++) {
        uint64_t r = state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        double v = ldexp((double)(r >> 11) * 0x1p-53 - 0.5, (int)(r % 40) - 30);
        _Float16 h = (_Float16)v;
        ck_assert_msg(rounded(MMB_FMT_F16, v) == (double)h, "%.17g: %.17g, _Float16 %.17g", v,
                      rounded(MMB_FMT_F16, v), (double)h);
    }
#pragma GCC diagnostic pop
#endif
}
END_TEST

START_TEST(test_bf16_bits)
{
    round_trip_all(MMB_FMT_BF16, 1u << 16);
    for (unsigned bits = 0; bits < 1u << 16; bits++) {
        uint32_t word = bits << 16;
        float f;
        memcpy(&f, &word, sizeof f);
        double v = dec(MMB_FMT_BF16, bits);
        ck_assert_msg(v == (double)f || (isnan(v) && isnan(f)), "0x%x", bits);
    }
    ck_assert_uint_eq(enc(MMB_FMT_BF16, 1.0), 0x3f80);
    ck_assert_uint_eq(enc(MMB_FMT_BF16, 1.0 + 0x1p-8), 0x3f80);     /* tie: to even */
    ck_assert_uint_eq(enc(MMB_FMT_BF16, 1.0 + 3 * 0x1p-8), 0x3f82); /* tie: to even */
    ck_assert_uint_eq(enc(MMB_FMT_BF16, 1.0 + 0x1.8p-8), 0x3f81);
    ck_assert(isnan(dec(MMB_FMT_BF16, 0xffff)));
}
END_TEST

START_TEST(test_e4m3_bits)
{
    round_trip_all(MMB_FMT_E4M3, 1u << 8);
    ck_assert(dec(MMB_FMT_E4M3, 0x7e) == 448.0 && dec(MMB_FMT_E4M3, 0xfe) == -448.0);
    ck_assert(dec(MMB_FMT_E4M3, 0x01) == 0x1p-9 && dec(MMB_FMT_E4M3, 0x38) == 1.0);
    ck_assert(dec(MMB_FMT_E4M3, 0x08) == 0x1p-6); /* the smallest normal */
    ck_assert(isnan(dec(MMB_FMT_E4M3, 0x7f)) && isnan(dec(MMB_FMT_E4M3, 0xff)));
    ck_assert_uint_eq(enc(MMB_FMT_E4M3, 1.0625), 0x38); /* tie between 1 and 1.125: even */
    ck_assert_uint_eq(enc(MMB_FMT_E4M3, 1.1875), 0x3a); /* tie between 1.125 and 1.25: even */
    ck_assert_uint_eq(enc(MMB_FMT_E4M3, 0.3), enc(MMB_FMT_E4M3, 0.3125)); /* 0.3 -> 0.3125 */
    ck_assert(isnan(rounded(MMB_FMT_E4M3, 480.0))); /* beyond 448 + half an ulp: no infinity */
    ck_assert(rounded(MMB_FMT_E4M3, 460.0) == 448.0);
}
END_TEST

START_TEST(test_tf32_rounding)
{
    ck_assert(rounded(MMB_FMT_TF32, 1.0 + 0x1p-11) == 1.0);
    ck_assert(rounded(MMB_FMT_TF32, 1.0 + 3 * 0x1p-11) == 1.0 + 0x1p-9);
    ck_assert(rounded(MMB_FMT_TF32, 1.0 + 0x1.8p-11) == 1.0 + 0x1p-10);
    ck_assert(rounded(MMB_FMT_TF32, 0x1.ffep-1) == 1.0);
    ck_assert(rounded(MMB_FMT_TF32, 1e-40) == (double)(float)rounded(MMB_FMT_TF32, 1e-40)); /* subnormal, a float */
    /* every TF32 value is a float with 13 zero low bits */
    uint64_t state = 3;
    for (int i = 0; i < 100000; i++) {
        uint64_t r = state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        float f = (float)rounded(MMB_FMT_TF32, ldexp((double)(r >> 11) * 0x1p-53 - 0.5, (int)(r % 60) - 30));
        uint32_t w;
        memcpy(&w, &f, sizeof w);
        ck_assert_uint_eq(w & 0x1fffu, 0);
    }
}
END_TEST

START_TEST(test_rule_values)
{
    ck_assert_double_eq(mmb_dtype_tolerance(MMB_F32, 8192), 1e-4);
    ck_assert_double_eq(mmb_dtype_tolerance(MMB_F64, 8192), 1e-11);
    ck_assert_double_eq(mmb_dtype_tolerance(MMB_I32, 8192), 0.0);
    ck_assert_double_eq(mmb_dtype_tolerance(MMB_I8, 8192), 0.0);
    ck_assert_double_eq(mmb_dtype_tolerance(MMB_F16, 8192), 3.0 * 8192 * 0x1p-24);
    ck_assert_double_eq(mmb_dtype_tolerance(MMB_BF16, 1), 3.0 * 0x1p-24);
    ck_assert_double_eq(mmb_dtype_tolerance(MMB_E4M3, 256), 0x1p-10);
    ck_assert_double_eq(mmb_dtype_tolerance(MMB_E4M3, 8192), 3.0 * 8192 * 0x1p-24);
    ck_assert_double_eq(mmb_dtype_out_roundoff(MMB_F16), 0x1p-11);
    ck_assert_double_eq(mmb_dtype_out_roundoff(MMB_BF16), 0x1p-8);
    ck_assert_double_eq(mmb_dtype_out_roundoff(MMB_E4M3), 0x1p-8);
    ck_assert_double_eq(mmb_dtype_out_roundoff(MMB_TF32), 0x1p-24);
    ck_assert_double_eq(mmb_dtype_out_roundoff(MMB_F32), 0.0);
    ck_assert_double_eq(mmb_dtype_out_roundoff(MMB_I8), 0.0);
    ck_assert_double_eq(mmb_dtype_tolerance_for(MMB_F16, 8192, 0.5), 0.5);
    ck_assert_double_eq(mmb_dtype_tolerance_for(MMB_F16, 1024, NAN), 3.0 * 1024 * 0x1p-24);
}
END_TEST

/* How a simulated kernel computes each output. */
enum way {
    FP32_SEQUENTIAL,  /* a thread's loop: float products (exact), float sum, then rounded to out */
    FP32_BLOCKED,     /* as the tensor cores: 16 products summed exactly, then into a float sum */
    IN_TYPE,          /* elem_t arithmetic: product and sum rounded to the input type each step */
    TRUNCATED,        /* FP32 sequential, the output truncated toward zero instead of rounded */
    FP8_MMA,          /* Hopper's FP8 MMA as measured elsewhere: each 32 products added to the
                       * accumulator keeping 14 significant bits (truncated), the accumulator
                       * promoted to an FP32 sum every 512 products, as cuBLASLt does */
    FP8_MMA_ONLY,     /* the same without promotion: the whole sum in the MMA accumulator */
};
static const char *const way_names[] = {"fp32-sequential", "fp32-blocked", "in-type accumulation", "truncated out",
                                        "fp8 mma, promoted", "fp8 mma only"};

/* v truncated toward zero to 14 significant bits of the larger of |big| and |v|. */
static double mma_truncate(double v, double big)
{
    int e;
    frexp(fmax(fabs(big), fabs(v)), &e);
    double q = ldexp(1.0, e - 14);
    return trunc(v / q) * q;
}

/* x truncated toward zero onto format's grid. */
static double truncated(enum mmb_format format, double x)
{
    double r = rounded(format, x);
    if (fabs(r) <= fabs(x))
        return r;
    int e;
    frexp(x, &e);
    double q = ldexp(1.0, e - mmb_format_info(format)->precision); /* ulp of |x|'s binade */
    return rounded(format, trunc(x / q) * q);
}

/* C = A B of M x N x K in dtype, computed the given way; the verdict of the rule. */
static struct mmb_compare simulate(enum mmb_dtype dtype, int M, int N, int K, enum way way)
{
    const struct mmb_dtype_info *d = mmb_dtype_info(dtype);
    size_t in = mmb_format_info(d->in)->size, out = mmb_format_info(d->out)->size;
    unsigned char *A = malloc((size_t)M * K * in), *B = malloc((size_t)K * N * in);
    unsigned char *C = malloc((size_t)M * N * out);
    double *ref = malloc((size_t)M * N * sizeof *ref);
    ck_assert(A && B && C && ref);
    mmb_inputs_fill(A, (size_t)M * K, dtype, 1);
    mmb_inputs_fill(B, (size_t)K * N, dtype, 2);
    for (int r = 0; r < M; r++)
        for (int c = 0; c < N; c++) {
            double exact = 0.0, acc_in = 0.0;
            float sum = 0.0f;
            for (int k = 0; k < K; k++) {
                double a = mmb_inputs_element(A, (size_t)r * K + k, d->in);
                double b = mmb_inputs_element(B, mmb_dtype_b_index(dtype, k, c, K, N), d->in);
                exact += a * b; /* products exact; K = 8192 sums err by under 2^-40 relative */
                sum += (float)(a * b);
                acc_in = rounded(d->in, acc_in + rounded(d->in, a * b));
            }
            double v = way == IN_TYPE ? acc_in : sum;
            if (way == FP8_MMA || way == FP8_MMA_ONLY) {
                float master = 0.0f;
                double acc = 0.0;
                for (int k0 = 0; k0 < K; k0 += 32) {
                    double part = 0.0, big = fabs(acc);
                    for (int k = k0; k < k0 + 32 && k < K; k++) {
                        double p = mmb_inputs_element(A, (size_t)r * K + k, d->in) *
                                   mmb_inputs_element(B, mmb_dtype_b_index(dtype, k, c, K, N), d->in);
                        part += p;
                        big = fmax(big, fabs(p));
                    }
                    acc = mma_truncate(acc + part, big);
                    if (way == FP8_MMA && (k0 + 32) % 512 == 0)
                        master += (float)acc, acc = 0.0;
                }
                v = master + (float)acc;
            }
            if (way == FP32_BLOCKED) { /* recompute: blocks of 16 summed in double */
                float s = 0.0f;
                for (int k0 = 0; k0 < K; k0 += 16) {
                    double part = 0.0;
                    for (int k = k0; k < k0 + 16 && k < K; k++)
                        part += mmb_inputs_element(A, (size_t)r * K + k, d->in) *
                                mmb_inputs_element(B, mmb_dtype_b_index(dtype, k, c, K, N), d->in);
                    s += (float)part;
                }
                v = s;
            }
            ref[(size_t)r * N + c] = exact;
            double o = way == TRUNCATED ? truncated(d->out, v) : rounded(d->out, v);
            mmb_format_info(d->out)->encode(C, (size_t)r * N + c, o);
        }
    struct mmb_compare cmp;
    mmb_inputs_compare(C, ref, (size_t)M * N, dtype, mmb_dtype_tolerance(dtype, K), &cmp);
    printf("%-5s %dx%dx%d %-21s max error %.3g of max|ref| (tau %.3g, u_out %.3g): %s, %zu bad\n", d->text, M, N,
           K, way_names[way], cmp.max_rel_err, mmb_dtype_tolerance(dtype, K), mmb_dtype_out_roundoff(dtype),
           cmp.ok ? "PASS" : "FAIL", cmp.mismatches);
    free(A);
    free(B);
    free(C);
    free(ref);
    return cmp;
}

static const enum mmb_dtype rounding[] = {MMB_F16, MMB_BF16, MMB_TF32, MMB_E4M3};

START_TEST(test_rule_passes_fp32_accumulation_at_8192)
{
    enum mmb_dtype dtype = rounding[_i];
    ck_assert(simulate(dtype, 24, 24, 8192, FP32_SEQUENTIAL).ok);
    ck_assert(simulate(dtype, 24, 24, 8192, FP32_BLOCKED).ok);
}
END_TEST

START_TEST(test_rule_fails_accumulation_in_the_input_type_at_8192)
{
    enum mmb_dtype dtype = rounding[_i];
    if (dtype == MMB_TF32)
        return; /* TF32 arithmetic has no such kernel: an FP32 sum of TF32 products is the correct one */
    ck_assert(!simulate(dtype, 24, 24, 8192, IN_TYPE).ok);
}
END_TEST

/* FP8 tensor cores keep about 14 bits while they add their products: with the
 * partial sums promoted to FP32 (cuBLASLt), e4m3's tau_min covers them at any K;
 * without, the error at K = 8192 is several times tau: such a kernel fails unless its
 * profile sets tolerance.e4m3. */
START_TEST(test_rule_and_fp8_mma_accumulation)
{
    ck_assert(simulate(MMB_E4M3, 48, 48, 256, FP8_MMA).ok);
    ck_assert(simulate(MMB_E4M3, 48, 48, 1024, FP8_MMA).ok);
    ck_assert(simulate(MMB_E4M3, 48, 48, 8192, FP8_MMA).ok);
    ck_assert(simulate(MMB_E4M3, 48, 48, 256, FP8_MMA_ONLY).ok);
    ck_assert(!simulate(MMB_E4M3, 48, 48, 8192, FP8_MMA_ONLY).ok);
}
END_TEST

START_TEST(test_rule_fails_truncated_output)
{
    enum mmb_dtype dtype = rounding[_i];
    if (dtype == MMB_TF32)
        return; /* its output is FP32: truncating it is within the accumulation's tolerance */
    ck_assert(simulate(dtype, 32, 32, 256, FP32_SEQUENTIAL).ok);
    ck_assert(!simulate(dtype, 32, 32, 256, TRUNCATED).ok);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("dtype");
    TCase *tc = tcase_create("tables");
    tcase_add_test(tc, test_tables_consistent);
    tcase_add_test(tc, test_f16_bits);
    tcase_add_test(tc, test_bf16_bits);
    tcase_add_test(tc, test_e4m3_bits);
    tcase_add_test(tc, test_tf32_rounding);
    tcase_add_test(tc, test_rule_values);
    suite_add_tcase(s, tc);
    TCase *rule = tcase_create("rule");
    tcase_set_timeout(rule, 120);
    int n = (int)(sizeof rounding / sizeof rounding[0]);
    tcase_add_loop_test(rule, test_rule_passes_fp32_accumulation_at_8192, 0, n);
    tcase_add_loop_test(rule, test_rule_fails_accumulation_in_the_input_type_at_8192, 0, n);
    tcase_add_loop_test(rule, test_rule_fails_truncated_output, 0, n);
    tcase_add_test(rule, test_rule_and_fp8_mma_accumulation);
    suite_add_tcase(s, rule);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
