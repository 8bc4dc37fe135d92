/* supervise.h - `run` and `tune` do their GPU work in worker processes that this
 * supervisor starts, one per GPU, and watches. Before each configuration a worker
 * announces the row to record should it never finish and its time limit; a worker
 * over the limit is killed, that row (status timeout) is appended for it, and a fresh
 * worker resumes after the rows already written. A worker that dies of a signal in a
 * configuration gets that row as launch_error; one that reports a sticky GPU error is
 * restarted. The supervisor itself never touches CUDA, so that its children can.
 * Workers also report every row they write and the statuses of the rows they resume:
 * the supervisor alone prints rows on stdout (--format jsonl), counts the rows that
 * --fail-on asks about, once each, and prints progress without a terminal. */
#ifndef MMB_CMD_SUPERVISE_H
#define MMB_CMD_SUPERVISE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/status.h"
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

/* What the supervisor does with the workers' rows (NULL: only progress, every 30 s). */
struct mmb_supervise_rows {
    bool jsonl;          /* each row written (by a worker or the supervisor) as a JSON line on stdout */
    unsigned fail_on;    /* the statuses (bits 1u << status) to count: a row's status, or its counter_status
                          * where counters were asked and not read */
    double progress_s;   /* without a terminal, a progress line this often; 0: every 30 s */
    /* filled: the rows with a fail_on status, each key once (a row resumed by a restarted
     * worker is the row written before), of them resumed from the CSV, and per status */
    size_t failed, failed_resumed;
    size_t failed_by_status[MMB_STATUS_COUNT];
};

/* Runs every worker at once, each in its own process, restarting as described above
 * (at most 32 restarts after sticky errors or crashes per worker). Ctrl-C is passed
 * to the workers, which stop after their current row; a second one kills them.
 * Returns the exit code to give the user: the first non-zero one among the workers,
 * MMB_EXIT_INTERRUPTED after Ctrl-C, or 0. */
int mmb_supervise(const char *command, struct mmb_worker *workers, int nworkers, struct mmb_supervise_rows *rows);

/* --fail-on's verdict on a supervision that returned rc: with rows found, a line
 * naming them and MMB_EXIT_FAILED when rc is 0; else rc. */
int mmb_supervise_verdict(const char *command, const struct mmb_supervise_rows *rows, int rc);

/* Runs fn(ctx) once in a child process and returns its exit code: for a short CUDA
 * task (counting GPUs) that must not initialise CUDA in the supervisor. The child
 * may send up to len bytes of text back through mmb_probe_reply. */
int mmb_probe(const char *command, int (*fn)(void *ctx), void *ctx, char *reply, size_t len);
void mmb_probe_reply(const char *text);

/* In a worker: the configuration about to run, the row to record for it if it does
 * not finish within seconds, and the CSV that row belongs to. No-ops outside a
 * supervised worker (the tests call the sweep directly). */
void mmb_watch_begin(const struct mmb_row *timeout_row, const char *csv_path, double seconds);
/* The configuration is done and its row written; done/total is the worker's progress. */
void mmb_watch_end(size_t done, size_t total);
/* A row the worker wrote to its CSV: sent to the supervisor (--format jsonl, --fail-on),
 * and its line printed (mmb_cmd_print_row) when verbose or its status is not quiet. */
void mmb_watch_row(const char *command, const struct mmb_row *row, bool verbose, bool clear_progress);
/* A row of the sweep found in the CSV and not run again: its key, status and
 * counter_status, for --fail-on (sent in batches). */
void mmb_watch_resumed(const struct mmb_row *row);
/* Whether Ctrl-C asked this worker to stop after its current row. */
bool mmb_watch_interrupted(void);
/* Installs the worker's Ctrl-C handler (a flag; the row in progress finishes). */
void mmb_watch_catch_interrupt(void);

#endif
