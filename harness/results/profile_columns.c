/* profile_columns.c - checks each kernel's `motivation` against the column table: it
 * must name a number the configuration's run measured or derived, so that the report
 * can print its value before and after the kernel's change. */
#include "results/profile_columns.h"

#include <stdio.h>

#include "core/error.h"
#include "results/columns.h"

static bool motivating(const struct mmb_column *c)
{
    return c && (c->role == MMB_ROLE_COUNTER || c->role == MMB_ROLE_DERIVED || c->role == MMB_ROLE_STATIC) &&
           (c->type == MMB_COL_INT || c->type == MMB_COL_REAL);
}

int mmb_profile_check_motivations(const struct mmb_profile *p, char *err, size_t errlen)
{
    for (int i = 0; i < p->nkernels; i++) {
        const struct mmb_kernel_spec *k = &p->kernels[i];
        if (!k->motivation[0] || motivating(mmb_column_find(k->motivation)))
            continue;
        return mmb_failf(err, errlen,
                         "%s:%d: motivation: '%s' is not a counter column; expected a counter, derived or static "
                         "number such as 'smem_bank_conflicts', 'dram_read_bytes' or 'registers' (mmbench columns "
                         "lists them)",
                         p->path, k->motivation_line, k->motivation);
    }
    return 0;
}
