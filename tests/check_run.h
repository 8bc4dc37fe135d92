/* check_run.h - for tests: runs a Check suite and returns its number of failures. */
#ifndef MMB_TEST_CHECK_RUN_H
#define MMB_TEST_CHECK_RUN_H

#include <check.h>
#include <stdbool.h>

/* nofork keeps every test in this process (one CUDA context for the whole run). */
static inline int mmb_test_failures(Suite *s, bool nofork)
{
    SRunner *sr = srunner_create(s);
    if (nofork)
        srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed;
}

#endif
