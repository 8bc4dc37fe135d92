/* verify.c - the output against the reference on the GPU (verify.h): one grid-stride
 * pass, a warp reduction, three atomics per warp into a 24-byte verdict. */
#include "cuda/problem/verify.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/errcheck.h"
#include "core/error.h"
#include "cuda/compile.h"
#include "cuda/gpu.h"

/* Every storage format as a double, exactly, by its code (enum mmb_format; the
 * static assertions below hold the numbers to it): the host's decoders
 * (core/dtype.c) to the bit, without the CUDA headers. */
const char mmb_device_formats_source[] =
    "__device__ double mmb_unpack(unsigned bits, int exp_width, int mant_bits, bool ieee) {\n"
    "    unsigned mant = bits & ((1u << mant_bits) - 1u), all = (1u << exp_width) - 1u;\n"
    "    unsigned exp = (bits >> mant_bits) & all;\n"
    "    double sign = (bits >> (mant_bits + exp_width)) & 1u ? -1.0 : 1.0;\n"
    "    int bias = (1 << (exp_width - 1)) - 1;\n"
    "    if (ieee && exp == all) return mant ? __longlong_as_double(0x7ff8000000000000ll)\n"
    "                                        : sign * __longlong_as_double(0x7ff0000000000000ll);\n"
    "    if (!ieee && exp == all && mant == (1u << mant_bits) - 1u) return __longlong_as_double(0x7ff8000000000000ll);\n"
    "    if (exp == 0) return sign * ldexp((double)mant, 1 - bias - mant_bits);\n"
    "    return sign * ldexp((double)(mant | (1u << mant_bits)), (int)exp - bias - mant_bits);\n"
    "}\n"
    "__device__ double mmb_decode(const void *p, unsigned long long i, int format) {\n"
    "    if (format == 0 || format == 5) return ((const float *)p)[i];\n"
    "    if (format == 1) return ((const double *)p)[i];\n"
    "    if (format == 2) return ((const int *)p)[i];\n"
    "    if (format == 3) return mmb_unpack(((const unsigned short *)p)[i], 5, 10, true);\n"
    "    if (format == 4) return mmb_unpack(((const unsigned short *)p)[i], 8, 7, true);\n"
    "    if (format == 6) return mmb_unpack(((const unsigned char *)p)[i], 4, 3, false);\n"
    "    if (format == 7) return ((const signed char *)p)[i];\n"
    "    return __longlong_as_double(0x7ff8000000000000ll);\n"
    "}\n";
_Static_assert(MMB_FMT_F32 == 0 && MMB_FMT_F64 == 1 && MMB_FMT_I32 == 2 && MMB_FMT_F16 == 3 && MMB_FMT_BF16 == 4 &&
                   MMB_FMT_TF32 == 5 && MMB_FMT_E4M3 == 6 && MMB_FMT_I8 == 7 && MMB_FMT_COUNT == 8,
               "mmb_device_formats_source numbers the formats as enum mmb_format does");

/* The rule of mmb_inputs_compare, element by element: the error of a NaN or infinite
 * output is infinite, any other is |out - ref| / ref_max in double (exact conversions,
 * a correctly rounded subtraction and division, as on the host); an element is bad
 * when its error is not within tol + u_out |ref| / ref_max (that bound computed with
 * the host's roundings in the host's order, u_out's term only when u_out > 0), for
 * exact dtypes when it differs at all. The largest error is kept as the bits of a
 * non-negative double, whose order as unsigned integers is their order as numbers
 * (infinity above every finite one). */
const char mmb_verifier_body[] =
    "struct mmb_verdict { unsigned long long mismatches, first_bad, max_err_bits; };\n"
    "extern \"C\" __global__ void mmb_verify(const void *out, int out_format, const void *ref, int ref_format,\n"
    "                                        unsigned long long count, int exact, double ref_max, double tol,\n"
    "                                        double u_out, mmb_verdict *v) {\n"
    "    unsigned long long bad = 0, first = ~0ull;\n"
    "    double worst = 0.0;\n"
    "    unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;\n"
    "    for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < count;\n"
    "         i += stride) {\n"
    "        double o = mmb_decode(out, i, out_format), r = mmb_decode(ref, i, ref_format);\n"
    "        double e = (isnan(o) || isinf(o)) ? __longlong_as_double(0x7ff0000000000000ll)\n"
    "                                          : __ddiv_rn(fabs(__dsub_rn(o, r)), ref_max);\n"
    "        if (isnan(e)) e = __longlong_as_double(0x7ff0000000000000ll);\n"
    "        double bound = tol;\n"
    "        if (u_out > 0.0) bound = __dadd_rn(tol, __dmul_rn(u_out, __ddiv_rn(fabs(r), ref_max)));\n"
    "        bool differs = exact ? o != r : !(e <= bound);\n"
    "        if (differs) { if (bad++ == 0) first = i; }\n"
    "        if (e > worst) worst = e;\n"
    "    }\n"
    "    unsigned long long bits = (unsigned long long)__double_as_longlong(worst);\n"
    "    for (int d = 16; d > 0; d /= 2) {\n"
    "        bad += __shfl_down_sync(0xffffffffu, bad, d);\n"
    "        unsigned long long f = __shfl_down_sync(0xffffffffu, first, d);\n"
    "        unsigned long long b = __shfl_down_sync(0xffffffffu, bits, d);\n"
    "        first = f < first ? f : first;\n"
    "        bits = b > bits ? b : bits;\n"
    "    }\n"
    "    if ((threadIdx.x & 31) == 0) {\n"
    "        if (bad) { atomicAdd(&v->mismatches, bad); atomicMin(&v->first_bad, first); }\n"
    "        atomicMax(&v->max_err_bits, bits);\n"
    "    }\n"
    "}\n";

struct verdict {
    unsigned long long mismatches, first_bad, max_err_bits;
};

struct mmb_verifier {
    struct mmb_module *kernel;
    char *source;                  /* mmb_verifier_source(), kept while the module is built */
    struct verdict *d_verdict;     /* device */
    struct verdict *h_verdict;     /* pinned host */
};

enum mmb_status mmb_verifier_open(struct mmb_verifier **out, int arch, const char *cache_dir, char *err,
                                  size_t errlen)
{
    cudaError_t e;
    enum mmb_status st;
    struct mmb_verifier *v = calloc(1, sizeof *v);
    *out = NULL;
    if (!v) {
        mmb_errorf(err, errlen, "out of host memory");
        return MMB_STATUS_OUT_OF_MEMORY;
    }
    if (!(v->source = mmb_verifier_source())) {
        mmb_errorf(err, errlen, "out of host memory");
        st = MMB_STATUS_OUT_OF_MEMORY;
        goto fail;
    }
    struct mmb_compile_request req = {
        .source_path = "mmb_verify.cu", .source = v->source, .function = "mmb_verify",
        .arch = arch, .cache_dir = cache_dir,
    };
    struct mmb_kernel_attrs attrs;
    if ((st = mmb_module_build(&req, &v->kernel, &attrs, err, errlen)) != MMB_STATUS_OK)
        goto fail;
    MMB_CHECK_CUDA(e = cudaMalloc((void **)&v->d_verdict, sizeof *v->d_verdict), st = mmb_gpu_status_of(e); goto fail);
    MMB_CHECK_CUDA(e = cudaMallocHost((void **)&v->h_verdict, sizeof *v->h_verdict), st = mmb_gpu_status_of(e);
                   goto fail);
    *out = v;
    return MMB_STATUS_OK;
fail:
    mmb_verifier_close(v);
    return st;
}

void mmb_verifier_close(struct mmb_verifier *v)
{
    if (!v)
        return;
    mmb_module_unload(v->kernel);
    free(v->source);
    if (v->d_verdict)
        cudaFree(v->d_verdict);
    if (v->h_verdict)
        cudaFreeHost(v->h_verdict);
    free(v);
}

char *mmb_verifier_source(void)
{
    size_t a = strlen(mmb_device_formats_source), b = strlen(mmb_verifier_body);
    char *text = malloc(a + b + 1);
    if (text) {
        memcpy(text, mmb_device_formats_source, a);
        memcpy(text + a, mmb_verifier_body, b + 1);
    }
    return text;
}

enum mmb_status mmb_verifier_compare(struct mmb_verifier *v, void *stream, const void *out, const void *ref,
                                     size_t count, enum mmb_dtype dtype, double ref_max, double tolerance,
                                     struct mmb_compare *result, char *err, size_t errlen)
{
    cudaError_t e;
    enum mmb_status st;
    cudaStream_t s = (cudaStream_t)stream;
    const struct mmb_dtype_info *d = mmb_dtype_info(dtype);
    if (!d) {
        mmb_errorf(err, errlen, "no GPU comparison for dtype %d", (int)dtype);
        return MMB_STATUS_INVALID_CONFIG;
    }
    int out_format = (int)d->out, ref_format = (int)d->ref, exact = d->tolerance.exact;
    double u_out = mmb_dtype_out_roundoff(dtype);
    const struct verdict fresh = {0, ~0ull, 0};
    *v->h_verdict = fresh;
    MMB_CHECK_CUDA(e = cudaMemcpyAsync(v->d_verdict, v->h_verdict, sizeof fresh, cudaMemcpyHostToDevice, s),
                   return mmb_gpu_status_of(e));
    unsigned long long n = count;
    void *args[] = {(void *)&out, &out_format, (void *)&ref, &ref_format, &n, &exact, &ref_max, &tolerance, &u_out,
                    &v->d_verdict};
    long long block[3] = {256, 1, 1};
    long long blocks = (long long)((count + 255) / 256);
    long long grid[3] = {blocks < 1 ? 1 : blocks > 4096 ? 4096 : blocks, 1, 1};
    if ((st = mmb_module_launch(v->kernel, grid, block, NULL, 0, args, stream, err, errlen)) != MMB_STATUS_OK)
        return st;
    MMB_CHECK_CUDA(e = cudaMemcpyAsync(v->h_verdict, v->d_verdict, sizeof fresh, cudaMemcpyDeviceToHost, s),
                   return mmb_gpu_status_of(e));
    MMB_CHECK_CUDA(e = cudaStreamSynchronize(s), return mmb_gpu_status_of(e));
    double worst;
    memcpy(&worst, &v->h_verdict->max_err_bits, sizeof worst);
    result->mismatches = (size_t)v->h_verdict->mismatches;
    result->first_bad = v->h_verdict->mismatches ? (size_t)v->h_verdict->first_bad : count;
    result->max_rel_err = worst;
    result->ok = result->mismatches == 0;
    return MMB_STATUS_OK;
}
