/* csv_status.c - a results CSV's statuses by row key (csv_status.h). Keys are kept as
 * 64-bit FNV-1a hashes of mmb_row_key, as the supervisor counts rows. A file whose
 * header is not written yet (another sweep creating it) has no rows. */
#include "results/csv_status.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "core/hash.h"
#include "results/csv.h"

static size_t key_hash(const struct mmb_row *row, bool with_device)
{
    char key[MMB_ROW_KEY_LEN];
    mmb_row_key(row, with_device, key, sizeof key);
    return (size_t)mmb_hash_bytes(MMB_FNV_SEED, key, strlen(key));
}

static int add(void *ctx, const struct mmb_row *row, const char *path, long line, char *err, size_t errlen)
{
    struct mmb_csv_statuses *s = ctx;
    uintptr_t v = (uintptr_t)row->status | (uintptr_t)row->counter_status << 8;
    if (mmb_imap_put(&s->map, key_hash(row, s->with_device), v) != 0)
        return mmb_failf(err, errlen, "%s:%ld: out of memory", path, line);
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
    uintptr_t v;
    if (!mmb_imap_get(&s->map, key_hash(row, s->with_device), &v))
        return false;
    *status = (enum mmb_status)(v & 0xff);
    *counter_status = (enum mmb_status)((v >> 8) & 0xff);
    return true;
}

void mmb_csv_statuses_free(struct mmb_csv_statuses *s)
{
    mmb_imap_free(&s->map);
}
