/* clock_control.c - locked clocks, applied on request and always restored
 * (clock_control.h): the restore records and the run's lock. */
#include "cuda/clock_control.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "core/file.h"

#define RECORD_PREFIX "clocks-"
#define RECORD_MAX 4096

void mmb_clock_control_state_dir(char *out, size_t len)
{
    const char *dir = getenv("MMB_STATE_DIR"), *xdg = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
    if (dir && *dir)
        snprintf(out, len, "%s", dir);
    else if (xdg && *xdg)
        snprintf(out, len, "%s/mmbench", xdg);
    else
        snprintf(out, len, "%s/.local/state/mmbench", home && *home ? home : "/tmp");
}

/* ---- restore records ---- */

struct record {
    pid_t owner;
    char uuid[48];
};

static int record_path(const char *dir, const char *uuid, char *out, size_t len, char *why, size_t whylen)
{
    for (const char *p = uuid; *p; p++)
        if (*p == '/' || *p == '\n') {
            mmb_errorf(why, whylen, "GPU UUID '%s': expected no '/' or line break", uuid);
            return -1;
        }
    if ((size_t)snprintf(out, len, "%s/%s%s.txt", dir, RECORD_PREFIX, uuid) >= len) {
        mmb_errorf(why, whylen, "%s: too long a folder for the restore records", dir);
        return -1;
    }
    return 0;
}

static int record_write(const char *dir, const struct record *r, char *why, size_t whylen)
{
    char path[1200], text[256];
    if (mmb_mkdir_p(dir, why, whylen) != 0 || record_path(dir, r->uuid, path, sizeof path, why, whylen) != 0)
        return -1;
    int n = snprintf(text, sizeof text,
                     "# mmbench locked this GPU's SM clocks; whoever finds its owner dead unlocks them\n"
                     "owner=%ld\nuuid=%s\n",
                     (long)r->owner, r->uuid);
    return mmb_file_write_atomic(path, text, (size_t)n, why, whylen);
}

/* 1 when read, 0 when there is none, -1 with why when it is not a record. */
static int record_read(const char *path, struct record *r, char *why, size_t whylen)
{
    size_t len;
    char err[512];
    memset(r, 0, sizeof *r);
    if (access(path, F_OK) != 0)
        return 0;
    char *text = mmb_file_read_regular(path, RECORD_MAX, "restore record", &len, err, sizeof err);
    if (!text) {
        mmb_errorf(why, whylen, "%s", err);
        return -1;
    }
    long owner = -1;
    bool have_uuid = false;
    int line = 0;
    for (char *p = text, *next; *p; p = next) {
        line++;
        next = p + strcspn(p, "\n");
        if (*next)
            *next++ = '\0';
        char *end;
        if (!*p || *p == '#')
            continue;
        if (!strncmp(p, "owner=", 6)) {
            errno = 0;
            owner = strtol(p + 6, &end, 10);
            if (errno || *end || owner <= 0)
                owner = -2;
        } else if (!strncmp(p, "uuid=", 5) && strlen(p + 5) < sizeof r->uuid && p[5]) {
            snprintf(r->uuid, sizeof r->uuid, "%s", p + 5);
            have_uuid = true;
        } else {
            mmb_errorf(why, whylen, "%s:%d: expected owner=PID or uuid=GPU-..., found '%.60s'", path, line, p);
            free(text);
            return -1;
        }
    }
    free(text);
    if (owner <= 0 || !have_uuid) {
        mmb_errorf(why, whylen, "%s: expected owner=PID and uuid=GPU-... lines; remove it once "
                   "the GPU's settings are right (nvidia-smi -rgc restores the clocks)", path);
        return -1;
    }
    r->owner = (pid_t)owner;
    return 1;
}

static bool owner_alive(pid_t pid)
{
    return kill(pid, 0) == 0 || errno == EPERM;
}

/* Puts back what a record says: clocks unlocked. */
static int record_restore(const struct record *r, char *why, size_t whylen)
{
    struct mmb_nvml_device dev;
    if (mmb_nvml_device_open(r->uuid, &dev, why, whylen) != 0 || mmb_nvml_unlock_clocks(&dev, why, whylen) != 0)
        return -1;
    return 0;
}

/* ---- the run's settings ---- */

static enum mmb_clock_outcome outcome_of(int rc)
{
    return rc == 0 ? MMB_CLOCK_OK
           : rc == MMB_NVML_NO_PERMISSION ? MMB_CLOCK_DENIED
           : rc == 2 ? MMB_CLOCK_INVALID /* NVML_ERROR_INVALID_ARGUMENT */
           : MMB_CLOCK_FAILED;
}

enum mmb_clock_outcome mmb_clock_lock_resolve(const struct mmb_nvml_device *dev, const struct mmb_clock_lock *lock,
                                              unsigned *min_mhz, unsigned *max_mhz, char *why, size_t whylen)
{
    unsigned clocks[512], n = 0;
    int rc;
    switch (lock->kind) {
    case MMB_CLOCKS_AS_FOUND:
        *min_mhz = *max_mhz = 0;
        return MMB_CLOCK_OK;
    case MMB_CLOCKS_BASE:
        *min_mhz = *max_mhz = MMB_NVML_CLOCK_TDP;
        return MMB_CLOCK_OK;
    case MMB_CLOCKS_MAX:
        rc = mmb_nvml_sm_clock_max(dev, max_mhz, why, whylen);
        *min_mhz = *max_mhz;
        return outcome_of(rc);
    case MMB_CLOCKS_MHZ:
        if ((rc = mmb_nvml_sm_clocks_supported(dev, clocks, 512, &n, why, whylen)) != 0)
            return outcome_of(rc);
        if (n == 0 || lock->mhz > clocks[0] || lock->mhz < clocks[n - 1]) {
            mmb_errorf(why, whylen, "%u MHz is outside this GPU's SM clocks, %u to %u MHz", lock->mhz,
                       n ? clocks[n - 1] : 0, n ? clocks[0] : 0);
            return MMB_CLOCK_INVALID;
        }
        *min_mhz = *max_mhz = lock->mhz;
        return MMB_CLOCK_OK;
    }
    return MMB_CLOCK_FAILED;
}

enum mmb_clock_outcome mmb_clock_control_begin(const char *state_dir, const char *uuid,
                                               const struct mmb_clock_lock *lock, pid_t owner,
                                               struct mmb_clock_baseline *base, char *why, size_t whylen)
{
    char path[1200];
    struct record r;
    memset(base, 0, sizeof *base);
    snprintf(base->uuid, sizeof base->uuid, "%s", uuid);
    base->lock = *lock;
    if (record_path(state_dir, uuid, path, sizeof path, why, whylen) != 0)
        return MMB_CLOCK_FAILED;
    int have = record_read(path, &r, why, whylen);
    if (have < 0)
        return MMB_CLOCK_FAILED;
    if (have && owner_alive(r.owner) && r.owner != owner) {
        mmb_errorf(why, whylen, "%s's settings are held by mmbench pid %ld (%s); expected one mmbench at a time to "
                   "change a GPU's clocks", uuid, (long)r.owner, path);
        return MMB_CLOCK_FAILED;
    }
    if (have && record_restore(&r, why, whylen) != 0)
        return MMB_CLOCK_FAILED;
    struct mmb_nvml_device dev;
    int rc;
    if ((rc = mmb_nvml_device_open(uuid, &dev, why, whylen)) != 0)
        return outcome_of(rc);
    unsigned lo = 0, hi = 0;
    enum mmb_clock_outcome out = mmb_clock_lock_resolve(&dev, lock, &lo, &hi, why, whylen);
    if (out != MMB_CLOCK_OK)
        return out;
    struct record mine = {.owner = owner};
    snprintf(mine.uuid, sizeof mine.uuid, "%s", uuid);
    if (record_write(state_dir, &mine, why, whylen) != 0)
        return MMB_CLOCK_FAILED;
    if (lock->kind != MMB_CLOCKS_AS_FOUND && (rc = mmb_nvml_lock_clocks(&dev, lo, hi, why, whylen)) != 0) {
        unlink(path); /* nothing was changed: nothing to put back */
        return outcome_of(rc);
    }
    return MMB_CLOCK_OK;
}

int mmb_clock_control_end(const char *state_dir, const char *uuid, char *why, size_t whylen)
{
    char path[1200];
    struct record r;
    if (record_path(state_dir, uuid, path, sizeof path, why, whylen) != 0)
        return -1;
    int have = record_read(path, &r, why, whylen);
    if (have <= 0)
        return have;
    if (record_restore(&r, why, whylen) != 0)
        return -1;
    if (unlink(path) != 0 && errno != ENOENT) {
        mmb_errorf(why, whylen, "%s: unlink: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

int mmb_clock_control_recover(const char *state_dir, char *report, size_t len, char *why, size_t whylen)
{
    report[0] = '\0';
    DIR *d = opendir(state_dir);
    if (!d)
        return 0; /* no folder: nothing was ever changed */
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (strncmp(e->d_name, RECORD_PREFIX, strlen(RECORD_PREFIX)) || n < 4 || strcmp(e->d_name + n - 4, ".txt"))
            continue;
        char path[1200];
        struct record r;
        snprintf(path, sizeof path, "%s/%s", state_dir, e->d_name);
        if (record_read(path, &r, why, whylen) != 1) {
            rc = -1;
            break;
        }
        if (owner_alive(r.owner))
            continue;
        if (mmb_clock_control_end(state_dir, r.uuid, why, whylen) != 0) {
            rc = -1;
            break;
        }
        size_t used = strlen(report);
        snprintf(report + used, len - used, "%s%s: restored what mmbench pid %ld left (clocks unlocked)",
                 used ? "\n" : "", r.uuid, (long)r.owner);
    }
    closedir(d);
    return rc;
}
