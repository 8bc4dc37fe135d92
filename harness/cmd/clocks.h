/* clocks.h - --lock-clocks for run and tune: the supervisor locks the SM clocks of
 * the GPUs its workers use before they start and restores them once they have all
 * stopped, whatever stopped them (the end, Ctrl-C or SIGTERM, a worker's crash and
 * restart; cuda/clock_control.h keeps a restore record for the supervisor's own
 * death). Each NVML step runs in a short-lived child (mmb_probe), so the supervisor
 * itself never loads NVML or CUDA. */
#ifndef MMB_CMD_CLOCKS_H
#define MMB_CMD_CLOCKS_H

#include "model/profile_energy.h"

/* The GPUs a run locked, to restore. */
struct mmb_cmd_clocks {
    int n;
    char uuid[64][48];
};

/* Locks the clocks of each of the n CUDA devices as lock asks (nothing for "as
 * found"). Returns 0, or an exit code after a message naming the GPU and the reason
 * on stderr, with every GPU it had locked restored: MMB_EXIT_BAD_INPUT when NVML
 * refuses for want of permission or the GPU cannot take the clock (the option cannot
 * be honoured here), MMB_EXIT_FAILED when NVML is missing or fails otherwise. */
int mmb_cmd_clocks_lock(const char *command, const struct mmb_clock_lock *lock, const int *devices, int n,
                        struct mmb_cmd_clocks *held);
/* Restores what mmb_cmd_clocks_lock locked: 0, or MMB_EXIT_FAILED after saying which
 * GPU stays locked and how to unlock it by hand. */
int mmb_cmd_clocks_restore(const char *command, struct mmb_cmd_clocks *held);

#endif
