/* resume.c - the row of a key that counts, and whether a run measures a row again
 * (resume.h). */
#include "results/resume.h"

#include <stdio.h>
#include <string.h>

#include "core/array.h"
#include "core/hash.h"
#include "core/source_digest.h"

/* A cell's hash; 0 only for the empty cell. */
static uint64_t cell_hash(const char *text)
{
    if (!text[0])
        return 0;
    uint64_t h = mmb_hash_bytes(MMB_FNV_SEED, text, strlen(text));
    return h ? h : 1;
}

/* The items of the sweep's choice of rows: which rows it counts (counter_mode) and
 * which get the energy window (energy_mode) are not how a row was measured, and each
 * row's counter_status and energy_status say whether it was (results/best/ decides
 * what a resumed group measures); so a row is not stale for them. */
static const char *const choice_items[] = {";counter_mode=", ";energy_mode=", NULL};

/* The protocol's hash without its choice items. 0 only for the empty cell. */
static uint64_t protocol_hash(const char *text)
{
    if (!text[0])
        return 0;
    uint64_t h = MMB_FNV_SEED;
    const char *p = text;
    for (;;) {
        const char *next = NULL;
        for (const char *const *c = choice_items; *c; c++) {
            const char *at = strstr(p, *c);
            if (at && (!next || at < next))
                next = at;
        }
        if (!next) {
            h = mmb_hash_bytes(h, p, strlen(p));
            break;
        }
        h = mmb_hash_bytes(h, p, (size_t)(next - p));
        const char *rest = strchr(next + 1, ';');
        if (!rest)
            break;
        p = rest;
    }
    return h ? h : 1;
}

void mmb_row_version_of(const struct mmb_row *row, struct mmb_row_version *out)
{
    out->source_digest = cell_hash(row->source_digest);
    out->compile_options = cell_hash(row->compile_options);
    out->protocol = protocol_hash(row->protocol);
    out->ok = row->status == MMB_STATUS_OK;
    snprintf(out->timestamp, sizeof out->timestamp, "%s", row->timestamp);
}

static bool same_origin(const struct mmb_row_version *a, const struct mmb_row_version *b)
{
    return a->source_digest == b->source_digest && a->compile_options == b->compile_options &&
           a->protocol == b->protocol;
}

bool mmb_row_version_replaces(const struct mmb_row_version *a, const struct mmb_row_version *b)
{
    bool b_later = strcmp(b->timestamp, a->timestamp) >= 0;
    const struct mmb_row_version *late = b_later ? b : a, *early = b_later ? a : b;
    const struct mmb_row_version *kept = early->ok && !late->ok && same_origin(early, late) ? early : late;
    return kept == b;
}

enum mmb_resume mmb_resume_decide(const struct mmb_row_version *present, const struct mmb_row *planned)
{
    if (!present)
        return MMB_RESUME_NEW;
    struct mmb_row_version want;
    mmb_row_version_of(planned, &want);
    if (!present->source_digest && !present->compile_options && !present->protocol &&
        (want.source_digest || want.compile_options || want.protocol))
        return MMB_RESUME_UNRECORDED;
    if (want.source_digest && present->source_digest != want.source_digest)
        return MMB_RESUME_SOURCE;
    if (want.compile_options && present->compile_options != want.compile_options)
        return MMB_RESUME_COMPILE;
    if (want.protocol && present->protocol != want.protocol)
        return MMB_RESUME_PROTOCOL;
    return MMB_RESUME_DONE;
}

int mmb_row_set_source_digest(struct mmb_row *row, const struct mmb_kernel_spec *k, const char *text, char *err,
                              size_t errlen)
{
    struct mmb_include_paths inc;
    struct mmb_source_digest d;
    row->source_digest[0] = '\0';
    if (mmb_include_paths_parse(k->nvrtc_options, &inc, err, errlen) != 0 ||
        mmb_source_digest(k->source, text, &inc, &d, err, errlen) != 0)
        return -1;
    snprintf(row->source_digest, sizeof row->source_digest, "%s", d.hex);
    return 0;
}

bool mmb_resume_stale(enum mmb_resume r)
{
    return r != MMB_RESUME_NEW && r != MMB_RESUME_DONE;
}

static const char *const texts[] = {
    [MMB_RESUME_NEW] = "not measured yet",
    [MMB_RESUME_DONE] = "measured as this run would",
    [MMB_RESUME_UNRECORDED] = "written by an mmbench that recorded no source digest, compile options or protocol",
    [MMB_RESUME_SOURCE] = "kernel source (or a file it includes) changed",
    [MMB_RESUME_COMPILE] = "compile options or NVRTC changed",
    [MMB_RESUME_PROTOCOL] = "timed or counted otherwise (protocol changed)",
};
_Static_assert(MMB_COUNT(texts) == MMB_RESUME_COUNT, "one text per resume decision");

const char *mmb_resume_text(enum mmb_resume r)
{
    return (unsigned)r < MMB_RESUME_COUNT ? texts[r] : "?";
}
