/* supervise.h - `run` and `tune` do their GPU work in worker processes that this
 * supervisor starts, one per GPU, and watches. Before each configuration a worker
 * announces the row to record should it never finish and its time limit; a worker
 * over the limit is killed, that row (status timeout) is appended for it, and a fresh
 * worker resumes after the rows already written. A worker that dies of a signal in a
 * configuration gets that row as launch_error; one that reports a sticky GPU error is
 * restarted. The supervisor itself never touches CUDA, so that its children can. */
#ifndef MMB_CMD_SUPERVISE_H
#define MMB_CMD_SUPERVISE_H

#include <stdbool.h>
#include <stddef.h>

#include "results/row.h"

struct mmb_worker {
    char name[32];                 /* "GPU 0", for messages */
    int (*work)(void *ctx);        /* runs in the child; returns its exit code */
    void *ctx;
    /* filled by mmb_supervise */
    int exit_code;                 /* the last run's; MMB_EXIT_INTERRUPTED when stopped */
    int restarts, timeouts, crashes;
    size_t done, total;            /* the worker's last progress report */
};

/* Runs every worker at once, each in its own process, restarting as described above
 * (at most 32 restarts after sticky errors or crashes per worker). Ctrl-C is passed
 * to the workers, which stop after their current row; a second one kills them.
 * Returns the exit code to give the user: the first non-zero one among the workers,
 * MMB_EXIT_INTERRUPTED after Ctrl-C, or 0. */
int mmb_supervise(const char *command, struct mmb_worker *workers, int nworkers);

/* Runs fn(ctx) once in a child process and returns its exit code: for a short CUDA
 * task (counting GPUs) that must not initialise CUDA in the supervisor. The child
 * may send up to len bytes of text back through mmb_probe_reply. */
int mmb_probe(int (*fn)(void *ctx), void *ctx, char *reply, size_t len);
void mmb_probe_reply(const char *text);

/* In a worker: the configuration about to run, the row to record for it if it does
 * not finish within seconds, and the CSV that row belongs to. No-ops outside a
 * supervised worker (the tests call the sweep directly). */
void mmb_watch_begin(const struct mmb_row *timeout_row, const char *csv_path, double seconds);
/* The configuration is done and its row written; done/total is the worker's progress. */
void mmb_watch_end(size_t done, size_t total);
/* Whether Ctrl-C asked this worker to stop after its current row. */
bool mmb_watch_interrupted(void);
/* Installs the worker's Ctrl-C handler (a flag; the row in progress finishes). */
void mmb_watch_catch_interrupt(void);

#endif
