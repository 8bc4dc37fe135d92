/* test_verify.c - the GPU comparison of outputs with the reference: its kernel
 * compiles with NVRTC for sm_80 and sm_90 (CI, no GPU), and on a GPU it gives
 * the host rule's verdict (mmb_inputs_compare) to the bit, for every dtype (outputs
 * and references in their own formats), on outputs with no error beyond the
 * output's rounding, errors within and beyond the tolerance, NaN, infinities, an
 * all-zero reference, and more elements than its grid has threads. */
#include <check.h>
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "core/hash.h"
#include "cuda/compile.h"
#include "cuda/problem/verify.h"
#include "model/inputs.h"

START_TEST(test_kernel_compiles)
{
    const char *const no_defines[] = {NULL};
    char *source = mmb_verifier_source();
    ck_assert_ptr_nonnull(source);
    for (int arch = 80; arch <= 90; arch += 10) {
        struct mmb_compile_request req = {.source_path = "verify.c", .source = source,
                                          .function = "mmb_verify", .defines = no_defines, .arch = arch};
        struct mmb_cubin cubin;
        char err[2048] = "";
        ck_assert_msg(mmb_compile(&req, &cubin, err, sizeof err) == MMB_STATUS_OK, "sm_%d: %s", arch, err);
        ck_assert(cubin.size > 0);
        mmb_cubin_free(&cubin);
    }
    free(source);
}
END_TEST

static bool have_gpu(void)
{
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

static void set_element(void *p, size_t i, enum mmb_format format, double v)
{
    mmb_format_info(format)->encode(p, i, v);
}

enum damage { NONE, WITHIN, BEYOND, NAN_OUT, INF_OUT, NAN_REF, ZERO_REF, POISON };
static const char *const damage_names[] = {"none", "within", "beyond", "nan-out", "inf-out", "nan-ref",
                                           "zero-ref", "poison"};

/* ref drawn in dtype's reference format, out = ref rounded to its output format, then
 * the damage: a few elements changed in the way the case names. */
static void make_case(void *out, void *ref, size_t count, enum mmb_dtype dtype, enum damage d, uint64_t seed)
{
    const struct mmb_dtype_info *di = mmb_dtype_info(dtype);
    const struct mmb_format_info *of = mmb_format_info(di->out), *rf = mmb_format_info(di->ref);
    mmb_inputs_fill_format(ref, count, di->ref, seed);
    if (d == ZERO_REF)
        memset(ref, 0, count * rf->size);
    for (size_t i = 0; i < count; i++)
        of->encode(out, i, rf->decode(ref, i));
    uint64_t state = seed ^ 0xabcdefULL;
    size_t spots[5];
    for (int i = 0; i < 5; i++)
        spots[i] = (size_t)(mmb_splitmix64(&state) % count);
    for (int i = 0; i < 5; i++) {
        double r = rf->decode(ref, spots[i]);
        switch (d) {
        case WITHIN: set_element(out, spots[i], di->out, r + (of->precision ? 1e-7 : 0)); break;
        case BEYOND:
        case ZERO_REF: set_element(out, spots[i], di->out, r + 1 + i); break;
        case NAN_OUT: if (of->precision) set_element(out, spots[i], di->out, NAN); break;
        case INF_OUT: if (of->precision) set_element(out, spots[i], di->out, i % 2 ? INFINITY : -INFINITY); break;
        case NAN_REF: if (rf->precision) set_element(ref, spots[i], di->ref, NAN); break;
        default: break;
        }
    }
    if (d == POISON)
        memset(out, mmb_inputs_poison_byte(dtype), count * of->size);
}

START_TEST(test_gpu_matches_host_rule)
{
    if (!have_gpu()) {
        printf("skipped: no GPU\n");
        return;
    }
    char err[2048] = "";
    struct mmb_verifier *v = NULL;
    int dev = 0, major = 0, minor = 0;
    ck_assert_int_eq(cudaGetDevice(&dev), cudaSuccess);
    ck_assert_int_eq(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev), cudaSuccess);
    ck_assert_int_eq(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev), cudaSuccess);
    ck_assert_msg(mmb_verifier_open(&v, major * 10 + minor, NULL, err, sizeof err) == MMB_STATUS_OK, "%s", err);
    /* 4096 blocks of 256 threads cover 1048576 elements: the larger counts wrap. */
    static const size_t counts[] = {1, 17, 1000, 3 * 1048576 + 7};
    const size_t most = counts[sizeof counts / sizeof counts[0] - 1];
    void *out = malloc(most * 8), *ref = malloc(most * 8), *d_out = NULL, *d_ref = NULL;
    ck_assert(out && ref);
    ck_assert_int_eq(cudaMalloc(&d_out, most * 8), cudaSuccess);
    ck_assert_int_eq(cudaMalloc(&d_ref, most * 8), cudaSuccess);
    for (int dt = 0; dt < MMB_DTYPE_COUNT; dt++)
        for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++)
            for (int d = NONE; d <= POISON; d++) {
                enum mmb_dtype dtype = (enum mmb_dtype)dt;
                const struct mmb_dtype_info *di = mmb_dtype_info(dtype);
                size_t n = counts[ci];
                size_t out_bytes = n * mmb_format_info(di->out)->size, ref_bytes = n * mmb_format_info(di->ref)->size;
                double tol = di->tolerance.exact ? 0.0 : 1e-5;
                make_case(out, ref, n, dtype, (enum damage)d, 1000 * ci + d);
                ck_assert_int_eq(cudaMemcpy(d_out, out, out_bytes, cudaMemcpyHostToDevice), cudaSuccess);
                ck_assert_int_eq(cudaMemcpy(d_ref, ref, ref_bytes, cudaMemcpyHostToDevice), cudaSuccess);
                struct mmb_compare host, gpu;
                mmb_inputs_compare(out, ref, n, dtype, tol, &host);
                enum mmb_status st = mmb_verifier_compare(v, NULL, d_out, d_ref, n, dtype,
                                                          mmb_inputs_ref_max(ref, n, di->ref), tol, &gpu, err,
                                                          sizeof err);
                ck_assert_msg(st == MMB_STATUS_OK, "%s", err);
                const char *what = damage_names[d];
                ck_assert_msg(gpu.ok == host.ok && gpu.mismatches == host.mismatches &&
                                  gpu.first_bad == host.first_bad,
                              "%s, %zu elements, %s: GPU ok %d, %zu bad from %zu; host ok %d, %zu bad from %zu",
                              mmb_dtype_info(dtype)->text, n, what, gpu.ok, gpu.mismatches, gpu.first_bad, host.ok,
                              host.mismatches, host.first_bad);
                ck_assert_msg(memcmp(&gpu.max_rel_err, &host.max_rel_err, sizeof(double)) == 0,
                              "%s, %zu elements, %s: max error %.17g on the GPU, %.17g on the host",
                              mmb_dtype_info(dtype)->text, n, what, gpu.max_rel_err, host.max_rel_err);
                if (d == BEYOND || d == POISON || (d == ZERO_REF && n > 1))
                    ck_assert_msg(!gpu.ok, "%s %zu %s: accepted", mmb_dtype_info(dtype)->text, n, what);
                if (d == NONE) /* only the output's rounding: within u_out |ref| */
                    ck_assert_msg(gpu.ok && (di->out != di->ref || gpu.max_rel_err == 0.0), "%s %zu: rejected",
                                  di->text, n);
            }
    cudaFree(d_out);
    cudaFree(d_ref);
    free(out);
    free(ref);
    mmb_verifier_close(v);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("verify");
    TCase *tc = tcase_create("offline");
    tcase_add_test(tc, test_kernel_compiles);
    suite_add_tcase(s, tc);
    TCase *device = tcase_create("device");
    tcase_set_timeout(device, 300);
    tcase_add_test(device, test_gpu_matches_host_rule);
    suite_add_tcase(s, device);
    return mmb_test_failures(s, true) ? EXIT_FAILURE : EXIT_SUCCESS;
}
