/* library.c - the library kernels. A row here is all a new library needs in
 * model/: the profile reader accepts its name, the tune plan finds the reference
 * by its flag, and messages list the names from this table. */
#include "model/library.h"

#include <stdio.h>
#include <string.h>

#include "core/dtype.h"
#include "core/error.h"

/* cuBLAS's DGEMM runs on the FP64 tensor cores (DMMA) where the GPU has them
 * (GA100, GH100): its row's peak is theirs (the pipe's fallback, FP64, elsewhere). */
const struct mmb_library mmb_libraries[] = {
    {"cublas", MMB_KERNEL_CUBLAS, true,
     "cuBLAS and cuBLASLt GEMM in every dtype with a library call: pedantic FP32/FP64 (no TF32), "
     "cublasGemmEx for f16, bf16, tf32 and i8, cublasLtMatmul for e4m3",
     {{MMB_F64, MMB_PIPE_TENSOR_F64}, {MMB_DTYPE_COUNT, MMB_PIPE_COUNT}}},
    {NULL, MMB_KERNEL_SOURCE, false, NULL, {{MMB_DTYPE_COUNT, MMB_PIPE_COUNT}}},
};

bool mmb_library_computes(const struct mmb_library *lib, enum mmb_dtype dtype)
{
    const struct mmb_dtype_info *d = mmb_dtype_info(dtype);
    return lib && lib->kind == MMB_KERNEL_CUBLAS && d && d->blas.api != MMB_BLAS_NONE;
}

enum mmb_pipe mmb_library_pipe(const struct mmb_library *lib, enum mmb_dtype dtype)
{
    for (const struct mmb_library_pipe *p = lib ? lib->pipes : NULL; p && p->dtype != MMB_DTYPE_COUNT; p++)
        if (p->dtype == dtype)
            return p->pipe;
    const struct mmb_dtype_info *d = mmb_dtype_info(dtype);
    return d ? d->pipe : MMB_PIPE_COUNT;
}

const struct mmb_library *mmb_library_find(const char *name)
{
    for (const struct mmb_library *l = mmb_libraries; l->name; l++)
        if (!strcmp(l->name, name))
            return l;
    return NULL;
}

const struct mmb_library *mmb_library_of(enum mmb_kernel_kind kind)
{
    for (const struct mmb_library *l = mmb_libraries; l->name; l++)
        if (l->kind == kind)
            return l;
    return NULL;
}

const struct mmb_library *mmb_library_reference(void)
{
    for (const struct mmb_library *l = mmb_libraries; l->name; l++)
        if (l->reference)
            return l;
    return NULL;
}

void mmb_library_names(char *buf, size_t len, const char *sep, bool quoted)
{
    if (len)
        buf[0] = '\0';
    for (const struct mmb_library *l = mmb_libraries; l->name; l++) {
        char name[64];
        snprintf(name, sizeof name, quoted ? "'%s'" : "%s", l->name);
        mmb_join_append(buf, len, sep, name);
    }
}
