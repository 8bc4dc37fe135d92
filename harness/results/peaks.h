/* peaks.h - how fast each arithmetic pipe of a GPU can go: dense FLOP (integer
 * operations for INT32 and INT8) per clock per SM by compute capability and pipe,
 * one table (peaks.c) from the CUDA C++ Programming Guide's arithmetic throughput
 * (FP32, FP64, INT32) and NVIDIA's architecture whitepapers (the tensor cores). A
 * pipe's peak is rate x SMs x clock, so it is the FP32 peak (2 x FP32 lanes x SMs x
 * clock, cuda/gpu.c) scaled by the ratio of the two rates. */
#ifndef MMB_PEAKS_H
#define MMB_PEAKS_H

#include <stdbool.h>

#include "core/dtype.h"

/* Dense FLOP per clock per SM of pipe on a GPU of compute capability major.minor;
 * 0 when the table does not know it (or the GPU has no such pipe). geforce: the
 * board is a GeForce, whose FP32-accumulating tensor rates (FP16, BF16, TF32, FP8)
 * are half the architecture's on Turing, GA10x and Ada. */
int mmb_pipe_rate(int major, int minor, enum mmb_pipe pipe, bool geforce);

/* pipe where this GPU has it, else its fallback (the FP64 pipe for DMMA). */
enum mmb_pipe mmb_pipe_on(int major, int minor, enum mmb_pipe pipe);

/* True when the GPU named gpu is a GeForce board (by its name). */
bool mmb_gpu_is_geforce(const char *gpu);

/* "9.0" -> 9, 0; false when cc is not major.minor. */
bool mmb_cc_parse(const char *cc, int *major, int *minor);

/* The peak of pipe from the FP32 peak of the GPU named gpu, of compute capability cc
 * ("9.0"): fp32_peak x rate(pipe) / rate(FP32); fp32_peak itself for FP32; NaN when
 * cc or the pipe's rate is unknown to the table. */
double mmb_pipe_peak(double fp32_peak, const char *cc, enum mmb_pipe pipe, const char *gpu);

#endif
