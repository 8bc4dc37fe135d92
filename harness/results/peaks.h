/* peaks.h - how fast a GPU's arithmetic pipe for each element type can go, relative
 * to its FP32 pipe: lanes per SM per clock by compute capability, from the CUDA C++
 * Programming Guide's table of arithmetic instruction throughput (FP32 FMA, FP64 FMA,
 * 32-bit integer multiply-add; tensor cores are not in it). A GEMM's peak is
 * 2 x lanes x SMs x clock, so the peak of a pipe is the FP32 peak scaled by the ratio
 * of their lanes. */
#ifndef MMB_PEAKS_H
#define MMB_PEAKS_H

#include <stdbool.h>

#include "core/dtype.h"

/* Lanes per SM per clock of dtype's pipe; 0 when the table does not know the
 * compute capability (or lists "multiple instructions", as for INT32 before 7.0). */
int mmb_pipe_lanes(int cc_major, int cc_minor, enum mmb_dtype dtype);

/* "9.0" -> 9, 0; false when cc is not major.minor. */
bool mmb_cc_parse(const char *cc, int *major, int *minor);

/* The peak of dtype's pipe from the FP32 peak of a GPU of compute capability cc
 * ("9.0"): fp32_peak x lanes(dtype) / lanes(f32); fp32_peak itself for f32; NaN
 * when cc or dtype is unknown to the table. */
double mmb_pipe_peak(double fp32_peak, const char *cc, const char *dtype);

#endif
