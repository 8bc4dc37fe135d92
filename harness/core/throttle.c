/* throttle.c - the table of clock event reasons and the text of a set of them. */
#include "core/throttle.h"

#include <stdio.h>
#include <string.h>

#include "core/error.h"

/* NVML's bits (nvmlClocksEventReason*) and perf policies (NVML_PERF_POLICY_*): the
 * violation counters of power and thermal policy count the time the clock spent below
 * the applications clock for that cause, so they name the same words as the bits. */
const struct mmb_throttle_info mmb_throttle_table[] = {
    {"gpu_idle", 0x1ull, -1, false, "nothing ran: the clock dropped to idle"},
    {"applications_clocks", 0x2ull, -1, false, "the clock is held at the applications-clock (or locked) setting"},
    {"sw_power_cap", 0x4ull, 0, true, "the power limit: the driver lowered the clock to stay under it"},
    {"hw_slowdown", 0x8ull, -1, true, "hardware slowdown (thermal or power brake) cut the clock by half or more"},
    {"sync_boost", 0x10ull, 2, true, "held to the clock of the other GPUs of its sync-boost group"},
    {"sw_thermal", 0x20ull, 1, true, "temperature: the driver lowered the clock to cool the GPU or its memory"},
    {"hw_thermal", 0x40ull, -1, true, "temperature: the hardware cut the clock"},
    {"hw_power_brake", 0x80ull, -1, true, "an external power brake signal (the power supply) cut the clock"},
    {"display_clocks", 0x100ull, -1, false, "the clock is limited by the display clock setting"},
    {"board_limit", 0, 3, true, "a board limit held the clock below the applications clock"},
    {"reliability", 0, 5, true, "a reliability limit (voltage) held the clock below the applications clock"},
    {NULL, 0, -1, false, NULL},
};

unsigned mmb_throttle_of_reasons(unsigned long long reasons)
{
    unsigned mask = 0;
    for (unsigned i = 0; mmb_throttle_table[i].text; i++)
        if (mmb_throttle_table[i].nvml_reason & reasons)
            mask |= 1u << i;
    return mask;
}

unsigned mmb_throttle_of_violation(int policy)
{
    for (unsigned i = 0; mmb_throttle_table[i].text; i++)
        if (mmb_throttle_table[i].nvml_violation >= 0 && mmb_throttle_table[i].nvml_violation == policy)
            return 1u << i;
    return 0;
}

void mmb_throttle_format(unsigned mask, char *out, size_t len)
{
    if (!len)
        return;
    out[0] = '\0';
    if (!mask) {
        snprintf(out, len, "%s", MMB_THROTTLE_NONE);
        return;
    }
    for (unsigned i = 0; mmb_throttle_table[i].text; i++)
        if (mask & (1u << i))
            mmb_join_append(out, len, "+", mmb_throttle_table[i].text);
}

bool mmb_throttle_parse(const char *text, unsigned *mask)
{
    *mask = 0;
    if (!strcmp(text, MMB_THROTTLE_NONE))
        return true;
    if (!*text)
        return false;
    for (const char *p = text;;) {
        size_t n = strcspn(p, "+");
        unsigned i = 0;
        while (mmb_throttle_table[i].text &&
               (strlen(mmb_throttle_table[i].text) != n || strncmp(mmb_throttle_table[i].text, p, n)))
            i++;
        if (!mmb_throttle_table[i].text || (*mask & (1u << i)))
            return false;
        *mask |= 1u << i;
        if (!p[n])
            return true;
        p += n + 1;
    }
}

bool mmb_throttle_mask_throttled(unsigned mask)
{
    for (unsigned i = 0; mmb_throttle_table[i].text; i++)
        if ((mask & (1u << i)) && mmb_throttle_table[i].throttles)
            return true;
    return false;
}

bool mmb_throttle_retry_wanted(unsigned mask, double min_mhz, double max_mhz, double threshold_pct)
{
    if (!mmb_throttle_mask_throttled(mask))
        return false;
    if (!(threshold_pct < 100) || !(min_mhz > 0) || !(max_mhz > 0))
        return true;
    return min_mhz < max_mhz * threshold_pct / 100.0;
}

bool mmb_throttle_text_throttled(const char *text)
{
    unsigned mask;
    return mmb_throttle_parse(text, &mask) && mmb_throttle_mask_throttled(mask);
}

void mmb_throttle_words(char *out, size_t len)
{
    if (!len)
        return;
    out[0] = '\0';
    for (unsigned i = 0; mmb_throttle_table[i].text; i++)
        mmb_join_append(out, len, ", ", mmb_throttle_table[i].text);
}
