/* profile_fixture.h - for tests: freeing a loaded profile and finding its kernels. */
#ifndef MMB_TEST_PROFILE_FIXTURE_H
#define MMB_TEST_PROFILE_FIXTURE_H

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "model/profile.h"

static inline void unload(struct mmb_profile *p)
{
    mmb_profile_free(p);
    free(p);
}

static inline const struct mmb_kernel_spec *kernel_named(const struct mmb_profile *p, const char *name)
{
    for (int i = 0; i < p->nkernels; i++)
        if (!strcmp(p->kernels[i].name, name))
            return &p->kernels[i];
    ck_abort_msg("no kernel '%s'", name);
    return NULL;
}

#endif
