/* library.h - kernels that come from a library instead of a profile's source file
 * (`library = NAME` in a [kernel NAME] section): one table, which the profile
 * reader, the tune plan and the commands look them up in. */
#ifndef MMB_LIBRARY_H
#define MMB_LIBRARY_H

#include <stdbool.h>
#include <stddef.h>

#include "core/dtype.h"

enum mmb_kernel_kind { MMB_KERNEL_SOURCE, MMB_KERNEL_CUBLAS };

/* Where a library computes one dtype on another pipe than an own kernel of that
 * dtype is measured against (the dtype table's pipe). */
struct mmb_library_pipe {
    enum mmb_dtype dtype;
    enum mmb_pipe pipe;
};

struct mmb_library {
    const char *name;        /* the value of `library =` */
    enum mmb_kernel_kind kind;
    bool reference;          /* measured beside every tuned kernel as the baseline */
    const char *description;
    /* the dtypes whose library call (the dtype table's blas) it makes, and the pipes
     * that differ from the dtype's, ending with {MMB_DTYPE_COUNT, ...} */
    struct mmb_library_pipe pipes[4];
};

/* Every library, one row each, ending with a sentinel whose name is NULL. */
extern const struct mmb_library mmb_libraries[];

/* NULL when name is not in the table. */
const struct mmb_library *mmb_library_find(const char *name);
/* NULL for MMB_KERNEL_SOURCE (and any kind without a row). */
const struct mmb_library *mmb_library_of(enum mmb_kernel_kind kind);
/* The reference library: the row with reference set (the table has one). */
const struct mmb_library *mmb_library_reference(void);
/* Whether lib computes dtype: the dtype has a library call (core/dtype.h). */
bool mmb_library_computes(const struct mmb_library *lib, enum mmb_dtype dtype);
/* The pipe lib's kernels for dtype run on, as the library table says, else the
 * dtype's. */
enum mmb_pipe mmb_library_pipe(const struct mmb_library *lib, enum mmb_dtype dtype);
/* The names joined by sep, each in single quotes when quoted, into buf. */
void mmb_library_names(char *buf, size_t len, const char *sep, bool quoted);

#endif
