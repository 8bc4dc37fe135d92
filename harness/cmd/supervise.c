/* supervise.c - worker processes for `run` and `tune`, watched by a supervisor that
 * enforces the per-configuration time limit, records what a dead worker left
 * unfinished, restarts workers, carries Ctrl-C to them, prints the rows they write as
 * JSON lines, counts the rows --fail-on asks about, and prints progress. */
#include "cmd/supervise.h"

#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd/common.h"
#include "core/clock.h"
#include "core/error.h"
#include "core/hash.h"
#include "core/imap.h"
#include "results/columns_json.h"
#include "results/csv.h"
#include "results/resume.h"

#define MAX_RESTARTS 32
/* A worker asked to stop by Ctrl-C gets this long to finish its row. */
#define INTERRUPT_GRACE_S 30.0
/* Without a terminal, the workers' progress is a line this often. */
#define PROGRESS_LINE_S 30.0

enum msg_kind { MSG_BEGIN = 1, MSG_END, MSG_REPLY, MSG_ROW, MSG_RESUMED };

/* A resumed row, as --fail-on counts it: its key's hash and its statuses. */
struct resumed_row {
    uint64_t key;
    uint32_t status, counter_status;
};

#define RESUMED_PER_MSG ((MMB_PATH_MAX + sizeof(struct mmb_row)) / sizeof(struct resumed_row))

struct watch_msg {
    uint32_t kind;
    uint32_t count;          /* MSG_RESUMED: rows in resumed */
    double seconds;
    uint64_t done, total;
    union {
        struct {
            char csv_path[MMB_PATH_MAX]; /* MSG_BEGIN; MSG_REPLY: the text */
            struct mmb_row row;          /* MSG_BEGIN: the row if it never ends; MSG_ROW: the row written */
        };
        struct resumed_row resumed[RESUMED_PER_MSG];
    };
};

/* The hash by which the supervisor counts a row once: of its key with its GPU. */
static uint64_t row_key_hash(const struct mmb_row *row)
{
    char key[MMB_ROW_KEY_LEN];
    mmb_row_key(row, true, key, sizeof key);
    return mmb_hash_bytes(MMB_FNV_SEED, key, strlen(key));
}

/* ---- the worker's side ---- */

static int watch_fd = -1;
static volatile sig_atomic_t worker_interrupted;
static struct watch_msg resumed_batch; /* MSG_RESUMED rows not sent yet */
static char worker_prefix[48] = "mmbench"; /* "mmbench run", in the worker's messages */

static void send_msg(const struct watch_msg *m)
{
    if (watch_fd < 0)
        return;
    const char *p = (const char *)m;
    size_t left = sizeof *m;
    while (left) {
        ssize_t w = write(watch_fd, p, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            watch_fd = -1; /* the supervisor is gone: go on unwatched */
            return;
        }
        p += w;
        left -= (size_t)w;
    }
}

static void resumed_flush(void)
{
    if (resumed_batch.count && watch_fd >= 0) {
        resumed_batch.kind = MSG_RESUMED;
        send_msg(&resumed_batch);
    }
    resumed_batch.count = 0;
}

void mmb_watch_resumed(const struct mmb_row *row)
{
    if (watch_fd < 0)
        return;
    if (resumed_batch.count == RESUMED_PER_MSG)
        resumed_flush();
    resumed_batch.resumed[resumed_batch.count++] =
        (struct resumed_row){row_key_hash(row), (uint32_t)row->status, (uint32_t)row->counter_status};
}

void mmb_watch_row(const char *command, const struct mmb_row *row, bool verbose, bool clear_progress)
{
    if (verbose || !mmb_status_info(row->status)->quiet)
        mmb_cmd_print_row(command, row, clear_progress);
    if (watch_fd < 0)
        return;
    resumed_flush();
    static struct watch_msg m;
    memset(&m, 0, sizeof m);
    m.kind = MSG_ROW;
    m.row = *row;
    send_msg(&m);
}

void mmb_watch_begin(const struct mmb_row *timeout_row, const char *csv_path, double seconds)
{
    if (watch_fd < 0)
        return;
    resumed_flush();
    static struct watch_msg m;
    memset(&m, 0, sizeof m);
    m.kind = MSG_BEGIN;
    m.seconds = seconds;
    snprintf(m.csv_path, sizeof m.csv_path, "%s", csv_path);
    m.row = *timeout_row;
    send_msg(&m);
}

void mmb_watch_end(size_t done, size_t total)
{
    if (watch_fd < 0)
        return;
    static struct watch_msg m;
    m.kind = MSG_END;
    m.done = done;
    m.total = total;
    send_msg(&m);
}

static void on_worker_interrupt(int sig)
{
    worker_interrupted = 1;
}

void mmb_watch_catch_interrupt(void)
{
    struct sigaction sa = {.sa_handler = on_worker_interrupt};
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGINT, &sa, NULL) != 0 || sigaction(SIGTERM, &sa, NULL) != 0) {
        char what[96];
        snprintf(what, sizeof what, "%s: sigaction", worker_prefix);
        perror(what);
    }
}

bool mmb_watch_interrupted(void)
{
    return worker_interrupted != 0;
}

void mmb_probe_reply(const char *text)
{
    static struct watch_msg m;
    memset(&m, 0, sizeof m);
    m.kind = MSG_REPLY;
    snprintf(m.csv_path, sizeof m.csv_path, "%s", text);
    send_msg(&m);
}

/* ---- the supervisor's side ---- */

struct child {
    pid_t pid;
    int fd;                 /* read end; -1 when closed */
    struct watch_msg msg;   /* being read */
    size_t have;
    bool pending;           /* a configuration began and has not ended */
    double deadline;        /* of the pending configuration; 0: none */
    struct watch_msg begun; /* its BEGIN */
};

/* One supervision: its workers and children, and what it does with their rows. */
struct watch {
    const char *command;
    struct mmb_worker *w;
    struct child *c;
    int n;
    bool tty;                    /* stderr is a terminal: progress redrawn in place, of several workers */
    double t0, progress_at, progress_s;
    double interrupted_at;
    struct mmb_supervise_rows *rows;
    struct mmb_imap seen;        /* --fail-on: key hash -> the row's statuses (packed_statuses) */
    bool seen_full;              /* out of memory counting: counted as far as it went */
};

static volatile sig_atomic_t interrupts;

static void on_interrupt(int sig)
{
    interrupts++;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A worker that crashes prints where, before it dies of the signal as before: the
 * supervisor records the row either way, and the stack is what a bug report needs
 * (addresses are offsets in the binary: `addr2line -fe mmbench 0x...`). */
static void on_crash(int sig)
{
    static const char head[] = ": worker crashed; stack of the faulting thread:\n";
    void *frames[48];
    ssize_t ignored = write(STDERR_FILENO, worker_prefix, strlen(worker_prefix));
    ignored = write(STDERR_FILENO, head, sizeof head - 1);
    (void)ignored;
    backtrace_symbols_fd(frames, backtrace(frames, 48), STDERR_FILENO);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void catch_crashes(void)
{
    void *prime[1];
    (void)backtrace(prime, 1); /* loads what backtrace needs now, not inside the handler */
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        signal(sigs[i], on_crash);
}

static void say_errno(const char *command, const char *what)
{
    fprintf(stderr, "mmbench %s: %s: %s\n", command, what, strerror(errno));
}

/* Forks fn(ctx) with the write end of a pipe as its watch channel. */
static int start(const char *command, struct child *c, int (*fn)(void *), void *ctx)
{
    int fds[2];
    if (pipe(fds) != 0) {
        say_errno(command, "pipe");
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        say_errno(command, "fork");
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        signal(SIGPIPE, SIG_IGN);
        watch_fd = fds[1];
        snprintf(worker_prefix, sizeof worker_prefix, "mmbench %s", command);
        mmb_watch_catch_interrupt();
        catch_crashes();
        int rc = fn(ctx);
        resumed_flush();
        fflush(NULL);
        exit(rc);
    }
    close(fds[1]);
    memset(c, 0, sizeof *c);
    c->pid = pid;
    c->fd = fds[0];
    /* Read what is there and go back to poll: never wait inside read. */
    int flags = fcntl(c->fd, F_GETFL);
    if (flags < 0 || fcntl(c->fd, F_SETFL, flags | O_NONBLOCK) != 0)
        say_errno(command, "fcntl O_NONBLOCK");
    return 0;
}

/* Reads what is there; returns 1 when a whole message is in c->msg, 0 when more is
 * to come, -1 at the end of the stream. */
static int read_msg(struct child *c)
{
    ssize_t r = read(c->fd, (char *)&c->msg + c->have, sizeof c->msg - c->have);
    if (r < 0 && (errno == EINTR || errno == EAGAIN))
        return 0;
    if (r <= 0)
        return -1;
    c->have += (size_t)r;
    if (c->have < sizeof c->msg)
        return 0;
    c->have = 0;
    return 1;
}

/* ---- the rows: JSON lines, --fail-on ---- */

/* A row's statuses as the count keeps them: status + 1, counter_status + 1 << 8,
 * and 1 << 16 when it was resumed. */
static uintptr_t packed_statuses(unsigned status, unsigned counter_status, bool resumed)
{
    return (uintptr_t)(status + 1) | (uintptr_t)(counter_status + 1) << 8 | (uintptr_t)resumed << 16;
}

static void count_row(struct watch *ws, uint64_t key, unsigned status, unsigned counter_status, bool resumed)
{
    if (!ws->rows || !ws->rows->fail_on)
        return;
    /* a row written now replaces what a resumed one of its key said */
    uintptr_t before;
    if (resumed && mmb_imap_get(&ws->seen, (size_t)key, &before))
        return;
    if (mmb_imap_put(&ws->seen, (size_t)key, packed_statuses(status, counter_status, resumed)) != 0 && !ws->seen_full) {
        ws->seen_full = true;
        fprintf(stderr, "mmbench %s: out of memory counting the rows for --fail-on; rows of this run are no "
                "longer counted\n", ws->command);
    }
}

/* A row written now: counted, and printed as a JSON line with --format jsonl. */
static void row_written(struct watch *ws, const struct mmb_row *row)
{
    if (!ws->rows)
        return;
    count_row(ws, row_key_hash(row), (unsigned)row->status, (unsigned)row->counter_status, false);
    if (!ws->rows->jsonl)
        return;
    char *line = mmb_columns_json_line(row);
    if (!line) {
        fprintf(stderr, "mmbench %s: out of memory writing a row as JSON; it is in the CSV\n", ws->command);
        return;
    }
    if (fputs(line, stdout) == EOF || fflush(stdout) != 0)
        say_errno(ws->command, "stdout");
    free(line);
}

/* Whether a row's statuses are among fail_on: its status, or the counters' status
 * where counters were asked and not read (not ok, not skipped). */
static unsigned failed_bits(uintptr_t packed, unsigned fail_on)
{
    unsigned status = (unsigned)(packed & 0xff) - 1, counters = (unsigned)((packed >> 8) & 0xff) - 1, bits = 0;
    if (status < 32 && (fail_on & (1u << status)))
        bits |= 1u << status;
    if (counters < 32 && counters != MMB_STATUS_OK && counters != MMB_STATUS_SKIPPED && (fail_on & (1u << counters)))
        bits |= 1u << counters;
    return bits;
}

static void tally(void *ctx, size_t key, uintptr_t packed)
{
    struct watch *ws = ctx;
    unsigned bits = failed_bits(packed, ws->rows->fail_on);
    if (!bits)
        return;
    ws->rows->failed++;
    ws->rows->failed_resumed += (packed >> 16) & 1;
    for (int s = 0; s < MMB_STATUS_COUNT; s++)
        ws->rows->failed_by_status[s] += (bits >> s) & 1;
}

/* Appends the row a worker left unfinished, with the given status and reason. */
static void record_unfinished(struct watch *ws, struct child *c, enum mmb_status st, const char *reason)
{
    struct mmb_row row = c->begun.row;
    char err[1024];
    row.status = st;
    snprintf(row.reason, sizeof row.reason, "%s", reason);
    mmb_timestamp_utc(row.timestamp, sizeof row.timestamp);
    struct mmb_csv_writer *w = mmb_csv_writer_open(c->begun.csv_path, err, sizeof err);
    /* a row measured as this one would be is there already (another worker's): none more; a
     * stale one is superseded by this one */
    bool done = w && mmb_resume_decide(mmb_csv_writer_find(w, &row, false), &row) == MMB_RESUME_DONE;
    if (!w || (!done && mmb_csv_append_row(w, &row, err, sizeof err) != 0)) {
        fprintf(stderr, "mmbench %s: could not record the %s row of %s %s: %s\n", ws->command, mmb_status_text(st),
                row.kernel, row.params, err);
    } else if (!done) {
        mmb_cmd_print_row(ws->command, &row, false);
        row_written(ws, &row);
    }
    if (w)
        mmb_csv_writer_close(w);
    c->pending = false;
}

/* ---- the workers ---- */

/* The child's process has ended (or was killed): account for it. Returns true when
 * the worker should start again. */
static bool reap(struct watch *ws, int i, bool killed_for_time)
{
    struct mmb_worker *wk = &ws->w[i];
    struct child *c = &ws->c[i];
    const char *command = ws->command;
    int status = 0;
    while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
    c->pid = 0;
    char why[320];
    if (killed_for_time) {
        snprintf(why, sizeof why, "ran over the %.0f s limit for one configuration (profile timeout, --timeout); "
                 "its worker process was stopped", c->begun.seconds);
        record_unfinished(ws, c, MMB_STATUS_TIMEOUT, why);
        wk->timeouts++;
        return !interrupts;
    }
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        if (interrupts) {
            wk->exit_code = MMB_EXIT_INTERRUPTED;
            return false;
        }
        if (c->pending) {
            snprintf(why, sizeof why, "the worker process died of signal %d (%s) during this configuration", sig,
                     strsignal(sig));
            record_unfinished(ws, c, MMB_STATUS_LAUNCH_ERROR, why);
        }
        fprintf(stderr, "mmbench %s: %s: the worker died of signal %d (%s)\n", command, wk->name, sig,
                strsignal(sig));
        wk->exit_code = MMB_EXIT_FAILED;
        return ++wk->crashes <= MAX_RESTARTS;
    }
    wk->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : MMB_EXIT_FAILED;
    if (wk->exit_code == MMB_EXIT_DEVICE_LOST && !interrupts) {
        if (++wk->restarts > MAX_RESTARTS) {
            fprintf(stderr, "mmbench %s: %s: %d restarts after sticky GPU errors; giving up\n", command, wk->name,
                    MAX_RESTARTS);
            return false;
        }
        fprintf(stderr, "mmbench %s: %s: restarting in a fresh process to go on (restart %d)\n", command, wk->name,
                wk->restarts);
        return true;
    }
    return false;
}

/* Every worker's done/total (a tune has no total: its count alone), on one line:
 * redrawn in place on a terminal (several workers; one draws its own), else a new line
 * every progress_s, for a batch log, with the time since the start. */
static void show_progress(struct watch *ws)
{
    if (ws->tty ? ws->n < 2 : now_s() - ws->progress_at < ws->progress_s)
        return;
    ws->progress_at = now_s();
    fputs(ws->tty ? "\r\033[K" : "", stderr);
    fprintf(stderr, "mmbench %s: progress ", ws->command);
    for (int i = 0; i < ws->n; i++)
        if (ws->w[i].total)
            fprintf(stderr, "%s[%s %zu/%zu]", i ? " " : "", ws->w[i].name, ws->w[i].done, ws->w[i].total);
        else
            fprintf(stderr, "%s[%s %zu done]", i ? " " : "", ws->w[i].name, ws->w[i].done);
    if (!ws->tty)
        fprintf(stderr, " after %.0f s\n", ws->progress_at - ws->t0);
    fflush(stderr);
}

static void handle_msg(struct watch *ws, int i)
{
    struct child *c = &ws->c[i];
    switch (c->msg.kind) {
    case MSG_BEGIN:
        c->begun = c->msg;
        c->pending = true;
        c->deadline = now_s() + c->msg.seconds;
        break;
    case MSG_END:
        c->pending = false;
        ws->w[i].done = (size_t)c->msg.done;
        ws->w[i].total = (size_t)c->msg.total;
        if (ws->tty)
            show_progress(ws);
        break;
    case MSG_ROW:
        row_written(ws, &c->msg.row);
        break;
    case MSG_RESUMED:
        for (uint32_t r = 0; r < c->msg.count && r < RESUMED_PER_MSG; r++)
            count_row(ws, c->msg.resumed[r].key, c->msg.resumed[r].status, c->msg.resumed[r].counter_status, true);
        break;
    default:
        break;
    }
}

/* The worker ended: accounted for, and started again when it should go on. */
static void restart_or_end(struct watch *ws, int i, bool killed_for_time)
{
    if (reap(ws, i, killed_for_time) && start(ws->command, &ws->c[i], ws->w[i].work, ws->w[i].ctx) != 0)
        ws->w[i].exit_code = MMB_EXIT_FAILED;
}

/* One round: wait for messages, the nearest deadline or the next progress line (a
 * second at most), then act on them. */
static void watch_round(struct watch *ws)
{
    struct pollfd pfd[64];
    struct child *c = ws->c;
    double now = now_s(), wait = 1.0;
    if (!ws->tty && ws->progress_at + ws->progress_s - now < wait)
        wait = ws->progress_at + ws->progress_s - now;
    for (int i = 0; i < ws->n; i++) {
        pfd[i] = (struct pollfd){.fd = c[i].fd, .events = POLLIN};
        if (c[i].fd >= 0 && c[i].pending && c[i].deadline - now < wait)
            wait = c[i].deadline - now;
    }
    if (poll(pfd, (nfds_t)ws->n, wait > 0 ? (int)(wait * 1000) + 1 : 0) < 0 && errno != EINTR)
        say_errno(ws->command, "poll");
    if (interrupts && ws->interrupted_at == 0) {
        ws->interrupted_at = now_s();
        for (int i = 0; i < ws->n; i++)
            if (c[i].pid > 0)
                kill(c[i].pid, SIGINT);
    }
    for (int i = 0; i < ws->n; i++) {
        if (c[i].fd < 0)
            continue;
        if (pfd[i].revents) {
            int r = 0;
            while (c[i].fd >= 0 && (r = read_msg(&c[i])) == 1)
                handle_msg(ws, i);
            if (r < 0 || (pfd[i].revents & (POLLHUP | POLLERR) && !(pfd[i].revents & POLLIN))) {
                restart_or_end(ws, i, false);
                continue;
            }
        }
        bool over = c[i].pending && now_s() >= c[i].deadline && !interrupts;
        bool stuck = interrupts && (interrupts > 1 || now_s() - ws->interrupted_at > INTERRUPT_GRACE_S);
        if (over || stuck) {
            kill(c[i].pid, SIGKILL);
            restart_or_end(ws, i, over);
        }
    }
    if (!ws->tty)
        show_progress(ws);
}

int mmb_supervise(const char *command, struct mmb_worker *workers, int nworkers, struct mmb_supervise_rows *rows)
{
    struct child c[64];
    if (nworkers < 1 || nworkers > 64) {
        fprintf(stderr, "mmbench %s: %d workers; expected 1 to 64\n", command, nworkers);
        return MMB_EXIT_FAILED;
    }
    struct watch ws = {.command = command, .w = workers, .c = c, .n = nworkers, .tty = isatty(STDERR_FILENO),
                       .t0 = now_s(), .rows = rows,
                       .progress_s = rows && rows->progress_s > 0 ? rows->progress_s : PROGRESS_LINE_S};
    ws.progress_at = ws.t0;
    if (rows) {
        rows->failed = rows->failed_resumed = 0;
        memset(rows->failed_by_status, 0, sizeof rows->failed_by_status);
    }
    interrupts = 0;
    struct sigaction sa = {.sa_handler = on_interrupt}, old_int, old_term;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    for (int i = 0; i < nworkers; i++) {
        workers[i].exit_code = 0;
        if (start(command, &c[i], workers[i].work, workers[i].ctx) != 0) {
            c[i].fd = -1;
            c[i].pid = 0;
            workers[i].exit_code = MMB_EXIT_FAILED;
        }
    }
    for (;;) {
        bool alive = false;
        for (int i = 0; i < nworkers; i++)
            alive |= c[i].fd >= 0;
        if (!alive)
            break;
        watch_round(&ws);
    }
    if (ws.tty && nworkers > 1)
        fputs("\r\033[K", stderr);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    if (rows && rows->fail_on)
        mmb_imap_each(&ws.seen, tally, &ws);
    mmb_imap_free(&ws.seen);
    if (interrupts)
        return MMB_EXIT_INTERRUPTED;
    for (int i = 0; i < nworkers; i++)
        if (workers[i].exit_code)
            return workers[i].exit_code;
    return 0;
}

int mmb_supervise_verdict(const char *command, const struct mmb_supervise_rows *rows, int rc)
{
    if (!rows || !rows->fail_on || !rows->failed)
        return rc;
    char by[512] = "";
    for (int s = 0; s < MMB_STATUS_COUNT; s++)
        if (rows->failed_by_status[s]) {
            char one[64];
            snprintf(one, sizeof one, "%zu %s", rows->failed_by_status[s], mmb_status_text((enum mmb_status)s));
            mmb_join_append(by, sizeof by, ", ", one);
        }
    fprintf(stderr, "mmbench %s: --fail-on: %zu row%s ended so (%s)", command, rows->failed,
            rows->failed == 1 ? "" : "s", by);
    if (rows->failed_resumed)
        fprintf(stderr, ", %zu of them written before this run and resumed", rows->failed_resumed);
    fprintf(stderr, "%s\n", rc == 0 ? "; exit 1" : "");
    return rc == 0 ? MMB_EXIT_FAILED : rc;
}

int mmb_probe(const char *command, int (*fn)(void *ctx), void *ctx, char *reply, size_t len)
{
    struct child c;
    if (start(command, &c, fn, ctx) != 0)
        return MMB_EXIT_FAILED;
    if (len)
        reply[0] = '\0';
    int r;
    struct pollfd pfd = {.fd = c.fd, .events = POLLIN};
    while (poll(&pfd, 1, -1) >= 0 || errno == EINTR)
        if ((r = read_msg(&c)) < 0)
            break;
        else if (r == 1 && c.msg.kind == MSG_REPLY && len)
            snprintf(reply, len, "%s", c.msg.csv_path);
    close(c.fd);
    int status = 0;
    while (waitpid(c.pid, &status, 0) < 0 && errno == EINTR)
        ;
    return WIFEXITED(status) ? WEXITSTATUS(status) : MMB_EXIT_FAILED;
}
