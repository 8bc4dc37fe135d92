/* profile_energy.h - what a profile and the command line ask of clocks, power and energy:
 * the device settings a configuration may carry as parameters (param.nvml.sm_clock,
 * param.nvml.power_limit, as Kernel Tuner's NVML observers tune them), the clock
 * lock of --lock-clocks, and the energy phase's settings ([profile] energy,
 * energy_seconds, throttle_retries). No NVML here: cuda/clock_control.c applies the
 * settings, cuda/energy.c measures. docs/energy.md is the user's page. */
#ifndef MMB_MODEL_PROFILE_ENERGY_H
#define MMB_MODEL_PROFILE_ENERGY_H

#include <stdbool.h>
#include <stddef.h>

#include "model/profile.h"
#include "model/space.h"

/* A device setting a configuration can carry. */
enum mmb_setting { MMB_SETTING_SM_CLOCK, MMB_SETTING_POWER_LIMIT, MMB_SETTING_COUNT };

struct mmb_setting_info {
    enum mmb_setting value;
    const char *param;     /* its parameter: "nvml.sm_clock" */
    const char *unit;      /* "MHz", "W" */
    long long lo, hi;      /* what a profile may ask, before the GPU says what it allows */
    const char *meaning;
};

/* In enum order, ending with a NULL param. */
extern const struct mmb_setting_info mmb_setting_table[];

/* Parameters named "nvml.*" are device settings, not the kernel's macros. */
#define MMB_SETTING_PREFIX "nvml."
bool mmb_param_is_setting(const char *name);
/* The setting a parameter name is; NULL for a kernel parameter or an unknown setting. */
const struct mmb_setting_info *mmb_setting_find(const char *param);
/* "param.nvml.sm_clock (MHz) or param.nvml.power_limit (W)", for messages. */
void mmb_setting_names(char *out, size_t len);
/* Whether kernel has a setting among its parameters. */
bool mmb_kernel_has_settings(const struct mmb_kernel_spec *kernel);
/* The settings cfg asks for: out[setting] its value, or -1 where the kernel has no
 * such parameter (the setting stays as the run found it, or as --lock-clocks set it). */
void mmb_config_settings(const struct mmb_kernel_spec *kernel, const struct mmb_config *cfg,
                         long long out[MMB_SETTING_COUNT]);

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
    bool on;                 /* the energy phase runs (profile energy = on, no --no-energy) */
    double seconds;          /* its window at least */
    int throttle_retries;    /* a throttled row measured again at most this often */
};

/* The profile's settings, with --no-energy over them. */
void mmb_energy_spec_of(const struct mmb_profile *p, bool no_energy, struct mmb_energy_spec *out);

/* The energy settings as items of a row's protocol text ("energy=on:0.2s;clocks=max;
 * throttle_retries=2"): the hook for results/protocol's text, where a protocol is
 * written. lock may be NULL (as found). */
void mmb_energy_protocol_items(const struct mmb_energy_spec *spec, const struct mmb_clock_lock *lock, char *out,
                               size_t len);

#endif
