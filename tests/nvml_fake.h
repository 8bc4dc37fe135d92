/* nvml_fake.h - for tests: points mmbench's NVML loader at the stand-in library
 * tests/fake_nvml.c (MMB_FAKE_NVML, set by meson) with its state and call log in the
 * test's temporary folder, and reads them back. Include tmpdir.h first. */
#ifndef MMB_TEST_NVML_FAKE_H
#define MMB_TEST_NVML_FAKE_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char fake_state[160] __attribute__((unused)), fake_log[160] __attribute__((unused));

/* Uses the stand-in for NVML in this process and its children, from a fresh state:
 * clocks unlocked, power limit 700 W. Call before the first NVML use of the process. */
static inline void nvml_fake_use(void)
{
    const char *lib = getenv("MMB_FAKE_NVML");
    ck_assert_msg(lib && *lib, "MMB_FAKE_NVML is not set (meson sets it)");
    snprintf(fake_state, sizeof fake_state, "%s/nvml-state", tmpdir);
    snprintf(fake_log, sizeof fake_log, "%s/nvml-log", tmpdir);
    setenv("MMB_NVML_LIBRARY", lib, 1);
    setenv("FAKE_NVML_STATE", fake_state, 1);
    setenv("FAKE_NVML_LOG", fake_log, 1);
    remove(fake_state);
    remove(fake_log);
}

/* The device's settings now: locked minimum and maximum (0 0: unlocked), power limit in mW. */
static inline void nvml_fake_settings(unsigned *locked_min, unsigned *locked_max, unsigned *limit_mw)
{
    *locked_min = *locked_max = 0;
    *limit_mw = 700000;
    FILE *f = fopen(fake_state, "r");
    if (!f)
        return;
    int n = fscanf(f, "%u %u %u", locked_min, locked_max, limit_mw);
    ck_assert_msg(n == 3 || n == EOF, "%s: not the stand-in's state", fake_state); /* empty: never set */
    fclose(f);
}

/* How many logged calls contain text. */
static inline int nvml_fake_calls(const char *text)
{
    FILE *f = fopen(fake_log, "r");
    char line[512];
    int n = 0;
    while (f && fgets(line, sizeof line, f))
        n += strstr(line, text) != NULL;
    if (f)
        fclose(f);
    return n;
}

#endif
