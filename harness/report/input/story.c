/* story.c - the conventions of the report's story (story.h), in one table. The
 * figures' captions and the README quote the thresholds as 30 µs and 1%. */
#include "report/input/story.h"

#include <string.h>
#include <strings.h>

#include "results/csv_name.h"

const struct mmb_report_story_rules mmb_report_story = {
    .main_profile = "course",
    .roles = {
        {NULL, mmb_csv_name_tuning, MMB_REPORT_ROLE_TUNING}, /* tune*: the Tuning section */
        {"ladder", NULL, MMB_REPORT_ROLE_LADDER},            /* the Kernel ladder section */
        {"seeds", NULL, MMB_REPORT_ROLE_AS_WRITTEN},         /* the Seed kernels as written section */
        {"precisions", NULL, MMB_REPORT_ROLE_PRECISIONS},    /* the Precisions section */
        {NULL, NULL, MMB_REPORT_ROLE_OTHER},
    },
    .ref_size = 4096,
    .small_ms = 0.030,
    .spread_shown = 0.01,
    .published = "published",
    .naive = "naive",
    .tiled = "tiled",
};

enum mmb_report_role mmb_report_story_role(const char *profile)
{
    const struct mmb_report_story_role *r = mmb_report_story.roles;
    while ((r->prefix || r->named) &&
           !(r->prefix ? strncmp(profile, r->prefix, strlen(r->prefix)) == 0 : r->named(profile)))
        r++;
    return r->role;
}

bool mmb_report_story_published(const char *reason)
{
    return strncasecmp(reason, mmb_report_story.published, strlen(mmb_report_story.published)) == 0;
}
