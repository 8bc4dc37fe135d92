/* out.c - the report's whole-file outputs: a memory stream committed atomically. */
#include "report/input/out.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/file.h"

int mmb_report_out_open(struct mmb_report_out *o, char *err, size_t errlen)
{
    o->buf = NULL;
    o->len = 0;
    o->f = open_memstream(&o->buf, &o->len);
    if (!o->f) {
        mmb_errorf(err, errlen, "open_memstream: %s", strerror(errno));
        return -1;
    }
    return 0;
}

int mmb_report_out_commit(struct mmb_report_out *o, const char *path, char *err, size_t errlen)
{
    int failed = ferror(o->f);
    int closed = fclose(o->f);
    o->f = NULL;
    if (closed != 0 || failed) {
        mmb_errorf(err, errlen, "%s: cannot format: %s", path, strerror(errno));
        free(o->buf);
        o->buf = NULL;
        return -1;
    }
    int rc = mmb_file_write_atomic(path, o->buf, o->len, err, errlen);
    free(o->buf);
    o->buf = NULL;
    return rc;
}

void mmb_report_out_discard(struct mmb_report_out *o)
{
    if (o->f)
        fclose(o->f); /* a memory stream: nothing to lose */
    free(o->buf);
    o->f = NULL;
    o->buf = NULL;
}
