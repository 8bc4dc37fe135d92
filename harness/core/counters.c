/* counters.c - the tables of counter modes, energy modes and energy statuses. */
#include "core/counters.h"

#include <stdio.h>
#include <string.h>

const struct mmb_counters_info mmb_counters_table[] = {
    {MMB_COUNTERS_BEST, "best",
     "every configuration timed; the counters read for the fastest configuration of each kernel at each size and "
     "dtype (and for library kernels), which the report draws"},
    {MMB_COUNTERS_ALL, "all", "the counters read for every configuration that ran correctly"},
    {MMB_COUNTERS_NONE, "none", "no counters: timing only"},
    {MMB_COUNTERS_COUNT, NULL, NULL},
};

const char *mmb_counters_text(enum mmb_counters mode)
{
    if ((unsigned)mode >= MMB_COUNTERS_COUNT)
        return NULL;
    return mmb_counters_table[mode].text;
}

bool mmb_counters_parse(const char *text, enum mmb_counters *out)
{
    for (const struct mmb_counters_info *c = mmb_counters_table; c->text; c++) {
        if (strcmp(c->text, text) == 0) {
            *out = c->value;
            return true;
        }
    }
    return false;
}

void mmb_counters_names(char *out, size_t len)
{
    size_t o = 0;
    if (len)
        out[0] = '\0';
    for (int i = 0; i < MMB_COUNTERS_COUNT && o < len; i++) {
        int w = snprintf(out + o, len - o, "%s%s", i == 0 ? "" : i + 1 == MMB_COUNTERS_COUNT ? " or " : ", ",
                         mmb_counters_table[i].text);
        o += w > 0 ? (size_t)w : 0;
    }
}

const struct mmb_energy_mode_info mmb_energy_mode_table[] = {
    {MMB_ENERGY_BEST, "best",
     "every configuration timed; the energy window run for the fastest configuration of each kernel at each size and "
     "dtype (and for library kernels), after the timing, as counters = best counts"},
    {MMB_ENERGY_ALL, "all", "the energy window run for every configuration that ran correctly"},
    {MMB_ENERGY_OFF, "off", "no energy window: power_w, energy_j and gflops_per_watt stay empty"},
    {MMB_ENERGY_MODE_COUNT, NULL, NULL},
};

const struct mmb_energy_status_info mmb_energy_status_table[] = {
    {MMB_ENERGY_STATUS_OK, "ok", "power and energy measured", false},
    {MMB_ENERGY_STATUS_NOT_BEST, "not_best",
     "not measured on purpose: energy = best measured only the fastest configuration of this kernel at this size and "
     "dtype", false},
    {MMB_ENERGY_STATUS_OFF, "off", "not measured on purpose: energy = off (or --no-energy)", false},
    {MMB_ENERGY_STATUS_NOT_RUN, "not_run", "the configuration did not run correctly (its status says why)", false},
    {MMB_ENERGY_STATUS_UNAVAILABLE, "unavailable",
     "this machine cannot measure it: no NVML, or no energy counter on this GPU or driver", false},
    {MMB_ENERGY_STATUS_FAILED, "failed",
     "the energy window measured nothing (the counter did not update, or NVML failed; run and tune say why)", true},
    {MMB_ENERGY_STATUS_COUNT, NULL, NULL, false},
};

const char *mmb_energy_mode_text(enum mmb_energy_mode mode)
{
    if ((unsigned)mode >= MMB_ENERGY_MODE_COUNT)
        return NULL;
    return mmb_energy_mode_table[mode].text;
}

bool mmb_energy_mode_parse(const char *text, enum mmb_energy_mode *out)
{
    for (const struct mmb_energy_mode_info *m = mmb_energy_mode_table; m->text; m++) {
        if (strcmp(m->text, text) == 0) {
            *out = m->value;
            return true;
        }
    }
    return false;
}

void mmb_energy_mode_names(char *out, size_t len)
{
    size_t o = 0;
    if (len)
        out[0] = '\0';
    for (int i = 0; i < MMB_ENERGY_MODE_COUNT && o < len; i++) {
        int w = snprintf(out + o, len - o, "%s%s", i == 0 ? "" : i + 1 == MMB_ENERGY_MODE_COUNT ? " or " : ", ",
                         mmb_energy_mode_table[i].text);
        o += w > 0 ? (size_t)w : 0;
    }
}

const char *mmb_energy_status_text(enum mmb_energy_status st)
{
    if ((unsigned)st >= MMB_ENERGY_STATUS_COUNT)
        return NULL;
    return mmb_energy_status_table[st].text;
}

bool mmb_energy_status_parse(const char *text, enum mmb_energy_status *out)
{
    for (const struct mmb_energy_status_info *s = mmb_energy_status_table; s->text; s++) {
        if (strcmp(s->text, text) == 0) {
            *out = s->value;
            return true;
        }
    }
    return false;
}
