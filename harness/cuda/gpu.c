/* gpu.c - device queries, peaks, and the runtime library API for NVRTC cubins
 * (cudaLibraryLoadData / cudaLibraryGetKernel / cudaLaunchKernel), so that mmbench
 * never links libcuda and still starts without a driver. */
#include "cuda/gpu.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/errcheck.h"
#include "core/util.h"
#include "results/peaks.h"

struct mmb_module {
    cudaLibrary_t library;
    cudaKernel_t kernel;
    size_t dyn_smem_limit;
};

int mmb_gpu_count(char *err, size_t errlen)
{
    int n = 0;
    MMB_CHECK_CUDA(cudaGetDeviceCount(&n), return 0);
    if (n == 0)
        mmb_errorf(err, errlen, "the CUDA driver sees no GPU");
    return n;
}

/* FP32 lanes per SM by compute capability (0 when unknown): the peaks table's FP32
 * rate, two operations per FMA lane. */
static int fp32_lanes(int major, int minor)
{
    return mmb_pipe_rate(major, minor, MMB_PIPE_FP32, false) / 2;
}

static int attribute(enum cudaDeviceAttr attr, int device, int *value, char *err, size_t errlen)
{
    MMB_CHECK_CUDA(cudaDeviceGetAttribute(value, attr, device), return -1);
    return 0;
}

int mmb_gpu_query(int device, struct mmb_device_info *info, char *err, size_t errlen)
{
    struct cudaDeviceProp prop;
    memset(info, 0, sizeof *info);
    MMB_CHECK_CUDA(cudaGetDeviceProperties(&prop, device), return -1);
    int clock_khz = 0, mem_khz = 0;
    if (attribute(cudaDevAttrClockRate, device, &clock_khz, err, errlen) ||
        attribute(cudaDevAttrMemoryClockRate, device, &mem_khz, err, errlen))
        return -1;
    info->index = device;
    snprintf(info->name, sizeof info->name, "%.63s", prop.name);
    mmb_gpu_slug(prop.name, info->slug, sizeof info->slug);
    const unsigned char *u = (const unsigned char *)prop.uuid.bytes;
    snprintf(info->uuid, sizeof info->uuid,
             "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
             u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
    info->cc_major = prop.major;
    info->cc_minor = prop.minor;
    info->sm_count = prop.multiProcessorCount;
    info->sm_clock_mhz = clock_khz / 1000.0;
    info->mem_clock_mhz = mem_khz / 1000.0;
    info->mem_bus_bits = prop.memoryBusWidth;
    info->mem_bytes = prop.totalGlobalMem;
    info->l2_bytes = (size_t)prop.l2CacheSize;
    info->max_threads_per_block = prop.maxThreadsPerBlock;
    info->smem_per_block_optin = prop.sharedMemPerBlockOptin;
    info->fp32_lanes_per_sm = fp32_lanes(prop.major, prop.minor);
    info->peak_gbps = 2.0 * info->mem_clock_mhz * 1e6 * (info->mem_bus_bits / 8.0) / 1e9;
    info->peak_gflops = 2.0 * info->fp32_lanes_per_sm * info->sm_count * info->sm_clock_mhz * 1e6 / 1e9;
    int drv = 0, rt = 0;
    MMB_CHECK_CUDA(cudaDriverGetVersion(&drv), return -1);
    MMB_CHECK_CUDA(cudaRuntimeGetVersion(&rt), return -1);
    snprintf(info->driver, sizeof info->driver, "%d.%d", drv / 1000, (drv % 1000) / 10);
    snprintf(info->runtime, sizeof info->runtime, "%d.%d", rt / 1000, (rt % 1000) / 10);
    return 0;
}

enum mmb_status mmb_gpu_status_of(int cuda_error)
{
    switch ((cudaError_t)cuda_error) {
    case cudaSuccess:
        return MMB_STATUS_OK;
    case cudaErrorMemoryAllocation:
        return MMB_STATUS_OUT_OF_MEMORY;
    case cudaErrorInvalidConfiguration:
    case cudaErrorLaunchOutOfResources:
        return MMB_STATUS_INVALID_CONFIG;
    case cudaErrorInvalidPtx:
    case cudaErrorInvalidKernelImage:
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorUnsupportedPtxVersion:
    case cudaErrorSymbolNotFound:
        return MMB_STATUS_COMPILE_ERROR;
    default:
        return MMB_STATUS_LAUNCH_ERROR;
    }
}

enum mmb_status mmb_module_load(const void *cubin, size_t size, const char *function,
                                struct mmb_module **out, struct mmb_kernel_attrs *attrs,
                                char *err, size_t errlen)
{
    (void)size;
    cudaError_t e;
    struct mmb_module *mod = calloc(1, sizeof *mod);
    if (!mod) {
        mmb_errorf(err, errlen, "out of host memory");
        return MMB_STATUS_OUT_OF_MEMORY;
    }
    MMB_CHECK_CUDA(e = cudaLibraryLoadData(&mod->library, cubin, NULL, NULL, 0, NULL, NULL, 0),
                   free(mod); return mmb_gpu_status_of(e));
    MMB_CHECK_CUDA(e = cudaLibraryGetKernel(&mod->kernel, mod->library, function),
                   cudaLibraryUnload(mod->library); free(mod); return mmb_gpu_status_of(e));
    struct cudaFuncAttributes fa;
    MMB_CHECK_CUDA(e = cudaFuncGetAttributes(&fa, (const void *)mod->kernel),
                   cudaLibraryUnload(mod->library); free(mod); return mmb_gpu_status_of(e));
    attrs->registers = fa.numRegs;
    attrs->static_smem = fa.sharedSizeBytes;
    attrs->max_threads_per_block = fa.maxThreadsPerBlock;
    mod->dyn_smem_limit = 48 * 1024 - fa.sharedSizeBytes;
    *out = mod;
    return MMB_STATUS_OK;
}

enum mmb_status mmb_module_launch(struct mmb_module *mod, const long long grid[3], const long long block[3],
                                  size_t dyn_smem, void **args, void *stream, char *err, size_t errlen)
{
    cudaError_t e;
    if (dyn_smem > mod->dyn_smem_limit) {
        MMB_CHECK_CUDA(e = cudaFuncSetAttribute((const void *)mod->kernel,
                                                cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn_smem),
                       return mmb_gpu_status_of(e));
        mod->dyn_smem_limit = dyn_smem;
    }
    dim3 g = {(unsigned)grid[0], (unsigned)grid[1], (unsigned)grid[2]};
    dim3 b = {(unsigned)block[0], (unsigned)block[1], (unsigned)block[2]};
    MMB_CHECK_CUDA(e = cudaLaunchKernel((const void *)mod->kernel, g, b, args, dyn_smem, (cudaStream_t)stream),
                   return mmb_gpu_status_of(e));
    return MMB_STATUS_OK;
}

void mmb_module_unload(struct mmb_module *mod)
{
    if (!mod)
        return;
    cudaLibraryUnload(mod->library); /* nothing to do on failure: the context may be gone */
    free(mod);
}
