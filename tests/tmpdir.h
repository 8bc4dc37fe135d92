/* tmpdir.h - for tests: the source root, and a fresh temporary folder that is removed
 * with everything in it. tmpdir_setup and tmpdir_teardown serve as (or inside) a Check
 * fixture, one folder per test; tmpdir_make and tmpdir_remove, outside a test, one
 * folder per program. Every test program takes both from here. */
#ifndef MMB_TEST_TMPDIR_H
#define MMB_TEST_TMPDIR_H

#include <check.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char tmpdir[64] __attribute__((unused));   /* /tmp/mmb-<test program>.XXXXXX */
static char root[1024] __attribute__((unused));   /* $MMB_SOURCE_ROOT, else "." */

/* Sets root and makes tmpdir; -1 with errno when the folder cannot be made. */
static inline int tmpdir_make(void)
{
    const char *r = getenv("MMB_SOURCE_ROOT");
    snprintf(root, sizeof root, "%s", r && r[0] ? r : ".");
    snprintf(tmpdir, sizeof tmpdir, "/tmp/mmb-%.40s.XXXXXX", program_invocation_short_name);
    return mkdtemp(tmpdir) ? 0 : -1;
}

static inline int tmpdir_remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    return remove(path);
}

/* Removes tmpdir and everything in it, links not followed; -1 with errno. */
static inline int tmpdir_remove(void)
{
    return nftw(tmpdir, tmpdir_remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static inline void tmpdir_setup(void)
{
    ck_assert_msg(tmpdir_make() == 0, "mkdtemp %s: %s", tmpdir, strerror(errno));
}

static inline void tmpdir_teardown(void)
{
    ck_assert_msg(tmpdir_remove() == 0, "removing %s: %s", tmpdir, strerror(errno));
}

#endif
