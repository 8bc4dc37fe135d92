/* csv_status.c - a results CSV's statuses by row key (csv_status.h). Keys are kept as
 * 64-bit FNV-1a hashes of mmb_row_key, as the supervisor counts rows. A file whose
 * header is not written yet (another sweep creating it) has no rows. */
#include "results/csv_status.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "results/csv.h"


static int add(void *ctx, const struct mmb_row *row, const char *path, long line, char *err, size_t errlen)
{
    struct mmb_csv_statuses *s = ctx;
    struct mmb_csv_status_entry e = {.status = row->status, .counter_status = row->counter_status};
    mmb_row_version_of(row, &e.version);
    char key[MMB_ROW_KEY_LEN];
    mmb_row_key(row, s->with_device, key, sizeof key);
    uintptr_t at;
    if (mmb_smap_get(&s->map, key, &at)) {
        if (mmb_row_version_replaces(&s->entries[at].version, &e.version))
            s->entries[at] = e;
        return 0;
    }
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 256;
        struct mmb_csv_status_entry *grown = realloc(s->entries, cap * sizeof *grown);
        if (!grown)
            return mmb_failf(err, errlen, "%s:%ld: out of memory", path, line);
        s->entries = grown;
        s->cap = cap;
    }
    if (mmb_smap_put(&s->map, key, (uintptr_t)s->n) != 0)
        return mmb_failf(err, errlen, "%s:%ld: out of memory", path, line);
    s->entries[s->n++] = e;
    return 0;
}

/* Whether path's header is whole (its first newline written): a file another sweep
 * has just created, or is creating, has no rows yet. */
static bool header_written(const char *path)
{
    char head[4096];
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(head, 1, sizeof head, f) : 0;
    if (f)
        fclose(f);
    return n == sizeof head || memchr(head, '\n', n) != NULL;
}

int mmb_csv_statuses_load(struct mmb_csv_statuses *s, const char *path, bool with_device, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->with_device = with_device;
    if ((access(path, F_OK) != 0 && errno == ENOENT) || !header_written(path))
        return 0;
    return mmb_csv_read_appended(path, add, s, NULL, err, errlen);
}

bool mmb_csv_statuses_find(const struct mmb_csv_statuses *s, const struct mmb_row *row, enum mmb_status *status,
                           enum mmb_status *counter_status)
{
    uintptr_t at;
    char key[MMB_ROW_KEY_LEN];
    mmb_row_key(row, s->with_device, key, sizeof key);
    if (!mmb_smap_get(&s->map, key, &at))
        return false;
    *status = s->entries[at].status;
    *counter_status = s->entries[at].counter_status;
    return true;
}

void mmb_csv_statuses_free(struct mmb_csv_statuses *s)
{
    mmb_smap_free(&s->map);
    free(s->entries);
    s->entries = NULL;
    s->n = s->cap = 0;
}
