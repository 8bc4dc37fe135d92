/* devices.c - `mmbench devices`: the GPUs, their peaks and data folders, as text or
 * (--format json) as an array of objects; and the GPU count that run and tune take
 * before they start their workers. */
#include "cmd/devices.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/common.h"
#include "cmd/options.h"
#include "cmd/supervise.h"

#ifdef MMB_HAVE_CUDA
#include <cjson/cJSON.h>

#include "cuda/gpu.h"
#include "results/shard.h"

static int count_gpus(void *ctx)
{
    char err[512], reply[600];
    int n = mmb_gpu_count(err, sizeof err);
    if (n <= 0)
        snprintf(reply, sizeof reply, "%s", err);
    else
        snprintf(reply, sizeof reply, "%d", n);
    mmb_probe_reply(reply);
    return n > 0 ? 0 : MMB_EXIT_NO_GPU;
}

/* One plain line; of CUDA's message only the error's name (cudaErrorNoDevice, ...). */
static void no_gpu(const char *command, const char *why)
{
    const char *name = strstr(why, "cudaError");
    int len = 0;
    while (name && isalpha((unsigned char)name[len]))
        len++;
    fprintf(stderr, "mmbench %s: no NVIDIA GPU or driver found (%.*s); `mmbench report` works without one\n",
            command, name ? len : (int)strlen(why), name ? name : why);
}

int mmb_cmd_gpu_count_here(const char *command, int device)
{
    char err[512];
    int n = mmb_gpu_count(err, sizeof err);
    if (n <= 0) {
        no_gpu(command, err);
        return -1;
    }
    if (device >= n) {
        fprintf(stderr, "mmbench %s: --device %d, but there %s %d GPU%s (0 to %d)\n", command, device,
                n == 1 ? "is" : "are", n, n == 1 ? "" : "s", n - 1);
        return -2;
    }
    return n;
}

int mmb_cmd_gpu_count(const char *command)
{
    char reply[600];
    int rc = mmb_probe(command, count_gpus, NULL, reply, sizeof reply);
    if (rc == 0)
        return atoi(reply);
    if (rc == MMB_EXIT_NO_GPU)
        no_gpu(command, reply[0] ? reply : "no reply");
    else
        fprintf(stderr, "mmbench %s: counting the GPUs failed (exit %d)\n", command, rc);
    return -1;
}

int mmb_cmd_device_part(int device, int ndev, unsigned *part, unsigned *parts, char *err, size_t errlen)
{
    static char slugs[MMB_SHARD_PARTS_MAX][64];
    const char *models[MMB_SHARD_PARTS_MAX];
    if (ndev > MMB_SHARD_PARTS_MAX)
        ndev = MMB_SHARD_PARTS_MAX;
    for (int i = 0; i < ndev; i++) {
        struct mmb_device_info d;
        if (mmb_gpu_query(i, &d, err, errlen) != 0)
            return -1;
        snprintf(slugs[i], sizeof slugs[i], "%s", d.slug);
        models[i] = slugs[i];
    }
    mmb_shard_device_part(models, ndev, device, part, parts);
    return 0;
}

/* One GPU as JSON: every field of the text, and its UUID, versions and limits. */
static cJSON *device_json(const struct mmb_device_info *d)
{
    char cc[16], folder[80];
    snprintf(cc, sizeof cc, "%d.%d", d->cc_major, d->cc_minor);
    snprintf(folder, sizeof folder, "data/%s", d->slug);
    cJSON *o = cJSON_CreateObject();
    bool ok = o && cJSON_AddNumberToObject(o, "index", d->index) && cJSON_AddStringToObject(o, "name", d->name) &&
              cJSON_AddStringToObject(o, "uuid", d->uuid) && cJSON_AddStringToObject(o, "cc", cc) &&
              cJSON_AddNumberToObject(o, "sm_count", d->sm_count) &&
              cJSON_AddNumberToObject(o, "sm_clock_mhz", d->sm_clock_mhz) &&
              cJSON_AddNumberToObject(o, "mem_clock_mhz", d->mem_clock_mhz) &&
              cJSON_AddNumberToObject(o, "mem_bus_bits", d->mem_bus_bits) &&
              cJSON_AddNumberToObject(o, "mem_bytes", (double)d->mem_bytes) &&
              cJSON_AddNumberToObject(o, "l2_bytes", (double)d->l2_bytes) &&
              cJSON_AddNumberToObject(o, "max_threads_per_block", d->max_threads_per_block) &&
              cJSON_AddNumberToObject(o, "smem_per_block_optin", (double)d->smem_per_block_optin) &&
              cJSON_AddBoolToObject(o, "cluster_launch", d->cluster_launch) &&
              cJSON_AddNumberToObject(o, "fp32_lanes_per_sm", d->fp32_lanes_per_sm) &&
              cJSON_AddNumberToObject(o, "peak_gbps", d->peak_gbps) &&
              cJSON_AddNumberToObject(o, "peak_gflops", d->peak_gflops) &&
              cJSON_AddStringToObject(o, "driver", d->driver) && cJSON_AddStringToObject(o, "cuda", d->runtime) &&
              cJSON_AddStringToObject(o, "data_folder", folder);
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

static int devices_json(int n)
{
    char err[512];
    cJSON *all = cJSON_CreateArray();
    for (int i = 0; all && i < n; i++) {
        struct mmb_device_info d;
        if (mmb_gpu_query(i, &d, err, sizeof err) != 0) {
            fprintf(stderr, "mmbench devices: device %d: %s\n", i, err);
            cJSON_Delete(all);
            return MMB_EXIT_FAILED;
        }
        cJSON *one = device_json(&d);
        if (!one || !cJSON_AddItemToArray(all, one)) {
            cJSON_Delete(one);
            cJSON_Delete(all);
            all = NULL;
        }
    }
    char *text = all ? cJSON_Print(all) : NULL;
    cJSON_Delete(all);
    if (!text) {
        fprintf(stderr, "mmbench devices: out of memory\n");
        return MMB_EXIT_FAILED;
    }
    int rc = printf("%s\n", text) < 0 || fflush(stdout) != 0 ? MMB_EXIT_FAILED : MMB_EXIT_OK;
    free(text);
    return rc;
}

int mmb_cmd_devices(int argc, char **argv)
{
    struct mmb_cmd_settings s;
    int rc = mmb_cmd_options_parse(MMB_CMD_DEVICES, argc, argv, &s);
    if (rc)
        return rc > 0 ? 0 : MMB_EXIT_BAD_INPUT;
    char err[512];
    int n = mmb_gpu_count(err, sizeof err);
    if (n <= 0) {
        no_gpu("devices", err);
        return MMB_EXIT_NO_GPU;
    }
    if (s.format == MMB_FORMAT_JSON)
        return devices_json(n);
    printf("%-3s %-24s %-5s %4s %9s %9s %5s %7s %6s %10s %11s %s\n", "#", "name", "cc", "SMs", "SM MHz", "mem MHz",
           "bus", "mem GiB", "L2 MiB", "peak GB/s", "peak GFLOP/s", "data folder");
    for (int i = 0; i < n; i++) {
        struct mmb_device_info d;
        if (mmb_gpu_query(i, &d, err, sizeof err) != 0) {
            fprintf(stderr, "mmbench devices: device %d: %s\n", i, err);
            return MMB_EXIT_FAILED;
        }
        printf("%-3d %-24s %d.%-3d %4d %9.0f %9.0f %5d %7.1f %6.1f %10.1f %11.1f data/%s\n", i, d.name, d.cc_major,
               d.cc_minor, d.sm_count, d.sm_clock_mhz, d.mem_clock_mhz, d.mem_bus_bits,
               d.mem_bytes / 1073741824.0, d.l2_bytes / 1048576.0, d.peak_gbps, d.peak_gflops, d.slug);
    }
    printf("peaks: DRAM = 2 x memory clock x bus width; FP32 = 2 x FP32 lanes per SM x SMs x SM clock (boost)\n");
    return 0;
}
#else
int mmb_cmd_device_part(int device, int ndev, unsigned *part, unsigned *parts, char *err, size_t errlen)
{
    *part = 0;
    *parts = 1;
    return 0;
}

int mmb_cmd_gpu_count_here(const char *command, int device)
{
    return mmb_cmd_gpu_count(command);
}

int mmb_cmd_gpu_count(const char *command)
{
    fprintf(stderr, "mmbench %s: this mmbench was built without the CUDA toolkit\n", command);
    return -1;
}

int mmb_cmd_devices(int argc, char **argv)
{
    struct mmb_cmd_settings s;
    int rc = mmb_cmd_options_parse(MMB_CMD_DEVICES, argc, argv, &s);
    if (rc)
        return rc > 0 ? 0 : MMB_EXIT_BAD_INPUT;
    fprintf(stderr, "mmbench devices: this mmbench was built without the CUDA toolkit; install it and "
            "reconfigure (meson setup --reconfigure build)\n");
    return MMB_EXIT_NO_GPU;
}
#endif
