/* clocks.c - --lock-clocks: lock before the workers, restore after them (clocks.h). */
#include "cmd/clocks.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd/common.h"
#include "cmd/supervise.h"
#include "cuda/clock_control.h"
#include "cuda/gpu.h"

struct step {
    const char *command;
    const struct mmb_clock_lock *lock;
    int device;        /* lock: the CUDA device */
    const char *uuid;  /* restore: the GPU */
};

/* In the child: the device's UUID through CUDA, then the lock through NVML, owned by
 * the supervisor (the parent). Replies the UUID, or why not. */
static int lock_child(void *ctx)
{
    const struct step *st = ctx;
    struct mmb_device_info info;
    char why[512], state[1024];
    if (mmb_gpu_query(st->device, &info, why, sizeof why) != 0) {
        mmb_probe_reply(why);
        return MMB_EXIT_FAILED;
    }
    mmb_clock_control_state_dir(state, sizeof state);
    char report[1024];
    if (mmb_clock_control_recover(state, report, sizeof report, why, sizeof why) != 0) {
        mmb_probe_reply(why);
        return MMB_EXIT_FAILED;
    }
    if (report[0]) /* a run killed before it could unlock */
        fprintf(stderr, "mmbench %s: %s\n", st->command, report);
    struct mmb_clock_baseline base;
    enum mmb_clock_outcome out = mmb_clock_control_begin(state, info.uuid, st->lock, getppid(), &base, why, sizeof why);
    if (out != MMB_CLOCK_OK) {
        char text[768];
        snprintf(text, sizeof text, "GPU %d (%s): %s%s", st->device, info.uuid, why,
                 out == MMB_CLOCK_DENIED ? "; locking clocks needs root (or measure at the clocks as found: no "
                                           "--lock-clocks)" : "");
        mmb_probe_reply(text);
        return out == MMB_CLOCK_FAILED ? MMB_EXIT_FAILED : MMB_EXIT_BAD_INPUT;
    }
    mmb_probe_reply(info.uuid);
    return 0;
}

static int restore_child(void *ctx)
{
    const struct step *st = ctx;
    char why[512], state[1024];
    mmb_clock_control_state_dir(state, sizeof state);
    if (mmb_clock_control_end(state, st->uuid, why, sizeof why) != 0) {
        mmb_probe_reply(why);
        return MMB_EXIT_FAILED;
    }
    return 0;
}

int mmb_cmd_clocks_lock(const char *command, const struct mmb_clock_lock *lock, const int *devices, int n,
                        struct mmb_cmd_clocks *held)
{
    memset(held, 0, sizeof *held);
    if (lock->kind == MMB_CLOCKS_AS_FOUND)
        return 0;
    char text[32];
    mmb_clock_lock_text(lock, text, sizeof text);
    for (int i = 0; i < n && i < 64; i++) {
        struct step st = {.command = command, .lock = lock, .device = devices[i]};
        char reply[1024];
        int rc = mmb_probe(command, lock_child, &st, reply, sizeof reply);
        if (rc != 0) {
            fprintf(stderr, "mmbench %s: --lock-clocks %s: %s\n", command, text,
                    reply[0] ? reply : "the child that locks the clocks failed");
            mmb_cmd_clocks_restore(command, held);
            return rc;
        }
        snprintf(held->uuid[held->n++], sizeof held->uuid[0], "%.47s", reply);
        fprintf(stderr, "mmbench %s: SM clocks of GPU %d locked (%s); restored when the run ends\n", command,
                devices[i], text);
    }
    return 0;
}

int mmb_cmd_clocks_restore(const char *command, struct mmb_cmd_clocks *held)
{
    int rc = 0;
    for (int i = 0; i < held->n; i++) {
        struct step st = {.command = command, .uuid = held->uuid[i]};
        char reply[1024];
        if (mmb_probe(command, restore_child, &st, reply, sizeof reply) != 0) {
            fprintf(stderr, "mmbench %s: error: the SM clocks of %s stay locked: %s; unlock them with "
                    "`nvidia-smi -i %s -rgc` as root (the next run with --lock-clocks tries again)\n", command,
                    held->uuid[i], reply[0] ? reply : "the child that restores them failed", held->uuid[i]);
            rc = MMB_EXIT_FAILED;
        }
    }
    held->n = 0;
    return rc;
}
