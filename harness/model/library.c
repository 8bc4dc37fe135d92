/* library.c - the library kernels. A row here is all a new library needs in
 * model/: the profile reader accepts its name, the tune plan finds the reference
 * by its flag, and messages list the names from this table. */
#include "model/library.h"

#include <stdio.h>
#include <string.h>

#include "core/dtype.h"
#include "core/error.h"

const struct mmb_library mmb_libraries[] = {
    {"cublas", MMB_KERNEL_CUBLAS, (1u << MMB_F32) | (1u << MMB_F64), true,
     "cuBLAS GEMM, pedantic FP32/FP64 math, no TF32"},
    {NULL, MMB_KERNEL_SOURCE, 0, false, NULL},
};

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
