/* sections.h - the report's places for the profiles that do not tell the story
 * (profiles.c chooses): the paragraph that names the story's profile and where each
 * other one is shown, the Kernel ladder section (ladder*), the Seed kernels as
 * written section (seeds*) and Other profiles, in the README and in tables.tex. */
#ifndef MMB_REPORT_SECTIONS_H
#define MMB_REPORT_SECTIONS_H

#include <stdbool.h>
#include <stdio.h>

#include "report/input/state.h"

/* "**Profiles.** ..." for the README's "This report". */
void mmb_report_sections_profiles_md(FILE *f, const struct mmb_report *rep);
/* Where the profiles of a role are shown, as a Markdown link ("[Seed kernels as
 * written](#seed-kernels-as-written)"); NULL for the story's. */
const char *mmb_report_sections_role_where(enum mmb_report_role role);
/* The Contents entries of the sections the data has ("[Kernel ladder](ladder.md) · "). */
void mmb_report_sections_contents(FILE *f, const struct mmb_report *rep);
/* The sections, each only when a profile of its role has rows; -1 without memory. */
int mmb_report_sections_write(const struct mmb_report *rep, FILE *md, FILE *tex);
/* The Kernel ladder section, every profile of role ladder (reports/ladder.md): how many
 * there are, 0 for none; *rc 0, or -1 when out of memory. */
size_t mmb_report_sections_ladders(const struct mmb_report *rep, FILE *md, FILE *tex, int *rc);

#endif
