/* profile_timing.c - how the profile times a configuration: a fixed count (repeats)
 * or a noise target (noise, min_samples, max_seconds; core/converge.h), the check
 * that [profile] asks for one of them, and the command line's overrides over the
 * profile (mmb_profile_timing); and which rows get counters (`counters`,
 * mmb_profile_counters). docs/profiles.md, "Timing" and "Counters", says the same. */
#include "model/profile.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/converge.h"
#include "core/error.h"
#include "model/profile_parse.h"

int mmb_profile_key_noise(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    return mmb_noise_parse(value, &ld->p->noise);
}

int mmb_profile_key_counters(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    if (!mmb_counters_parse(value, &ld->p->counters))
        return -1;
    ld->p->counters_line = ld->line;
    return 0;
}

enum mmb_counters mmb_profile_counters(const struct mmb_profile *p, bool cli_set, enum mmb_counters cli,
                                       enum mmb_counters command_default, bool no_metrics)
{
    if (no_metrics)
        return MMB_COUNTERS_NONE;
    if (cli_set)
        return cli;
    return p->counters_line ? p->counters : command_default;
}

int mmb_profile_key_min_samples(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    long long v;
    if (mmb_profile_parse_ll(value, MMB_CONVERGE_MIN_SAMPLES, MMB_CONVERGE_MAX_SAMPLES, &v))
        return -1;
    ld->p->min_samples = (int)v;
    return 0;
}

int mmb_profile_key_max_seconds(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    double v;
    if (mmb_profile_parse_number(value, &v) || !(v > 0) || v > 1e9)
        return -1;
    ld->p->max_seconds = v;
    return 0;
}

/* [profile]'s end: a fixed count or a noise target, not both; the target's own keys
 * only with a target; a cap that leaves the configuration's timeout room. */
static int line_of(const struct loader *ld, const struct key_def *keys, const char *key)
{
    int i = mmb_profile_key_index(keys, key);
    return i < 0 ? 0 : ld->key_lines[i];
}

int mmb_profile_end_timing(struct loader *ld, const struct key_def *keys)
{
    const struct mmb_profile *p = ld->p;
    int repeats = line_of(ld, keys, "repeats"), noise = line_of(ld, keys, "noise");
    int min_samples = line_of(ld, keys, "min_samples"), max_seconds = line_of(ld, keys, "max_seconds");
    if (repeats && noise)
        return mmb_profile_fail(ld, repeats > noise ? repeats : noise,
                                "'repeats' (line %d) fixes the count of timed launches and 'noise' (line %d) "
                                "times until the median is that precise; expected one of them (with noise, "
                                "min_samples is the least count)", repeats, noise);
    if (!noise && (min_samples || max_seconds))
        return mmb_profile_fail(ld, min_samples ? min_samples : max_seconds,
                                "'%s' applies to a noise target; expected 'noise = ...' in [profile] too "
                                "(such as noise = 0.5%%), or 'repeats = N' alone for a fixed count",
                                min_samples ? "min_samples" : "max_seconds");
    if (max_seconds && p->max_seconds >= p->timeout)
        return mmb_profile_fail(ld, max_seconds,
                                "max_seconds = %g leaves no room in the %g s timeout of a configuration (compile, "
                                "verification and counters included); expected less than the timeout", p->max_seconds,
                                p->timeout);
    return 0;
}

int mmb_profile_timing(const struct mmb_profile *p, const struct mmb_timing_request *cli,
                       struct mmb_converge_spec *out, char *err, size_t errlen)
{
    if (cli->repeats > 0 && (cli->noise > 0 || cli->min_samples > 0 || cli->max_seconds > 0)) {
        mmb_errorf(err, errlen, "--repeats fixes the count of timed launches, and --noise, --min-samples and "
                   "--max-seconds time to a noise target; expected one or the other");
        return -1;
    }
    if (cli->repeats > 0) {
        *out = (struct mmb_converge_spec){.noise = 0, .min_samples = cli->repeats, .max_seconds = 0};
        return 0;
    }
    double noise = cli->noise > 0 ? cli->noise : p->noise;
    if (noise > 0) {
        out->noise = noise;
        out->min_samples = cli->min_samples > 0 ? cli->min_samples
                           : p->min_samples > 0 ? p->min_samples : MMB_DEFAULT_MIN_SAMPLES;
        out->max_seconds = cli->max_seconds > 0 ? cli->max_seconds
                           : p->max_seconds > 0 ? p->max_seconds : MMB_DEFAULT_MAX_SECONDS;
        return 0;
    }
    if (cli->min_samples > 0 || cli->max_seconds > 0) {
        mmb_errorf(err, errlen, "--%s applies to a noise target, and neither --noise nor the profile's "
                   "[profile] noise sets one; expected --noise too (such as --noise 0.5%%)",
                   cli->min_samples > 0 ? "min-samples" : "max-seconds");
        return -1;
    }
    *out = (struct mmb_converge_spec){.noise = 0, .min_samples = p->repeats, .max_seconds = 0};
    return 0;
}
