/* protocol.h - how a row was timed and counted, as one line of text in the CSV's
 * protocol column: `key=value` items joined by ';', in a fixed order, for example
 *
 *   mmbench=0.1.0;warmup=2;noise=0.5%;min_samples=10;max_seconds=1;cache=cold;
 *   l2_flush=read:8;counters=default;counter_mode=best;cupti_setup=each;cupti_replay=user;
 *   counter_batch=32
 *
 * (one line in the CSV). Timing items decide what the times mean (two rows whose
 * timing items differ were not timed alike); counting items decide the counters.
 * With a session's energy settings, energy=off, or energy=SECONDS;energy_mode=best|all,
 * throttle_retries=N and throttle_threshold=P% follow l2_flush. Readers split it with mmb_protocol_get; unknown keys are kept and compared like any
 * other, so that a later mmbench can add items. docs/profiles.md, "Protocol", lists
 * every key. */
#ifndef MMB_RESULTS_PROTOCOL_H
#define MMB_RESULTS_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>

#include "core/cache.h"
#include "core/converge.h"
#include "results/metrics.h"

/* The protocol column's text holds this many bytes at most (its row field's size). */
#define MMB_PROTOCOL_LEN 256

/* The settings a protocol names; the text is mmb_protocol_format's. */
struct mmb_protocol_spec {
    const char *version;          /* mmbench's, MMB_VERSION */
    int warmup;                   /* untimed launches before the timed ones */
    struct mmb_converge_spec timing; /* a fixed count or a noise target (core/converge.h) */
    enum mmb_cache_mode cache;
    const char *l2_flush;         /* the flush method in its canonical form ("read:8"),
                                   * MMB_L2_SWEEP's; NULL: not known (no GPU) */
    const struct mmb_metric_set *metrics; /* the counters read; NULL or empty: none */
    /* Which rows are counted (core/counters.h: a profile's `counters = best|all|none`,
     * --counters): its text, written as counter_mode=TEXT after the set when counters
     * are read; NULL: no item. */
    const char *counter_mode;
    const char *cupti_setup;      /* MMB_CUPTI_SETUP's effect: "each" or "once" */
    const char *cupti_replay;     /* MMB_CUPTI_REPLAY's effect: "user" or "kernel" */
    int counter_batch;            /* MMB_COUNTER_BATCH's effect: launches per counter batch */
    /* The energy phase and the throttle retries (model/profile_energy.h), written as
     * energy=off, or energy=SECONDS (the window at least) and energy_mode=TEXT (which
     * rows get it: core/counters.h), throttle_retries=N and throttle_threshold=P% when energy_known;
     * false: no item (a spec of no session). */
    bool energy_known;
    const char *energy_mode;      /* "best", "all" or "off"; NULL: off */
    double energy_seconds;
    int throttle_retries;
    double throttle_threshold; /* percent; written after throttle_retries when > 0 */
};

/* The text of spec into out (MMB_PROTOCOL_LEN bytes suffice). Returns 0, or -1 when
 * out is too small. The counting items after `counters` are written only when
 * counters are read. */
int mmb_protocol_format(const struct mmb_protocol_spec *spec, char *out, size_t len);

/* The canonical name of a metric set: default, memory, compute or none when it is one
 * of those, else its columns joined by '+', or set:HASH when that would not fit len. */
void mmb_protocol_metrics_name(const struct mmb_metric_set *set, char *out, size_t len);

/* The value of key in protocol text into out; false when the text has no such item. */
bool mmb_protocol_get(const char *protocol, const char *key, char *out, size_t len);

/* Whether key decides what a row's times mean (mmbench, warmup, repeats, noise,
 * min_samples, max_seconds, cache, l2_flush, and any key this mmbench does not know);
 * the counting keys (counters, counter_mode, cupti_setup, cupti_replay, counter_batch),
 * energy and energy_mode do not (counters and energy are measured in launches of their
 * own, after the timed ones), nor do throttle_retries and throttle_threshold (a retry
 * is timed as the first measurement; they choose which one a row keeps). */
bool mmb_protocol_key_times(const char *key);

/* Whether rows of protocols a and b were timed alike: every timing item the same in
 * both (present in both with the same value, or absent from both). An empty text is
 * a protocol not recorded (a row of an older mmbench): alike only another empty one.
 * When not alike and why is not NULL, why gets the first difference, as
 * "warmup 2 against 0" or "noise 0.5% against (none)". */
bool mmb_protocol_times_alike(const char *a, const char *b, char *why, size_t whylen);

/* The first item in which a and b differ, any key, as mmb_protocol_times_alike says
 * it; "" when the texts hold the same items. */
void mmb_protocol_difference(const char *a, const char *b, char *why, size_t whylen);

#endif
