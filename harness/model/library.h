/* library.h - kernels that come from a library instead of a profile's source file
 * (`library = NAME` in a [kernel NAME] section): one table, which the profile
 * reader, the tune plan and the commands look them up in. */
#ifndef MMB_LIBRARY_H
#define MMB_LIBRARY_H

#include <stdbool.h>
#include <stddef.h>

enum mmb_kernel_kind { MMB_KERNEL_SOURCE, MMB_KERNEL_CUBLAS };

struct mmb_library {
    const char *name;        /* the value of `library =` */
    enum mmb_kernel_kind kind;
    unsigned dtypes;         /* bit (1u << enum mmb_dtype): the dtypes it computes */
    bool reference;          /* measured beside every tuned kernel as the baseline */
    const char *description;
};

/* Every library, one row each, ending with a sentinel whose name is NULL. */
extern const struct mmb_library mmb_libraries[];

/* NULL when name is not in the table. */
const struct mmb_library *mmb_library_find(const char *name);
/* NULL for MMB_KERNEL_SOURCE (and any kind without a row). */
const struct mmb_library *mmb_library_of(enum mmb_kernel_kind kind);
/* The reference library: the row with reference set (the table has one). */
const struct mmb_library *mmb_library_reference(void);
/* The names joined by sep, each in single quotes when quoted, into buf. */
void mmb_library_names(char *buf, size_t len, const char *sep, bool quoted);

#endif
