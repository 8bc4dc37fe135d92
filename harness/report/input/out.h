/* out.h - the report's files are written whole: into memory first, then to a
 * temporary file renamed over the old one, so that a reader never sees half a
 * README and a failed run leaves the previous file in place. */
#ifndef MMB_REPORT_OUT_H
#define MMB_REPORT_OUT_H

#include <stddef.h>
#include <stdio.h>

/* A memory stream that becomes a file only when committed. */
struct mmb_report_out {
    FILE *f;
    char *buf;
    size_t len;
};

int mmb_report_out_open(struct mmb_report_out *o, char *err, size_t errlen);
/* Writes the stream to path atomically and frees it, whatever the outcome. */
int mmb_report_out_commit(struct mmb_report_out *o, const char *path, char *err, size_t errlen);
void mmb_report_out_discard(struct mmb_report_out *o);

#endif
