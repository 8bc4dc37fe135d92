/* protocol.c - the protocol column's text: written from the settings of a sweep, read
 * back item by item, and two texts compared on the items that decide what a time
 * means. */
#include "results/protocol.h"

#include <stdio.h>
#include <string.h>

#include "core/hash.h"

/* The keys whose values change the counters or the energy columns but not the times;
 * and throttle_retries and throttle_threshold: each measurement a retry takes follows
 * the timing items unchanged, the retries only choose which one a row keeps (its
 * `throttle` column says whether that one ran throttled), so rows timed with other
 * retry settings, or before retries existed, were timed alike. */
static const char *const counting_keys[] = {"counters",         "counter_mode",       "cupti_setup", "cupti_replay",
                                            "counter_batch",    "energy",             "energy_mode",
                                            "throttle_retries", "throttle_threshold", NULL};

bool mmb_protocol_key_times(const char *key)
{
    for (const char *const *k = counting_keys; *k; k++)
        if (!strcmp(*k, key))
            return false;
    return true;
}

static bool sets_equal(const struct mmb_metric_set *a, const struct mmb_metric_set *b)
{
    return a->count == b->count && !memcmp(a->index, b->index, a->count);
}

void mmb_protocol_metrics_name(const struct mmb_metric_set *set, char *out, size_t len)
{
    static const char *const named[] = {"none", "default", "memory", "compute", NULL};
    if (!set || set->count == 0) {
        snprintf(out, len, "none");
        return;
    }
    for (const char *const *n = named; *n; n++) {
        struct mmb_metric_set s;
        char ignored[64];
        if (mmb_metric_set_parse(*n, &s, ignored, sizeof ignored) == 0 && sets_equal(&s, set)) {
            snprintf(out, len, "%s", *n);
            return;
        }
    }
    size_t o = 0;
    out[0] = '\0';
    for (size_t i = 0; i < set->count; i++) {
        const struct mmb_metric *m = &mmb_metrics[set->index[i]];
        const char *name = m->column ? m->column : m->cupti;
        int w = snprintf(out + o, o < len ? len - o : 0, "%s%s", i ? "+" : "", name);
        o += w > 0 ? (size_t)w : 0;
    }
    if (o >= len) {
        uint64_t h = mmb_hash_bytes(MMB_FNV_SEED, set->index, set->count);
        snprintf(out, len, "set:%016llx", (unsigned long long)h);
    }
}

/* Appends ";key=value" (no ';' first) to out at *o; false when it does not fit. */
static bool item(char *out, size_t len, size_t *o, const char *key, const char *value)
{
    int w = snprintf(out + *o, *o < len ? len - *o : 0, "%s%s=%s", *o ? ";" : "", key, value);
    if (w < 0 || *o + (size_t)w >= len)
        return false;
    *o += (size_t)w;
    return true;
}

int mmb_protocol_format(const struct mmb_protocol_spec *spec, char *out, size_t len)
{
    char v[128];
    size_t o = 0;
    bool ok = len > 0;
    if (ok)
        out[0] = '\0';
    ok = ok && item(out, len, &o, "mmbench", spec->version && spec->version[0] ? spec->version : "unknown");
    snprintf(v, sizeof v, "%d", spec->warmup);
    ok = ok && item(out, len, &o, "warmup", v);
    if (spec->timing.noise > 0) {
        snprintf(v, sizeof v, "%.6g%%", 100.0 * spec->timing.noise);
        ok = ok && item(out, len, &o, "noise", v);
        snprintf(v, sizeof v, "%d", spec->timing.min_samples);
        ok = ok && item(out, len, &o, "min_samples", v);
        snprintf(v, sizeof v, "%.6g", spec->timing.max_seconds);
        ok = ok && item(out, len, &o, "max_seconds", v);
    } else {
        snprintf(v, sizeof v, "%d", spec->timing.min_samples);
        ok = ok && item(out, len, &o, "repeats", v);
    }
    const char *cache = mmb_cache_text(spec->cache);
    ok = ok && item(out, len, &o, "cache", cache ? cache : "unknown");
    ok = ok && item(out, len, &o, "l2_flush", spec->l2_flush && spec->l2_flush[0] ? spec->l2_flush : "unknown");
    if (spec->energy_known) {
        bool on = spec->energy_mode && strcmp(spec->energy_mode, "off");
        if (on)
            snprintf(v, sizeof v, "%.6g", spec->energy_seconds);
        ok = ok && item(out, len, &o, "energy", on ? v : "off");
        if (on)
            ok = ok && item(out, len, &o, "energy_mode", spec->energy_mode);
        snprintf(v, sizeof v, "%d", spec->throttle_retries);
        ok = ok && item(out, len, &o, "throttle_retries", v);
        if (spec->throttle_threshold > 0) {
            snprintf(v, sizeof v, "%.6g%%", spec->throttle_threshold);
            ok = ok && item(out, len, &o, "throttle_threshold", v);
        }
    }
    mmb_protocol_metrics_name(spec->metrics, v, sizeof v);
    ok = ok && item(out, len, &o, "counters", v);
    if (spec->metrics && spec->metrics->count > 0) {
        if (spec->counter_mode && spec->counter_mode[0])
            ok = ok && item(out, len, &o, "counter_mode", spec->counter_mode);
        ok = ok && item(out, len, &o, "cupti_setup", spec->cupti_setup ? spec->cupti_setup : "each");
        ok = ok && item(out, len, &o, "cupti_replay", spec->cupti_replay ? spec->cupti_replay : "user");
        snprintf(v, sizeof v, "%d", spec->counter_batch);
        ok = ok && item(out, len, &o, "counter_batch", v);
    }
    return ok ? 0 : -1;
}

/* The item of text that starts at p: [key, key_end) and [value, end); the next item
 * starts after end (at end when it is the text's end). */
struct span {
    const char *key, *key_end, *value, *end;
};

static bool next_item(const char **p, struct span *s)
{
    if (!**p)
        return false;
    s->key = *p;
    s->end = *p + strcspn(*p, ";");
    const char *eq = memchr(s->key, '=', (size_t)(s->end - s->key));
    s->key_end = eq ? eq : s->end;
    s->value = eq ? eq + 1 : s->end;
    *p = *s->end ? s->end + 1 : s->end;
    return true;
}

/* The item of text named key (a NUL-terminated name); false when none. */
static bool find(const char *text, const char *key, struct span *out)
{
    size_t n = strlen(key);
    struct span s;
    for (const char *p = text; next_item(&p, &s);)
        if ((size_t)(s.key_end - s.key) == n && !strncmp(s.key, key, n)) {
            *out = s;
            return true;
        }
    return false;
}

bool mmb_protocol_get(const char *protocol, const char *key, char *out, size_t len)
{
    struct span s;
    if (!find(protocol, key, &s))
        return false;
    snprintf(out, len, "%.*s", (int)(s.end - s.value), s.value);
    return true;
}

/* Compares the items of a against b (keys of a only), timing keys alone when
 * times_only; false at the first difference, said in why. */
static bool items_match(const char *a, const char *b, bool a_first, bool times_only, char *why, size_t whylen)
{
    struct span s, t;
    for (const char *p = a; next_item(&p, &s);) {
        char key[64];
        snprintf(key, sizeof key, "%.*s", (int)(s.key_end - s.key), s.key);
        if (times_only && !mmb_protocol_key_times(key))
            continue;
        bool there = find(b, key, &t);
        if (there && t.end - t.value == s.end - s.value && !strncmp(t.value, s.value, (size_t)(s.end - s.value)))
            continue;
        if (why) {
            char mine[96], theirs[96];
            snprintf(mine, sizeof mine, "%.*s", (int)(s.end - s.value), s.value);
            snprintf(theirs, sizeof theirs, "%.*s", there ? (int)(t.end - t.value) : 6,
                     there ? t.value : "(none)");
            snprintf(why, whylen, "%s %s against %s", key, a_first ? mine : theirs, a_first ? theirs : mine);
        }
        return false;
    }
    return true;
}

static bool compare(const char *a, const char *b, bool times_only, char *why, size_t whylen)
{
    if (why && whylen)
        why[0] = '\0';
    if (!a[0] || !b[0]) {
        if (a[0] == b[0])
            return true;
        if (why)
            snprintf(why, whylen, "one protocol not recorded (a row of an older mmbench)");
        return false;
    }
    return items_match(a, b, true, times_only, why, whylen) && items_match(b, a, false, times_only, why, whylen);
}

bool mmb_protocol_times_alike(const char *a, const char *b, char *why, size_t whylen)
{
    return compare(a, b, true, why, whylen);
}

void mmb_protocol_difference(const char *a, const char *b, char *why, size_t whylen)
{
    compare(a, b, false, why, whylen);
}
