/* pairs.h - the report compares two GPUs only at one configuration, and only through
 * `mmbench compare`'s verdicts (results/compare/compare.h): the other GPU's row of a row's
 * configuration, their verdict, and what a set of such comparisons rests on (samples
 * or min and max, protocols recorded and alike, launches per row) in a sentence. */
#ifndef MMB_REPORT_PAIRS_H
#define MMB_REPORT_PAIRS_H

#include <stddef.h>

#include "report/input/data.h"
#include "results/compare/compare.h"

/* The selected row of GPU b with ra's kernel, shape and configuration (params); NULL
 * when b did not measure it. */
const struct mmb_report_row *mmb_report_pairs_match(const struct mmb_report_data *d, const struct mmb_report_row *ra,
                                                    size_t b);

/* new_ against old as `mmbench compare` gives it, with the launch times of their
 * files' side files where they have them, at the default threshold. */
void mmb_report_pairs_compare(const struct mmb_report_data *d, const struct mmb_report_row *old,
                              const struct mmb_report_row *new_, struct mmb_comparison *out);

/* What the comparisons of one pair of GPUs rest on; zero it before the first add.
 * Side 0 is the old GPU, side 1 the new. */
struct mmb_report_pairs_basis {
    size_t pairs, verdicts[MMB_VERDICT_COUNT];
    size_t samples[2], recorded[2], unlike;
    double launches_min[2], launches_max[2];
    char stops[2][64];     /* the stopped_by values seen, joined */
    char why[160];         /* how the protocols differ, the first one */
    char protocol[256];    /* the shared protocol, when recorded */
};

void mmb_report_pairs_basis_add(struct mmb_report_pairs_basis *b, const struct mmb_report_row *old,
                                const struct mmb_report_row *new_, const struct mmb_comparison *c);
/* One or two sentences for a finding or a table's note: on what the verdicts rest,
 * naming the GPUs na (old) and nb (new); "" without comparisons. */
void mmb_report_pairs_basis_text(const struct mmb_report_pairs_basis *b, const char *na, const char *nb, char *out,
                                 size_t len);

#endif
