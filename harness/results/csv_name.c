/* csv_name.c - the names of a profile's results file, and of a tuning profile. */
#include "results/csv_name.h"

#include <stdio.h>
#include <string.h>

static const char tune_prefix[] = "tune";

bool mmb_csv_name_tuning(const char *profile)
{
    return strncmp(profile, tune_prefix, strlen(tune_prefix)) == 0;
}

int mmb_csv_name_stem(const char *profile, bool tune, char *out, size_t len)
{
    const char *prefix = tune && !mmb_csv_name_tuning(profile) ? "tune-" : "";
    int n = snprintf(out, len, "%s%s", prefix, profile);
    return n >= 0 && (size_t)n < len ? 0 : -1;
}
