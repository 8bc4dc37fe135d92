/* gpu.c - device queries, peaks, and the runtime library API for NVRTC cubins
 * (cudaLibraryLoadData / cudaLibraryGetKernel / cudaLaunchKernelEx, occupancy), so
 * that mmbench never links libcuda and still starts without a driver. */
#include "cuda/gpu.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/errcheck.h"
#include "core/error.h"
#include "core/file.h"
#include "results/peaks.h"

/* The cluster size every GPU with clusters runs; beyond it a kernel opts in. */
#define PORTABLE_CLUSTER 8

struct mmb_module {
    cudaLibrary_t library;
    cudaKernel_t kernel;
    size_t dyn_smem_limit;
    bool non_portable;     /* cudaFuncAttributeNonPortableClusterSizeAllowed set */
};

int mmb_gpu_versions(int *runtime_built, int *runtime, int *driver, char *err, size_t errlen)
{
    *runtime_built = CUDART_VERSION;
    *runtime = *driver = 0;
    MMB_CHECK_CUDA(cudaRuntimeGetVersion(runtime), return -1);
    /* 0 and success without a driver */
    MMB_CHECK_CUDA(cudaDriverGetVersion(driver), return -1);
    return 0;
}

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
    info->max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
    info->smem_per_block_optin = prop.sharedMemPerBlockOptin;
    int clusters = 0;
    if (attribute(cudaDevAttrClusterLaunch, device, &clusters, err, errlen))
        return -1;
    info->cluster_launch = clusters != 0;
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
    case cudaErrorInvalidClusterSize:
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

static long long blocks_of(const long long cluster[3])
{
    return cluster ? cluster[0] * cluster[1] * cluster[2] : 1;
}

/* The function attributes a launch of this shape needs: the dynamic shared-memory
 * limit above the default 48 KB, and non-portable cluster sizes. */
static enum mmb_status raise_limits(struct mmb_module *mod, const long long cluster[3], size_t dyn_smem, char *err,
                                    size_t errlen)
{
    cudaError_t e;
    if (dyn_smem > mod->dyn_smem_limit) {
        MMB_CHECK_CUDA(e = cudaFuncSetAttribute((const void *)mod->kernel,
                                                cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn_smem),
                       return mmb_gpu_status_of(e));
        mod->dyn_smem_limit = dyn_smem;
    }
    if (blocks_of(cluster) > PORTABLE_CLUSTER && !mod->non_portable) {
        MMB_CHECK_CUDA(e = cudaFuncSetAttribute((const void *)mod->kernel,
                                                cudaFuncAttributeNonPortableClusterSizeAllowed, 1),
                       return e == cudaErrorInvalidValue || e == cudaErrorNotSupported ? MMB_STATUS_INVALID_CONFIG
                                                                                        : mmb_gpu_status_of(e));
        mod->non_portable = true;
    }
    return MMB_STATUS_OK;
}

/* A launch configuration; attr must outlive it. */
static cudaLaunchConfig_t launch_config(const long long grid[3], const long long block[3], const long long cluster[3],
                                        size_t dyn_smem, void *stream, cudaLaunchAttribute *attr)
{
    cudaLaunchConfig_t c = {
        .gridDim = {(unsigned)grid[0], (unsigned)grid[1], (unsigned)grid[2]},
        .blockDim = {(unsigned)block[0], (unsigned)block[1], (unsigned)block[2]},
        .dynamicSmemBytes = dyn_smem,
        .stream = (cudaStream_t)stream,
    };
    if (blocks_of(cluster) > 1) {
        memset(attr, 0, sizeof *attr);
        attr->id = cudaLaunchAttributeClusterDimension;
        attr->val.clusterDim.x = (unsigned)cluster[0];
        attr->val.clusterDim.y = (unsigned)cluster[1];
        attr->val.clusterDim.z = (unsigned)cluster[2];
        c.attrs = attr;
        c.numAttrs = 1;
    }
    return c;
}

enum mmb_status mmb_module_launch(struct mmb_module *mod, const long long grid[3], const long long block[3],
                                  const long long cluster[3], size_t dyn_smem, void **args, void *stream, char *err,
                                  size_t errlen)
{
    cudaError_t e;
    enum mmb_status st = raise_limits(mod, cluster, dyn_smem, err, errlen);
    if (st != MMB_STATUS_OK)
        return st;
    cudaLaunchAttribute attr;
    cudaLaunchConfig_t config = launch_config(grid, block, cluster, dyn_smem, stream, &attr);
    MMB_CHECK_CUDA(e = cudaLaunchKernelExC(&config, (const void *)mod->kernel, args), return mmb_gpu_status_of(e));
    return MMB_STATUS_OK;
}

enum mmb_status mmb_module_occupancy(struct mmb_module *mod, const long long block[3], const long long cluster[3],
                                     size_t dyn_smem, int sm_count, long long *active, char *err, size_t errlen)
{
    cudaError_t e;
    *active = 0;
    enum mmb_status st = raise_limits(mod, cluster, dyn_smem, err, errlen);
    if (st != MMB_STATUS_OK)
        return st;
    const long long threads = block[0] * block[1] * block[2];
    const long long blocks = blocks_of(cluster);
    if (blocks == 1) {
        int per_sm = 0;
        MMB_CHECK_CUDA(e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, (const void *)mod->kernel,
                                                                         (int)threads, dyn_smem),
                       return mmb_gpu_status_of(e));
        if (per_sm < 1) {
            mmb_errorf(err, errlen, "no block of %lld threads with %zu bytes of dynamic shared memory fits on a "
                       "multiprocessor", threads, dyn_smem);
            return MMB_STATUS_INVALID_CONFIG;
        }
        *active = (long long)per_sm * sm_count;
        return MMB_STATUS_OK;
    }
    /* A grid of one cluster: the occupancy of the cluster's shape, as CUTLASS asks it.
     * The largest cluster possible is asked of the kernel alone, without a shape. */
    cudaLaunchAttribute attr;
    cudaLaunchConfig_t config = launch_config(cluster, block, cluster, dyn_smem, NULL, &attr);
    cudaLaunchConfig_t any_shape = config;
    any_shape.numAttrs = 0;
    any_shape.attrs = NULL;
    int most = 0, clusters = 0;
    MMB_CHECK_CUDA(e = cudaOccupancyMaxPotentialClusterSize(&most, (const void *)mod->kernel, &any_shape),
                   return mmb_gpu_status_of(e));
    if (blocks > most) {
        mmb_errorf(err, errlen, "a cluster of %lld blocks (%lldx%lldx%lld); with %lld threads and %zu bytes of "
                   "dynamic shared memory per block this kernel may have at most %d on this device", blocks,
                   cluster[0], cluster[1], cluster[2], threads, dyn_smem, most);
        return MMB_STATUS_INVALID_CONFIG;
    }
    MMB_CHECK_CUDA(e = cudaOccupancyMaxActiveClusters(&clusters, (const void *)mod->kernel, &config),
                   return mmb_gpu_status_of(e));
    if (clusters < 1) {
        mmb_errorf(err, errlen, "no cluster of %lld blocks of %lld threads with %zu bytes of dynamic shared memory "
                   "each fits on the device at once", blocks, threads, dyn_smem);
        return MMB_STATUS_INVALID_CONFIG;
    }
    *active = clusters;
    return MMB_STATUS_OK;
}

void mmb_module_unload(struct mmb_module *mod)
{
    if (!mod)
        return;
    cudaLibraryUnload(mod->library); /* nothing to do on failure: the context may be gone */
    free(mod);
}
