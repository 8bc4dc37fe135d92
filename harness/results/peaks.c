/* peaks.c - lanes per SM of the FP32, FP64 and INT32 pipes by compute capability. */
#include "results/peaks.h"

#include <math.h>
#include <stdio.h>

/* The CUDA C++ Programming Guide, "Arithmetic Instructions", results per clock cycle
 * per multiprocessor; minor -1 stands for every minor version not listed before it. */
static const struct {
    int major, minor;
    int lanes[MMB_DTYPE_COUNT]; /* f32, f64, i32 (in enum mmb_dtype's order) */
} pipe_table[] = {
    {5, -1, {128, 4, 0}},  {6, 0, {64, 32, 0}},   {6, -1, {128, 4, 0}},  {7, 0, {64, 32, 64}},
    {7, 2, {64, 4, 64}},   {7, 5, {64, 2, 64}},   {8, 0, {64, 32, 64}},  {8, -1, {128, 2, 64}},
    {9, -1, {128, 64, 64}}, {10, -1, {128, 64, 64}}, {12, -1, {128, 2, 64}}, {0, 0, {0, 0, 0}},
};

int mmb_pipe_lanes(int cc_major, int cc_minor, enum mmb_dtype dtype)
{
    if ((unsigned)dtype >= MMB_DTYPE_COUNT)
        return 0;
    for (size_t i = 0; pipe_table[i].major; i++)
        if (pipe_table[i].major == cc_major && (pipe_table[i].minor == cc_minor || pipe_table[i].minor == -1))
            return pipe_table[i].lanes[dtype];
    return 0;
}

bool mmb_cc_parse(const char *cc, int *major, int *minor)
{
    char tail;
    return sscanf(cc, "%d.%d%c", major, minor, &tail) == 2 && *major > 0 && *minor >= 0;
}

double mmb_pipe_peak(double fp32_peak, const char *cc, const char *dtype)
{
    enum mmb_dtype t;
    int major, minor;
    if (!mmb_dtype_parse(dtype, &t))
        return NAN;
    if (t == MMB_F32)
        return fp32_peak;
    if (!mmb_cc_parse(cc, &major, &minor))
        return NAN;
    int f32 = mmb_pipe_lanes(major, minor, MMB_F32), lanes = mmb_pipe_lanes(major, minor, t);
    return f32 > 0 && lanes > 0 ? fp32_peak * lanes / f32 : NAN;
}
