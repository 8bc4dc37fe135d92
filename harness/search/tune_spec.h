/* tune_spec.h - the checks of a profile's [tune] section that need search/: its
 * strategy must be in the strategy table and its objective a numeric result
 * column. model/ reads [tune] as text, so every command that loads a profile calls
 * mmb_tune_spec_check right after mmb_profile_load. */
#ifndef MMB_TUNE_SPEC_H
#define MMB_TUNE_SPEC_H

#include <stddef.h>

#include "model/profile.h"

/* Returns 0, or -1 with err "path:line: what was expected" (the same messages the
 * loader gives, for the bad key that comes first in the file). */
int mmb_tune_spec_check(const struct mmb_profile *p, char *err, size_t errlen);

#endif
