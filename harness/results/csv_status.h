/* csv_status.h - the statuses of a results CSV's rows by their key: what a sweep that
 * resumes learns of the rows it does not run again, so that --fail-on judges them too.
 * Of two rows of one key, the one that counts (results/resume.h). */
#ifndef MMB_CSV_STATUS_H
#define MMB_CSV_STATUS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/imap.h"
#include "core/status.h"
#include "results/resume.h"
#include "results/row.h"

struct mmb_csv_status_entry {
    struct mmb_row_version version; /* of the row that counts so far */
    enum mmb_status status, counter_status;
};

struct mmb_csv_statuses {
    struct mmb_smap map;  /* the row key -> index into entries */
    struct mmb_csv_status_entry *entries;
    size_t n, cap;
    bool with_device;     /* keys with the GPU (mmb_row_key) */
};

/* Reads path's rows (a missing file has none; the last line may be a row being written,
 * mmb_csv_read_appended). Of two rows of one key, the statuses of the one that counts
 * (mmb_row_version_replaces). Returns 0, or -1 with err. */
int mmb_csv_statuses_load(struct mmb_csv_statuses *s, const char *path, bool with_device, char *err, size_t errlen);
/* The statuses of the file's row of row's key; false when it has none. */
bool mmb_csv_statuses_find(const struct mmb_csv_statuses *s, const struct mmb_row *row, enum mmb_status *status,
                           enum mmb_status *counter_status);
void mmb_csv_statuses_free(struct mmb_csv_statuses *s);

#endif
