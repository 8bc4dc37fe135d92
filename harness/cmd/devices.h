/* devices.h - `mmbench devices`, and the GPU count the other commands start from. */
#ifndef MMB_CMD_DEVICES_H
#define MMB_CMD_DEVICES_H

#include <stddef.h>

/* Lists the GPUs with their peaks and data folders: 0, or 69 with one plain line
 * when there is no GPU or driver. */
int mmb_cmd_devices(int argc, char **argv);

/* The number of GPUs, counted in a child process so that the caller, which forks
 * the workers, never initialises CUDA itself; -1 after a message naming the command
 * when there is none. */
int mmb_cmd_gpu_count(const char *command);
/* The same in this process, for a worker that uses CUDA anyway (one GPU: no child
 * process, no second CUDA initialisation): the count, -1 after the same message when
 * there is none, -2 after a message when there is no GPU `device`. */
int mmb_cmd_gpu_count_here(const char *command, int device);

/* In a worker, which may use CUDA: the part of its model's work that GPU `device` of
 * the GPUs 0..ndev-1 working at once takes (mmb_shard_device_part over their data
 * folders). Returns 0, or -1 with err. */
int mmb_cmd_device_part(int device, int ndev, unsigned *part, unsigned *parts, char *err, size_t errlen);

#endif
