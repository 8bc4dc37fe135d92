/* clock_control.h - locking a GPU's SM clocks on request (--lock-clocks) and always
 * putting them back. Two parts:
 *
 *  - a restore record per GPU, written before the change: the owner's pid (the
 *    supervisor of run or tune) and what to put back. Whoever ends a run restores
 *    from it and removes it; a run that finds the record of a dead owner (a
 *    supervisor killed with SIGKILL) restores that first. So every exit path
 *    restores: the end of a run, Ctrl-C and SIGTERM (the supervisor restores after
 *    its workers stop), a worker's crash (the lock is the GPU's, not the worker's: it
 *    holds for the restarted worker, and the supervisor restores at the end), and the
 *    supervisor's own death (the next run with --lock-clocks recovers every GPU).
 *  - the run's lock (mmb_clock_control_begin / _end): applied once; cmd/clocks.c runs
 *    both in a short-lived child of the supervisor (which never loads NVML or CUDA
 *    itself).
 *
 * Clocks are put back with nvmlDeviceResetGpuLockedClocks (nvidia-smi -rgc), which
 * unlocks them: NVML cannot read a lock someone set before the run, so mmbench does
 * not know it to restore it (docs/energy.md). Locking clocks needs root. */
#ifndef MMB_CLOCK_CONTROL_H
#define MMB_CLOCK_CONTROL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "cuda/nvml.h"
#include "model/profile_energy.h"

/* The outcome of a change, beyond NVML's code. */
enum mmb_clock_outcome {
    MMB_CLOCK_OK,
    MMB_CLOCK_INVALID,  /* the GPU cannot take the value (out of its range) */
    MMB_CLOCK_DENIED,   /* no permission: the run stops, nothing was changed */
    MMB_CLOCK_FAILED,   /* NVML missing or failing otherwise */
};

/* The lock a run holds. */
struct mmb_clock_baseline {
    char uuid[48];
    struct mmb_clock_lock lock;     /* the run's lock (--lock-clocks) */
};

/* The folder of restore records: $MMB_STATE_DIR, else $XDG_STATE_HOME/mmbench, else
 * ~/.local/state/mmbench. */
void mmb_clock_control_state_dir(char *out, size_t len);

/* Resolves the lock on dev: base is NVML's TDP clock, max the highest SM clock, MHz
 * checked against the SM clocks the GPU supports. */
enum mmb_clock_outcome mmb_clock_lock_resolve(const struct mmb_nvml_device *dev, const struct mmb_clock_lock *lock,
                                              unsigned *min_mhz, unsigned *max_mhz, char *why, size_t whylen);

/* Begins a run's control of the GPU uuid, owned by pid owner: restores what a dead
 * owner left, refuses when a live one holds the GPU, writes the restore record and
 * applies the lock. On failure nothing stays changed and no record stays. */
enum mmb_clock_outcome mmb_clock_control_begin(const char *state_dir, const char *uuid,
                                               const struct mmb_clock_lock *lock, pid_t owner,
                                               struct mmb_clock_baseline *base, char *why, size_t whylen);
/* Ends it: clocks unlocked where a record is, the record removed. 0, or -1 with why
 * (the record then stays, for the next run). */
int mmb_clock_control_end(const char *state_dir, const char *uuid, char *why, size_t whylen);
/* Restores every GPU whose record's owner is dead; what it did, one line per GPU, in
 * report (""); -1 with why when a record cannot be read or a GPU not restored. */
int mmb_clock_control_recover(const char *state_dir, char *report, size_t len, char *why, size_t whylen);

#endif
