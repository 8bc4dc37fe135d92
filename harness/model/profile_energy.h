/* profile_energy.h - what a profile and the command line ask of clocks, power and energy:
 * the clock lock of --lock-clocks and the energy phase's settings ([profile] energy,
 * energy_seconds, throttle_retries). No NVML here: cuda/clock_control.c locks the
 * clocks, cuda/energy.c measures. docs/energy.md is the user's page. */
#ifndef MMB_MODEL_PROFILE_ENERGY_H
#define MMB_MODEL_PROFILE_ENERGY_H

#include <stdbool.h>
#include <stddef.h>

#include "model/profile.h"

/* --lock-clocks: as found (no option), the base (TDP) clock, the highest clock, or MHz. */
enum mmb_clock_lock_kind { MMB_CLOCKS_AS_FOUND, MMB_CLOCKS_BASE, MMB_CLOCKS_MAX, MMB_CLOCKS_MHZ };

struct mmb_clock_lock {
    enum mmb_clock_lock_kind kind;
    unsigned mhz; /* MMB_CLOCKS_MHZ */
};

/* "base", "max" or a whole number of MHz from 100 to 10000; false on anything else. */
bool mmb_clock_lock_parse(const char *text, struct mmb_clock_lock *out);
/* "base", "max", "1410", or "" as found. */
void mmb_clock_lock_text(const struct mmb_clock_lock *lock, char *out, size_t len);


/* What the energy phase and the clock watch do for each row. */
struct mmb_energy_spec {
    enum mmb_energy_mode mode; /* which rows get the energy phase (mmb_profile_energy) */
    double seconds;          /* its window at least */
    int throttle_retries;    /* a throttled row measured again at most this often */
    double throttle_threshold; /* ... when its lowest SM clock fell below this % of the maximum */
};

/* Which rows get the energy phase: the command line's mode when given (cli_set:
 * --energy, --no-energy), else the profile's `energy`, else command_default. */
enum mmb_energy_mode mmb_profile_energy(const struct mmb_profile *p, bool cli_set, enum mmb_energy_mode cli,
                                        enum mmb_energy_mode command_default);
/* The profile's window and retries, with mode (mmb_profile_energy's) as the phase's rows. */
void mmb_energy_spec_of(const struct mmb_profile *p, enum mmb_energy_mode mode, struct mmb_energy_spec *out);

#endif
