/* profile_columns.h - the profile values whose meaning lives in the column table: a
 * kernel's `motivation`, the counter that motivated its change, for the report's
 * worklog. */
#ifndef MMB_PROFILE_COLUMNS_H
#define MMB_PROFILE_COLUMNS_H

#include <stddef.h>

#include "model/profile.h"

/* Returns 0 when every kernel's motivation is empty or names a measured column (a
 * counter, a derived or a static number); else -1 with err "path:line: ...". */
int mmb_profile_check_motivations(const struct mmb_profile *p, char *err, size_t errlen);

#endif
