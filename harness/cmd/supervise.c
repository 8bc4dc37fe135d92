/* supervise.c - worker processes for `run` and `tune`, watched by a supervisor that
 * enforces the per-configuration time limit, records what a dead worker left
 * unfinished, restarts workers, and carries Ctrl-C to them. */
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
#include "results/csv.h"
#include "results/resume.h"

#define MAX_RESTARTS 32
/* A worker asked to stop by Ctrl-C gets this long to finish its row. */
#define INTERRUPT_GRACE_S 30.0
/* Without a terminal, several workers' progress is a line this often at most. */
#define PROGRESS_LINE_S 30.0

enum msg_kind { MSG_BEGIN = 1, MSG_END, MSG_REPLY };

struct watch_msg {
    uint32_t kind;
    double seconds;
    uint64_t done, total;
    char csv_path[MMB_PATH_MAX];
    struct mmb_row row;
};

/* ---- the worker's side ---- */

static int watch_fd = -1;
static volatile sig_atomic_t worker_interrupted;

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

void mmb_watch_begin(const struct mmb_row *timeout_row, const char *csv_path, double seconds)
{
    if (watch_fd < 0)
        return;
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
    if (sigaction(SIGINT, &sa, NULL) != 0 || sigaction(SIGTERM, &sa, NULL) != 0)
        perror("mmbench: sigaction");
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
    static const char head[] = "mmbench: worker crashed; stack of the faulting thread:\n";
    void *frames[48];
    ssize_t ignored = write(STDERR_FILENO, head, sizeof head - 1);
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

/* Forks fn(ctx) with the write end of a pipe as its watch channel. */
static int start(struct child *c, int (*fn)(void *), void *ctx)
{
    int fds[2];
    if (pipe(fds) != 0) {
        perror("mmbench: pipe");
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("mmbench: fork");
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        signal(SIGPIPE, SIG_IGN);
        watch_fd = fds[1];
        mmb_watch_catch_interrupt();
        catch_crashes();
        int rc = fn(ctx);
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
        perror("mmbench: fcntl O_NONBLOCK");
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

/* Appends the row a worker left unfinished, with the given status and reason. */
static void record_unfinished(const char *command, struct child *c, enum mmb_status st, const char *reason)
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
    if (!w || (!done && mmb_csv_append_row(w, &row, err, sizeof err) != 0))
        fprintf(stderr, "mmbench %s: could not record the %s row of %s %s: %s\n", command, mmb_status_text(st),
                row.kernel, row.params, err);
    else
        mmb_cmd_print_row(&row, false);
    if (w)
        mmb_csv_writer_close(w);
    c->pending = false;
}

/* The child's process has ended (or was killed): account for it. Returns true when
 * the worker should start again. */
static bool reap(const char *command, struct mmb_worker *wk, struct child *c, bool killed_for_time)
{
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
        record_unfinished(command, c, MMB_STATUS_TIMEOUT, why);
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
            record_unfinished(command, c, MMB_STATUS_LAUNCH_ERROR, why);
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

/* Every worker's done/total (a tune has no total: its count alone), on one line: redrawn
 * in place on a terminal, else a new line at most every PROGRESS_LINE_S (a batch log). */
static void show_progress(const char *command, const struct mmb_worker *w, int n, bool tty)
{
    static double last;
    if (!tty && now_s() - last < PROGRESS_LINE_S)
        return;
    last = now_s();
    fputs(tty ? "\r\033[K" : "", stderr);
    if (!tty)
        fprintf(stderr, "mmbench %s: progress ", command);
    for (int i = 0; i < n; i++)
        if (w[i].total)
            fprintf(stderr, "%s[%s %zu/%zu]", i ? " " : "", w[i].name, w[i].done, w[i].total);
        else
            fprintf(stderr, "%s[%s %zu done]", i ? " " : "", w[i].name, w[i].done);
    fputs(tty ? "" : "\n", stderr);
    fflush(stderr);
}

static void handle_msg(const char *command, struct mmb_worker *wk, struct child *c, bool progress,
                       struct mmb_worker *all, int n)
{
    if (c->msg.kind == MSG_BEGIN) {
        c->begun = c->msg;
        c->pending = true;
        c->deadline = now_s() + c->msg.seconds;
    } else if (c->msg.kind == MSG_END) {
        c->pending = false;
        wk->done = (size_t)c->msg.done;
        wk->total = (size_t)c->msg.total;
        if (n > 1)
            show_progress(command, all, n, progress);
    }
}

/* One round: wait for messages or the nearest deadline, then act on them. */
static void watch_round(const char *command, struct mmb_worker *w, struct child *c, int n, bool progress,
                        double *interrupted_at)
{
    struct pollfd pfd[64];
    double now = now_s(), wait = 1.0;
    for (int i = 0; i < n; i++) {
        pfd[i] = (struct pollfd){.fd = c[i].fd, .events = POLLIN};
        if (c[i].fd >= 0 && c[i].pending && c[i].deadline - now < wait)
            wait = c[i].deadline - now;
    }
    if (poll(pfd, (nfds_t)n, wait > 0 ? (int)(wait * 1000) + 1 : 0) < 0 && errno != EINTR)
        perror("mmbench: poll");
    if (interrupts && *interrupted_at == 0) {
        *interrupted_at = now_s();
        for (int i = 0; i < n; i++)
            if (c[i].pid > 0)
                kill(c[i].pid, SIGINT);
    }
    for (int i = 0; i < n; i++) {
        if (c[i].fd < 0)
            continue;
        bool killed = false;
        if (pfd[i].revents) {
            int r;
            while (c[i].fd >= 0 && (r = read_msg(&c[i])) == 1)
                handle_msg(command, &w[i], &c[i], progress, w, n);
            if (r < 0 || (pfd[i].revents & (POLLHUP | POLLERR) && !(pfd[i].revents & POLLIN))) {
                if (reap(command, &w[i], &c[i], false) && start(&c[i], w[i].work, w[i].ctx) != 0)
                    w[i].exit_code = MMB_EXIT_FAILED;
                continue;
            }
        }
        bool over = c[i].pending && now_s() >= c[i].deadline && !interrupts;
        bool stuck = interrupts && (interrupts > 1 || now_s() - *interrupted_at > INTERRUPT_GRACE_S);
        if (over || stuck) {
            kill(c[i].pid, SIGKILL);
            killed = over;
            if (reap(command, &w[i], &c[i], killed) && start(&c[i], w[i].work, w[i].ctx) != 0)
                w[i].exit_code = MMB_EXIT_FAILED;
        }
    }
}

int mmb_supervise(const char *command, struct mmb_worker *workers, int nworkers)
{
    struct child c[64];
    if (nworkers < 1 || nworkers > 64) {
        fprintf(stderr, "mmbench %s: %d workers; expected 1 to 64\n", command, nworkers);
        return MMB_EXIT_FAILED;
    }
    interrupts = 0;
    struct sigaction sa = {.sa_handler = on_interrupt}, old_int, old_term;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    bool progress = nworkers > 1 && isatty(STDERR_FILENO);
    for (int i = 0; i < nworkers; i++) {
        workers[i].exit_code = 0;
        if (start(&c[i], workers[i].work, workers[i].ctx) != 0) {
            c[i].fd = -1;
            c[i].pid = 0;
            workers[i].exit_code = MMB_EXIT_FAILED;
        }
    }
    double interrupted_at = 0;
    for (;;) {
        bool alive = false;
        for (int i = 0; i < nworkers; i++)
            alive |= c[i].fd >= 0;
        if (!alive)
            break;
        watch_round(command, workers, c, nworkers, progress, &interrupted_at);
    }
    if (progress)
        fputs("\r\033[K", stderr);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    if (interrupts)
        return MMB_EXIT_INTERRUPTED;
    for (int i = 0; i < nworkers; i++)
        if (workers[i].exit_code)
            return workers[i].exit_code;
    return 0;
}

int mmb_probe(int (*fn)(void *ctx), void *ctx, char *reply, size_t len)
{
    struct child c;
    if (start(&c, fn, ctx) != 0)
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
