/* counters.h - which rows of a sweep get hardware counters, and which get the energy
 * window, each named once in a table: profiles (`counters =`, `energy =`), the command
 * line (--counters, --energy) and the documents spell the modes through these tables;
 * the sweep and the tuner get them as values. Also what a row's energy_status says (its
 * column's words). */
#ifndef MMB_COUNTERS_H
#define MMB_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>

enum mmb_counters {
    MMB_COUNTERS_BEST, /* every configuration timed, then each group's fastest counted */
    MMB_COUNTERS_ALL,  /* every configuration counted */
    MMB_COUNTERS_NONE, /* nothing counted */
    MMB_COUNTERS_COUNT
};

struct mmb_counters_info {
    enum mmb_counters value;
    const char *text;    /* in profiles and on the command line: best */
    const char *meaning;
};

/* Rows in enum order, ending with a {MMB_COUNTERS_COUNT, NULL, NULL} sentinel. */
extern const struct mmb_counters_info mmb_counters_table[];

/* NULL for a value outside the enum. */
const char *mmb_counters_text(enum mmb_counters mode);
/* Returns false when text names no mode. */
bool mmb_counters_parse(const char *text, enum mmb_counters *out);
/* "best, all or none": every mode, for messages. */
void mmb_counters_names(char *out, size_t len);

enum mmb_energy_mode {
    MMB_ENERGY_BEST, /* every configuration timed, then each group's fastest measured (counters = best's groups) */
    MMB_ENERGY_ALL,  /* every configuration that ran correctly measured */
    MMB_ENERGY_OFF,  /* no energy phase (clocks and throttle words are still read) */
    MMB_ENERGY_MODE_COUNT
};

struct mmb_energy_mode_info {
    enum mmb_energy_mode value;
    const char *text; /* in profiles and on the command line: best */
    const char *meaning;
};

/* Rows in enum order, ending with a {MMB_ENERGY_MODE_COUNT, NULL, NULL} sentinel. */
extern const struct mmb_energy_mode_info mmb_energy_mode_table[];

/* NULL for a value outside the enum. */
const char *mmb_energy_mode_text(enum mmb_energy_mode mode);
/* Returns false when text names no mode. */
bool mmb_energy_mode_parse(const char *text, enum mmb_energy_mode *out);
/* "best, all or off": every mode, for messages. */
void mmb_energy_mode_names(char *out, size_t len);

/* A row's energy_status: why its power_w and energy_j are filled or empty. Only
 * MMB_ENERGY_FAILED is a failure (of the energy measurement, not of the
 * configuration: the row keeps its status and its times). */
enum mmb_energy_status {
    MMB_ENERGY_STATUS_OK,          /* measured */
    MMB_ENERGY_STATUS_NOT_BEST,    /* energy = best measured another configuration of the group */
    MMB_ENERGY_STATUS_OFF,         /* energy = off */
    MMB_ENERGY_STATUS_NOT_RUN,     /* the configuration did not run correctly: nothing to measure */
    MMB_ENERGY_STATUS_UNAVAILABLE, /* no NVML, or no energy counter on this GPU or driver */
    MMB_ENERGY_STATUS_FAILED,      /* the window was tried and measured nothing (the counter stalled, NVML failed) */
    MMB_ENERGY_STATUS_COUNT
};

struct mmb_energy_status_info {
    enum mmb_energy_status value;
    const char *text; /* as the CSV writes it */
    const char *meaning;
    bool failed;      /* the energy measurement failed: the report lists such rows */
};

/* Rows in enum order, ending with a {MMB_ENERGY_STATUS_COUNT, NULL, NULL, false} sentinel. */
extern const struct mmb_energy_status_info mmb_energy_status_table[];

/* NULL for a value outside the enum. */
const char *mmb_energy_status_text(enum mmb_energy_status st);
/* Returns false when text names no energy status. */
bool mmb_energy_status_parse(const char *text, enum mmb_energy_status *out);

#endif
