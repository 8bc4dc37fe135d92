/* session_power.c - a row's clocks, throttle reasons, power and energy: the clock
 * watch over its timed launches (cuda/clock_watch.h, through the timer), the energy
 * window after them (cuda/energy.h) under the same watch, and the decision to time a
 * throttled row again. Where NVML or its energy counter is missing, the cells stay
 * empty and the session says why once. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/counters.h"
#include "core/error.h"
#include "core/throttle.h"
#include "cuda/energy.h"
#include "cuda/session/session.h"
#include "cuda/session/session_impl.h"
#include "cuda/timer.h"

void mmb_session_power_open(struct mmb_session *s)
{
    char why[256] = "";
    unsigned mhz = 0;
    s->power_note[0] = s->energy_note[0] = '\0';
    s->max_sm_mhz = s->window_min_mhz = NAN;
    s->have_nvml = mmb_nvml_device_open(s->dev.uuid, &s->nvml, why, sizeof why) == 0;
    if (!s->have_nvml) {
        snprintf(s->power_note, sizeof s->power_note, "%s", why);
        return;
    }
    /* unknown, every throttled row is measured again (mmb_throttle_retry_wanted) */
    if (mmb_nvml_sm_clock_max(&s->nvml, &mhz, why, sizeof why) == 0 && mhz > 0)
        s->max_sm_mhz = mhz;
    else if (s->opts.verbose)
        fprintf(stderr, "mmbench %s: the maximum SM clock is unknown (%s): every throttled row is timed again\n",
                mmb_session_command(s), why);
    mmb_timer_watch(s->timer, &s->watch);
}

const char *mmb_session_power_note(const struct mmb_session *s)
{
    return s->power_note;
}

/* The watch's results into the row: the clocks of the timed launches, and the words of
 * every window so far (timed launches and energy). */
static void watch_into_row(const struct mmb_clock_watch *w, struct mmb_row *row)
{
    row->sm_clock_min_mhz = w->min_mhz;
    row->sm_clock_max_mhz = w->max_mhz;
    mmb_clock_watch_throttle_text(w, row->throttle, sizeof row->throttle);
}

static void energy_counted(struct mmb_phase_times *t, const struct mmb_energy_result *r)
{
    t->energy_windows++;
    if (!(r->update_ms > 0))
        return;
    t->update_ms_min = t->update_ms_min > 0 && t->update_ms_min < r->update_ms ? t->update_ms_min : r->update_ms;
    t->update_ms_max = t->update_ms_max > r->update_ms ? t->update_ms_max : r->update_ms;
}

void mmb_session_energy_status(struct mmb_row *row, enum mmb_energy_status st)
{
    const char *text = mmb_energy_status_text(st);
    snprintf(row->energy_status, sizeof row->energy_status, "%s", text ? text : "");
}

/* One energy window of c's launches under the watch (its clock samples and reasons
 * add to the watch's throttle words; its clocks are not the timed launches' and stay
 * out of the watch's min and max) into row's power, energy and energy_status. */
static enum mmb_status energy_window(struct mmb_session *s, struct launch_ctx *c, double launch_ms,
                                     struct mmb_row *row, char *err, size_t errlen)
{
    if (!s->have_nvml) {
        mmb_session_energy_status(row, MMB_ENERGY_STATUS_UNAVAILABLE);
        return MMB_STATUS_OK;
    }
    struct mmb_energy_cuda *loop = NULL;
    struct mmb_energy_gpu gpu;
    struct mmb_energy_result r;
    enum mmb_status st = mmb_energy_cuda_open(&loop, s->stream, c->launch, c, &gpu, err, errlen);
    if (st != MMB_STATUS_OK)
        return st;
    double lo = s->watch.min_mhz, hi = s->watch.max_mhz;
    mmb_clock_watch_begin(&s->watch);
    st = mmb_energy_measure(&s->nvml, &gpu, launch_ms, s->opts.energy.seconds, &s->watch, &r, err, errlen);
    mmb_clock_watch_end(&s->watch);
    mmb_energy_cuda_close(loop);
    s->window_min_mhz = s->watch.min_mhz;
    s->watch.min_mhz = lo;
    s->watch.max_mhz = hi;
    if (st != MMB_STATUS_OK)
        return st;
    if (r.why[0]) {
        if (strcmp(r.why, s->energy_note) && (s->opts.verbose || !s->energy_note[0]))
            fprintf(stderr, "mmbench %s: warning: %s %s: power and energy not measured: %s\n", mmb_session_command(s),
                    row->kernel, row->params, r.why);
        snprintf(s->energy_note, sizeof s->energy_note, "%s", r.why);
        mmb_session_energy_status(row, r.unavailable ? MMB_ENERGY_STATUS_UNAVAILABLE : MMB_ENERGY_STATUS_FAILED);
        return MMB_STATUS_OK;
    }
    row->power_w = r.power_w;
    row->energy_j = r.energy_j;
    mmb_session_energy_status(row, MMB_ENERGY_STATUS_OK);
    energy_counted(&s->phases, &r);
    if (s->opts.verbose)
        fprintf(stderr, "  energy: %.1f W over %.3f s (%u counter updates, every %.1f ms), %.4g J per launch of %.4g ms"
                " (%zu launches, phase %.3f s; window %.3f to %.3f s since 1970)\n", r.power_w, r.window_s,
                r.updates, r.update_ms, r.energy_j, r.period_ms, r.launches, r.seconds, r.opened_epoch,
                r.closed_epoch);
    return MMB_STATUS_OK;
}

enum mmb_status mmb_session_measure_power(struct mmb_session *s, struct launch_ctx *c, double launch_ms, bool later,
                                          struct mmb_row *row, char *err, size_t errlen)
{
    watch_into_row(&s->watch, row);
    row->power_w = row->energy_j = NAN;
    if (s->opts.energy.mode == MMB_ENERGY_OFF) {
        mmb_session_energy_status(row, MMB_ENERGY_STATUS_OFF);
        return MMB_STATUS_OK;
    }
    if (later) { /* energy = best: the group's fastest row is measured after the group's timing */
        mmb_session_energy_status(row, MMB_ENERGY_STATUS_NOT_BEST);
        return MMB_STATUS_OK;
    }
    enum mmb_status st = energy_window(s, c, launch_ms, row, err, errlen);
    watch_into_row(&s->watch, row);
    return st;
}

/* Whether a throttled measurement whose lowest clock was min_mhz is taken again. */
static bool retry_wanted(const struct mmb_session *s, double min_mhz)
{
    return mmb_throttle_retry_wanted(s->watch.throttle, min_mhz, s->max_sm_mhz, s->opts.energy.throttle_threshold);
}

enum mmb_status mmb_session_energy_again(struct mmb_session *s, struct launch_ctx *c, struct mmb_row *row,
                                         char *err, size_t errlen)
{
    unsigned timed = 0; /* the words of the row's timed launches, kept */
    if (!mmb_throttle_parse(row->throttle, &timed))
        timed = 0;
    enum mmb_status st = MMB_STATUS_OK;
    for (int attempt = 0;; attempt++) {
        row->power_w = row->energy_j = NAN;
        mmb_clock_watch_reset(&s->watch, s->have_nvml ? &s->nvml : NULL);
        st = energy_window(s, c, row->time_ms_median, row, err, errlen);
        if (st != MMB_STATUS_OK || !mmb_throttle_mask_throttled(s->watch.throttle))
            break;
        if (!retry_wanted(s, s->window_min_mhz)) {
            s->phases.throttled_kept++;
            break;
        }
        if (attempt >= s->opts.energy.throttle_retries) {
            s->phases.throttled_rows++;
            fprintf(stderr, "mmbench %s: warning: %s %s %lldx%lldx%lld: clocks throttled (energy window) in %d "
                    "measurement%s; the row keeps the flag\n", mmb_session_command(s), row->kernel, row->params,
                    row->m, row->n, row->k, attempt + 1, attempt ? "s" : "");
            break;
        }
        s->phases.throttle_retries++;
    }
    if (s->watch.measured || timed)
        mmb_throttle_format(timed | s->watch.throttle, row->throttle, sizeof row->throttle);
    return st;
}

bool mmb_session_throttled_again(struct mmb_session *s, const struct mmb_row *row, int attempt)
{
    if (!mmb_throttle_mask_throttled(s->watch.throttle))
        return false;
    if (!retry_wanted(s, s->watch.min_mhz)) {
        s->phases.throttled_kept++;
        if (s->opts.verbose)
            fprintf(stderr, "  clocks throttled (%s) at %.0f MHz, not below %.3g%% of %.0f MHz: kept, flagged\n",
                    row->throttle, s->watch.min_mhz, s->opts.energy.throttle_threshold, s->max_sm_mhz);
        return false;
    }
    if (attempt >= s->opts.energy.throttle_retries) {
        s->phases.throttled_rows++;
        fprintf(stderr, "mmbench %s: warning: %s %s %lldx%lldx%lld: clocks throttled (%s) in %d measurement%s; the row "
                "keeps the flag\n", mmb_session_command(s), row->kernel, row->params, row->m, row->n, row->k,
                row->throttle, attempt + 1, attempt ? "s" : "");
        return false;
    }
    s->phases.throttle_retries++;
    if (s->opts.verbose)
        fprintf(stderr, "  clocks throttled (%s): timing again (%d of at most %d)\n", row->throttle, attempt + 1,
                s->opts.energy.throttle_retries);
    return true;
}

size_t mmb_session_energy_format(const struct mmb_phase_times *t, char *out, size_t len)
{
    int w = t->update_ms_max > 0
                ? snprintf(out, len, " (%zu windows; the energy counter updated every %.1f to %.1f ms)",
                           t->energy_windows, t->update_ms_min, t->update_ms_max)
                : snprintf(out, len, " (%zu windows)", t->energy_windows);
    return w < 0 ? 0 : (size_t)w < len ? (size_t)w : len;
}
