/* gpu.h - the devices: what they are and what they can do (peaks), and loading and
 * launching NVRTC-compiled kernels through the runtime's library API. */
#ifndef MMB_GPU_H
#define MMB_GPU_H

#include <stdbool.h>
#include <stddef.h>

#include "core/status.h"

struct mmb_device_info {
    int index;
    char name[64];
    char slug[64];       /* folder name under data/ */
    char uuid[48];
    int cc_major, cc_minor;
    int sm_count;
    double sm_clock_mhz;  /* peak (boost) clock */
    double mem_clock_mhz;
    int mem_bus_bits;
    size_t mem_bytes;
    size_t l2_bytes;
    int max_threads_per_block;
    int max_threads_per_sm;   /* resident threads per multiprocessor: the occupancy's 100% */
    size_t smem_per_block_optin;
    bool cluster_launch;  /* thread-block clusters (compute capability 9.0 on) */
    int fp32_lanes_per_sm;
    double peak_gbps;     /* 2 (DDR) * memory clock * bus width / 8 */
    double peak_gflops;   /* FP32: 2 * lanes per SM * SMs * peak clock */
    char driver[16];      /* "13.0" */
    char runtime[16];
};

/* The CUDA runtime mmbench was compiled against (CUDART_VERSION: 13000 for 13.0), the
 * runtime library it runs with, and the newest CUDA the driver supports, 0 when no
 * driver is found (which is no error). Returns 0, or -1 with err when a call fails. */
int mmb_gpu_versions(int *runtime_built, int *runtime, int *driver, char *err, size_t errlen);

/* Number of usable devices; 0 with err set when there is no driver or no GPU. */
int mmb_gpu_count(char *err, size_t errlen);
int mmb_gpu_query(int device, struct mmb_device_info *info, char *err, size_t errlen);

/* Maps a CUDA error to the status a result row gets. */
enum mmb_status mmb_gpu_status_of(int cuda_error);

struct mmb_module;      /* a loaded cubin and its kernel */

struct mmb_kernel_attrs {
    int registers;
    size_t static_smem;
    int max_threads_per_block; /* for this kernel, given its registers */
};

enum mmb_status mmb_module_load(const void *cubin, size_t size, const char *function,
                                struct mmb_module **out, struct mmb_kernel_attrs *attrs,
                                char *err, size_t errlen);
/* The one launch of every kernel mmbench runs (cudaLaunchKernelEx): raises the
 * kernel's dynamic shared-memory limit when needed, and launches in thread-block
 * clusters of cluster[0] x cluster[1] x cluster[2] blocks unless cluster is NULL or
 * 1x1x1 (a plain launch, which every GPU can run). */
enum mmb_status mmb_module_launch(struct mmb_module *mod, const long long grid[3], const long long block[3],
                                  const long long cluster[3], size_t dyn_smem, void **args, void *stream, char *err,
                                  size_t errlen);
/* How many clusters of cluster blocks (NULL: single blocks) of block threads and
 * dyn_smem bytes of dynamic shared memory the device holds at once
 * (cudaOccupancyMaxActiveClusters; without a cluster, the blocks per multiprocessor
 * times sm_count), after raising the kernel's limits as mmb_module_launch would: a
 * cluster of more than 8 blocks, the portable size, is allowed where the device
 * allows it (16 on Hopper). MMB_STATUS_INVALID_CONFIG with err when none fits or the
 * cluster is larger than this kernel may have; another status when a call fails. */
enum mmb_status mmb_module_occupancy(struct mmb_module *mod, const long long block[3], const long long cluster[3],
                                     size_t dyn_smem, int sm_count, long long *active, char *err, size_t errlen);
void mmb_module_unload(struct mmb_module *mod);

/* Enqueues the code under test once (asynchronously): MMB_STATUS_OK, or the failed
 * launch's status with err. The timer and the profiler call it again and again, so
 * it must be idempotent (C = A*B overwrites C). */
typedef enum mmb_status (*mmb_launch_fn)(void *ctx, char *err, size_t errlen);

#endif
