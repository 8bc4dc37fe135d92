/* tensor_map.c - cuTensorMapEncodeTiled through the driver entry point (tensor_map.h).
 * The model layer's rules (model/tma.h) are checked first, so that a configuration
 * the driver would refuse with CUDA_ERROR_INVALID_VALUE says which rule it broke. */
#include "cuda/tensor_map.h"

#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/errcheck.h"
#include "core/error.h"
#include "cuda/gpu.h"

/* core/dtype.h numbers the TMA types as the driver does. */
_Static_assert((int)MMB_TMA_U8 == (int)CU_TENSOR_MAP_DATA_TYPE_UINT8 && (int)MMB_TMA_U16 == (int)CU_TENSOR_MAP_DATA_TYPE_UINT16 &&
               (int)MMB_TMA_U32 == (int)CU_TENSOR_MAP_DATA_TYPE_UINT32 && (int)MMB_TMA_I32 == (int)CU_TENSOR_MAP_DATA_TYPE_INT32 &&
               (int)MMB_TMA_U64 == (int)CU_TENSOR_MAP_DATA_TYPE_UINT64 && (int)MMB_TMA_I64 == (int)CU_TENSOR_MAP_DATA_TYPE_INT64 &&
               (int)MMB_TMA_F16 == (int)CU_TENSOR_MAP_DATA_TYPE_FLOAT16 && (int)MMB_TMA_F32 == (int)CU_TENSOR_MAP_DATA_TYPE_FLOAT32 &&
               (int)MMB_TMA_F64 == (int)CU_TENSOR_MAP_DATA_TYPE_FLOAT64 && (int)MMB_TMA_BF16 == (int)CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 &&
               (int)MMB_TMA_F32_FTZ == (int)CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ &&
               (int)MMB_TMA_TF32 == (int)CU_TENSOR_MAP_DATA_TYPE_TFLOAT32 &&
               (int)MMB_TMA_TF32_FTZ == (int)CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ,
               "enum mmb_tma_type must number the types as CUtensorMapDataType");
/* What a kernel's `struct tma_desc` is. */
_Static_assert(sizeof(CUtensorMap) == 128, "a tensor map is 128 bytes");

/* The driver's entry points, found once. */
static struct {
    pthread_once_t once;
    PFN_cuTensorMapEncodeTiled_v12000 encode;
    PFN_cuGetErrorName_v6000 error_name;
    char why[256]; /* why encode is NULL */
} driver = {.once = PTHREAD_ONCE_INIT};

static void *entry_point(const char *symbol, char *why, size_t whylen)
{
    void *fn = NULL;
    enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
    cudaError_t e = cudaGetDriverEntryPointByVersion(symbol, &fn, 12000, cudaEnableDefault, &q);
    if (e != cudaSuccess)
        mmb_errorf(why, whylen, "cudaGetDriverEntryPointByVersion(\"%s\"): %s: %s", symbol, cudaGetErrorName(e),
                   cudaGetErrorString(e));
    else if (q != cudaDriverEntryPointSuccess || !fn)
        mmb_errorf(why, whylen, "the driver has no %s (entry point query result %d)", symbol, (int)q);
    return e == cudaSuccess && q == cudaDriverEntryPointSuccess ? fn : NULL;
}

static void find_driver(void)
{
    void *name = entry_point("cuGetErrorName", driver.why, sizeof driver.why);
    void *encode = entry_point("cuTensorMapEncodeTiled", driver.why, sizeof driver.why);
    /* Object to function pointers, as with dlsym. */
    memcpy(&driver.error_name, &name, sizeof name);
    memcpy(&driver.encode, &encode, sizeof encode);
}

static const char *error_name(CUresult r)
{
    const char *name = NULL;
    if (!driver.error_name || driver.error_name(r, &name) != CUDA_SUCCESS || !name)
        return "an unknown CUresult";
    return name;
}

static const CUtensorMapSwizzle swizzles[] = {CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_SWIZZLE_32B,
                                              CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_SWIZZLE_128B};

enum mmb_status mmb_tensor_map_encode(CUtensorMap *map, const struct mmb_tma_box *box, enum mmb_tma_type type,
                                      void *base, const struct mmb_size *size, char *err, size_t errlen)
{
    const char *name = mmb_tma_matrix_name(box->matrix);
    size_t bytes = mmb_tma_type_bytes(type);
    if (!bytes) {
        mmb_errorf(err, errlen, "tma(%s): the dtype has no TMA element type", name);
        return MMB_STATUS_INVALID_CONFIG;
    }
    char why[256];
    if (mmb_tma_check_box(box, bytes, why, sizeof why) || mmb_tma_check_matrix(box->matrix, size, bytes, why,
                                                                              sizeof why)) {
        mmb_errorf(err, errlen, "tma(%s): %s", name, why);
        return MMB_STATUS_INVALID_CONFIG;
    }
    if ((uintptr_t)base % MMB_TMA_ALIGN) {
        mmb_errorf(err, errlen, "tma(%s): the matrix starts at %p; a tensor map needs a multiple of %d bytes", name,
                   base, MMB_TMA_ALIGN);
        return MMB_STATUS_INVALID_CONFIG;
    }
    pthread_once(&driver.once, find_driver);
    if (!driver.encode) {
        mmb_errorf(err, errlen, "tma(%s): %s", name, driver.why);
        return MMB_STATUS_LAUNCH_ERROR;
    }
    long long rows, cols;
    mmb_tma_extent(box->matrix, size, &rows, &cols);
    const cuuint64_t dims[2] = {(cuuint64_t)cols, (cuuint64_t)rows};
    const cuuint64_t strides[1] = {(cuuint64_t)cols * bytes}; /* of the outer dimension; the inner is dense */
    const cuuint32_t boxdims[2] = {(cuuint32_t)box->inner, (cuuint32_t)box->outer};
    const cuuint32_t unit[2] = {1, 1};
    int sw = box->swizzle == 0 ? 0 : box->swizzle == 32 ? 1 : box->swizzle == 64 ? 2 : 3;
    memset(map, 0, sizeof *map);
    CUresult r = driver.encode(map, (CUtensorMapDataType)type, 2, base, dims, strides, boxdims, unit,
                               CU_TENSOR_MAP_INTERLEAVE_NONE, swizzles[sw], CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        mmb_errorf(err, errlen, "tma(%s, %lld, %lld, %lld) of a %lld x %lld matrix: cuTensorMapEncodeTiled: %s", name,
                   box->inner, box->outer, box->swizzle, rows, cols, error_name(r));
        return r == CUDA_ERROR_INVALID_VALUE ? MMB_STATUS_INVALID_CONFIG : MMB_STATUS_LAUNCH_ERROR;
    }
    return MMB_STATUS_OK;
}
