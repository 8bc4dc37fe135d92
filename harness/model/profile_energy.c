/* profile_energy.c - clocks, power and energy as a profile and the command line ask
 * for them (profile_energy.h): the clock lock, the energy phase's settings and their
 * [profile] keys (energy, energy_seconds, throttle_retries, throttle_threshold). */
#include "model/profile_energy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "model/profile_parse.h"

bool mmb_clock_lock_parse(const char *text, struct mmb_clock_lock *out)
{
    *out = (struct mmb_clock_lock){MMB_CLOCKS_AS_FOUND, 0};
    if (!strcmp(text, "base")) {
        out->kind = MMB_CLOCKS_BASE;
        return true;
    }
    if (!strcmp(text, "max")) {
        out->kind = MMB_CLOCKS_MAX;
        return true;
    }
    long long mhz;
    if (mmb_profile_parse_ll(text, 100, 10000, &mhz) != 0)
        return false;
    out->kind = MMB_CLOCKS_MHZ;
    out->mhz = (unsigned)mhz;
    return true;
}

void mmb_clock_lock_text(const struct mmb_clock_lock *lock, char *out, size_t len)
{
    switch (lock ? lock->kind : MMB_CLOCKS_AS_FOUND) {
    case MMB_CLOCKS_AS_FOUND: snprintf(out, len, "%s", ""); break;
    case MMB_CLOCKS_BASE: snprintf(out, len, "base"); break;
    case MMB_CLOCKS_MAX: snprintf(out, len, "max"); break;
    case MMB_CLOCKS_MHZ: snprintf(out, len, "%u", lock->mhz); break;
    }
}

enum mmb_energy_mode mmb_profile_energy(const struct mmb_profile *p, bool cli_set, enum mmb_energy_mode cli,
                                        enum mmb_energy_mode command_default)
{
    if (cli_set)
        return cli;
    return p->energy_line ? p->energy : command_default;
}

void mmb_energy_spec_of(const struct mmb_profile *p, enum mmb_energy_mode mode, struct mmb_energy_spec *out)
{
    out->mode = mode;
    out->seconds = p->energy_seconds > 0 ? p->energy_seconds : MMB_ENERGY_SECONDS_DEFAULT;
    out->throttle_retries = p->throttle_retries >= 0 ? p->throttle_retries : MMB_THROTTLE_RETRIES_DEFAULT;
    out->throttle_threshold = p->throttle_threshold >= 1 ? p->throttle_threshold : MMB_THROTTLE_THRESHOLD_DEFAULT;
}

/* ---- the [profile] keys ---- */

int mmb_profile_key_energy(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    if (!mmb_energy_mode_parse(value, &ld->p->energy))
        return -1;
    ld->p->energy_line = ld->line;
    return 0;
}

int mmb_profile_key_energy_seconds(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    double v;
    if (mmb_profile_parse_number(value, &v) || !(v >= 0.05) || v > 60)
        return -1;
    ld->p->energy_seconds = v;
    return 0;
}

/* "90%" or "90": a share of the maximum clock, 1 to 100 percent. */
int mmb_profile_key_throttle_threshold(struct loader *ld, const char *key, const char *value, char *msg,
                                       size_t msglen)
{
    char text[64];
    size_t n = strlen(value);
    if (n == 0 || n >= sizeof text)
        return -1;
    memcpy(text, value, n + 1);
    if (text[n - 1] == '%')
        text[n - 1] = '\0';
    double v;
    if (mmb_profile_parse_number(text, &v) || !(v >= 1) || v > 100)
        return -1;
    ld->p->throttle_threshold = v;
    return 0;
}

int mmb_profile_key_throttle_retries(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    long long v;
    if (mmb_profile_parse_ll(value, 0, 10, &v))
        return -1;
    ld->p->throttle_retries = (int)v;
    return 0;
}
