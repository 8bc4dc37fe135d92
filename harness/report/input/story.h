/* story.h - the conventions the report's story rests on, in one table: the profile
 * that tells the story, what a profile's name says it is for, the size of the bars
 * and tables, the thresholds under which a time is latency and over which a spread is
 * drawn, how a published row is marked, and the kernels the seeds' claims compare.
 * Every file of report/ that needs one of them reads it here. */
#ifndef MMB_REPORT_STORY_H
#define MMB_REPORT_STORY_H

#include <stdbool.h>

/* What a profile's rows are for in the report (profiles.c chooses: by the profile's
 * declared `role =`, else, for profiles written before the key, by its name as the
 * table below says; and by what its rows hold). */
enum mmb_report_role {
    MMB_REPORT_ROLE_MAIN,       /* the story: findings, figures and tables */
    MMB_REPORT_ROLE_PUBLISHED,  /* figures published elsewhere: they join the story */
    MMB_REPORT_ROLE_TUNING,     /* tune*: the Tuning section */
    MMB_REPORT_ROLE_DTYPES,     /* the most element types: the element-type table and finding */
    MMB_REPORT_ROLE_LADDER,     /* ladder*: the Kernel ladder section */
    MMB_REPORT_ROLE_AS_WRITTEN, /* seeds*: the Seed kernels as written section */
    MMB_REPORT_ROLE_PRECISIONS, /* precisions*: the Precisions section */
    MMB_REPORT_ROLE_OTHER,      /* any other: a section of its own */
};

struct mmb_report_story_role {
    const char *prefix;                   /* a profile whose name starts so ... */
    bool (*named)(const char *profile);   /* ... or that this rule names */
    enum mmb_report_role role;
};

struct mmb_report_story_rules {
    const char *main_profile;      /* the story's profile when the data has it (the course documents' sweep) */
    struct mmb_report_story_role roles[5]; /* by name; the last (no prefix, no rule) is every other profile's */
    long long ref_size;            /* N of the bars, tables and heatmaps when the data has N x N x N */
    double small_ms;               /* below: a kernel's time is launch and latency (figures and findings grey it) */
    double spread_shown;           /* above: a time's min-max spread over its median gets an error bar */
    const char *published;         /* a row whose reason starts so (any case) is a published figure */
    const char *naive, *tiled;     /* the kernels of seed 000's "3x from tiling" (and seed 004's naive) */
};

extern const struct mmb_report_story_rules mmb_report_story;

/* The role a profile's name gives it (MMB_REPORT_ROLE_OTHER when none). */
enum mmb_report_role mmb_report_story_role(const char *profile);
/* Whether a row with this reason is a published figure, not a measurement. */
bool mmb_report_story_published(const char *reason);

#endif
