/* resume.h - which row of a configuration counts, and what a resumed run does with a
 * row already in its file. A row's key (kernel, params, dtype, m, n, k, cache and the
 * GPU: mmb_row_key) says what was measured; its origin (source_digest,
 * compile_options, protocol) says from which source, compiled how, timed and counted
 * how. Files are append-only: a configuration measured again gets a second row, which
 * supersedes the first (mmb_row_version_replaces); the writer, merge, the report,
 * compare and tune's history all follow that one rule. Resume measures again a row
 * whose origin differs from the run's (mmb_resume_decide), unless --keep-stale. */
#ifndef MMB_RESULTS_RESUME_H
#define MMB_RESULTS_RESUME_H

#include <stdbool.h>
#include <stdint.h>

#include "model/profile.h"
#include "results/row.h"

/* What of a row decides which of two rows of one key counts, and whether it is stale:
 * its origin as hashes of the three cells (0: empty; the protocol's without its
 * counter_mode item, which rows a sweep counts, which each row's counter_status
 * says), whether it is ok, when it was measured. */
struct mmb_row_version {
    uint64_t source_digest, compile_options, protocol;
    bool ok;
    char timestamp[32];
};

void mmb_row_version_of(const struct mmb_row *row, struct mmb_row_version *out);

/* Whether b, a row of the same key read after a (later in one file, or in a file read
 * later), replaces a as the row that counts. Of the two, the one measured later counts
 * (time stamp; the same time stamp: the one read later), unless it failed where the
 * other is ok with the same origin: a failure of the same measurement (a timeout of a
 * later try) does not erase a valid result, while a row of another origin (the
 * kernel edited, another protocol) supersedes whatever came before. In one file
 * written by mmbench that is the last row of the key. */
bool mmb_row_version_replaces(const struct mmb_row_version *a, const struct mmb_row_version *b);

/* What a run does with one of its rows (planned: its identity and origin) given the
 * row of its key that counts in the file. */
enum mmb_resume {
    MMB_RESUME_NEW,        /* no row of its key yet: measure */
    MMB_RESUME_DONE,       /* a row of the same origin: skip */
    MMB_RESUME_UNRECORDED, /* a row without an origin (an older mmbench): stale */
    MMB_RESUME_SOURCE,     /* another kernel source or included file: stale */
    MMB_RESUME_COMPILE,    /* other compile options or NVRTC: stale */
    MMB_RESUME_PROTOCOL,   /* timed or counted otherwise: stale */
    MMB_RESUME_COUNT,
};

/* present: the version that counts in the file, NULL when none. A cell the planned
 * row leaves empty (a digest that could not be read) is not compared. The first
 * difference in the order source, compile, protocol decides; a present row with no
 * origin cell at all is MMB_RESUME_UNRECORDED. */
enum mmb_resume mmb_resume_decide(const struct mmb_row_version *present, const struct mmb_row *planned);

/* Fills row's source_digest for source kernel k (text: its source, already read, or
 * NULL to read it): core/source_digest.h's digest of the source and every file it
 * includes, found with the -I folders of k's nvrtc_options. Returns 0, or -1 with err
 * (the cell left empty) when a file cannot be read. */
int mmb_row_set_source_digest(struct mmb_row *row, const struct mmb_kernel_spec *k, const char *text, char *err,
                              size_t errlen);

/* Stale: measured before, but not as this run would measure it. */
bool mmb_resume_stale(enum mmb_resume r);
/* "written by an mmbench that recorded no origin", "kernel source changed", ... */
const char *mmb_resume_text(enum mmb_resume r);

#endif
