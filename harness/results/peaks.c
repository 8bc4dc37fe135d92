/* peaks.c - dense FLOP per clock per SM of every pipe by compute capability. */
#include "results/peaks.h"

#include <stdio.h>
#include <math.h>
#include <string.h>

/* The CUDA pipes: the CUDA C++ Programming Guide, "Arithmetic Instructions", results
 * per clock cycle per multiprocessor (FP32 FMA, FP64 FMA, 32-bit integer multiply-
 * add), times 2 operations per FMA.
 *
 * The tensor cores, dense (no sparsity), from NVIDIA's architecture whitepapers; each
 * rate is the whitepaper's per-SM figure, and checks against its peak TFLOPS as
 * rate x SMs x the clock the whitepaper quotes:
 *   7.0  "NVIDIA Tesla V100 GPU Architecture" (2017): 8 tensor cores per SM of 64 FP16
 *        FMA per clock: 1024; V100 SXM2 125 TFLOPS = 80 x 1530 MHz x 1024.
 *   7.5  "NVIDIA Turing GPU Architecture" (2018): FP16 1024, INT8 2048; Quadro RTX 6000
 *        130.5 TFLOPS = 72 x 1770 MHz x 1024; GeForce RTX 2080 Ti 113.8 with FP16 and
 *        56.9 with FP32 accumulation (68 x 1635 MHz x 1024 and x 512).
 *   8.0  "NVIDIA A100 Tensor Core GPU Architecture" (2020): FP16 and BF16 2048, TF32
 *        1024, INT8 4096, FP64 (DMMA) 128; A100 312 TFLOPS = 108 x 1410 MHz x 2048,
 *        FP64 tensor 19.5 = 108 x 1410 MHz x 128.
 *   8.6  "NVIDIA Ampere GA102 GPU Architecture" (2020): FP16 and BF16 1024, TF32 512,
 *        INT8 2048; GeForce RTX 3090 142 TFLOPS with FP16 accumulation = 82 x 1695 MHz
 *        x 1024, 71 with FP32, TF32 35.6 = x 256 (half).
 *   8.9  "NVIDIA Ada GPU Architecture" (2023, v2.01): FP16 and BF16 1024, TF32 512, FP8
 *        2048, INT8 2048; GeForce RTX 4090 330.3 TFLOPS with FP16 accumulation = 128 x
 *        2520 MHz x 1024, 165.2 with FP32 (half), FP8 660.6 / 330.3, INT8 660.6.
 *   9.0  "NVIDIA H100 Tensor Core GPU Architecture" (2022): FP16 and BF16 4096, TF32
 *        2048, FP8 and INT8 8192, FP64 (DMMA) 256; H100 SXM5 989.4 TFLOPS = 132 x 1830
 *        MHz x 4096 (NVIDIA quotes the tensor rates at 1830 MHz, the FP32 and FP64 ones
 *        at 1980), FP64 tensor 66.9 = 132 x 1980 MHz x 256.
 * mmbench scales every pipe by the same clock (the device's, as for FP32), so its
 * H100 SXM FP16 peak is 132 x 1980 MHz x 4096 = 1070 TFLOP/s, not 989.
 * GeForce boards run the FP32-accumulating tensor instructions (FP16, BF16, FP8 with
 * FP32 accumulation, TF32) at half the rate on Turing, GA10x and Ada, as the RTX
 * 2080 Ti, 3090 and 4090 figures above show: geforce_half. Turing's GeForce GTX 16
 * boards have no tensor cores at all. Compute capabilities and pipes not listed
 * (Blackwell's tensor cores, Xavier's) have no rate, and their rows no peak.
 * minor -1 stands for every minor version not listed before it. */
#define TENSOR_FP32_ACC                                                                              \
    ((1u << MMB_PIPE_TENSOR_F16) | (1u << MMB_PIPE_TENSOR_BF16) | (1u << MMB_PIPE_TENSOR_TF32) | \
     (1u << MMB_PIPE_TENSOR_FP8))

static const struct {
    int major, minor;
    int rate[MMB_PIPE_COUNT]; /* FP32, FP64, INT32, tensor F16, BF16, TF32, FP8, I8, F64 */
    unsigned geforce_half;    /* pipes at half rate on GeForce boards */
} rate_table[] = {
    {5, -1, {256, 8, 0, 0, 0, 0, 0, 0, 0}, 0},
    {6, 0, {128, 64, 0, 0, 0, 0, 0, 0, 0}, 0},
    {6, -1, {256, 8, 0, 0, 0, 0, 0, 0, 0}, 0},
    {7, 0, {128, 64, 128, 1024, 0, 0, 0, 0, 0}, 0},
    {7, 2, {128, 8, 128, 0, 0, 0, 0, 0, 0}, 0},
    {7, 5, {128, 4, 128, 1024, 0, 0, 0, 2048, 0}, TENSOR_FP32_ACC},
    {8, 0, {128, 64, 128, 2048, 2048, 1024, 0, 4096, 128}, 0},
    {8, 9, {256, 4, 128, 1024, 1024, 512, 2048, 2048, 0}, TENSOR_FP32_ACC},
    {8, -1, {256, 4, 128, 1024, 1024, 512, 0, 2048, 0}, TENSOR_FP32_ACC},
    {9, -1, {256, 128, 128, 4096, 4096, 2048, 8192, 8192, 256}, 0},
    {10, -1, {256, 128, 128, 0, 0, 0, 0, 0, 0}, 0},
    {12, -1, {256, 4, 128, 0, 0, 0, 0, 0, 0}, 0},
    {0, 0, {0}, 0},
};

int mmb_pipe_rate(int major, int minor, enum mmb_pipe pipe, bool geforce)
{
    if ((unsigned)pipe >= MMB_PIPE_COUNT)
        return 0;
    for (size_t i = 0; rate_table[i].major; i++)
        if (rate_table[i].major == major && (rate_table[i].minor == minor || rate_table[i].minor == -1)) {
            int rate = rate_table[i].rate[pipe];
            return geforce && (rate_table[i].geforce_half & (1u << pipe)) ? rate / 2 : rate;
        }
    return 0;
}

/* The rate of pipe on the board named gpu. */
static int board_rate(int major, int minor, enum mmb_pipe pipe, const char *gpu)
{
    if (major == 7 && minor == 5 && gpu && strstr(gpu, "GTX") && mmb_pipe_info(pipe)->tensor)
        return 0; /* GeForce GTX 16: Turing without tensor cores */
    return mmb_pipe_rate(major, minor, pipe, mmb_gpu_is_geforce(gpu));
}

enum mmb_pipe mmb_pipe_on(int major, int minor, enum mmb_pipe pipe)
{
    const struct mmb_pipe_info *p = mmb_pipe_info(pipe);
    if (!p || mmb_pipe_rate(major, minor, pipe, false) > 0)
        return pipe;
    return mmb_pipe_rate(major, minor, p->fallback, false) > 0 ? p->fallback : pipe;
}

bool mmb_gpu_is_geforce(const char *gpu)
{
    return gpu && strstr(gpu, "GeForce") != NULL;
}

bool mmb_cc_parse(const char *cc, int *major, int *minor)
{
    char tail;
    return sscanf(cc, "%d.%d%c", major, minor, &tail) == 2 && *major > 0 && *minor >= 0;
}

double mmb_pipe_peak(double fp32_peak, const char *cc, enum mmb_pipe pipe, const char *gpu)
{
    int major, minor;
    if ((unsigned)pipe >= MMB_PIPE_COUNT)
        return NAN;
    if (pipe == MMB_PIPE_FP32)
        return fp32_peak;
    if (!mmb_cc_parse(cc, &major, &minor))
        return NAN;
    int f32 = board_rate(major, minor, MMB_PIPE_FP32, gpu), rate = board_rate(major, minor, pipe, gpu);
    return f32 > 0 && rate > 0 ? fp32_peak * rate / f32 : NAN;
}
