/* gnuplot.c - finds gnuplot and runs the report's scripts, several at once:
 * one process per script keeps a failure attributable to its figure, and running
 * them in parallel keeps the whole report within seconds on a small machine. */
#include "report/figures/gnuplot.h"
#include "report/figures/gp.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/error.h"
#include "core/file.h"

static bool executable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

static bool path_search(const char *prog, char *out, size_t len)
{
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/bin:/bin";
    while (*path) {
        const char *end = strchr(path, ':');
        size_t n = end ? (size_t)(end - path) : strlen(path);
        int w = snprintf(out, len, "%.*s/%s", (int)n, n ? path : ".", prog);
        if (w > 0 && (size_t)w < len && executable(out))
            return true;
        path += n;
        if (*path == ':')
            path++;
    }
    out[0] = '\0';
    return false;
}

/* The output of `gnuplot -e "set terminal"` (it lists them on stderr), at most
 * TERMINALS_MAX bytes within TERMINALS_SECONDS: a program that is not gnuplot may
 * print without end or never exit, and is then stopped. NULL when it could not run. */
#define TERMINALS_MAX ((size_t)1 << 20)
#define TERMINALS_SECONDS 20.0
static char *terminals_list(const char *gnuplot)
{
    int fds[2];
    if (pipe(fds) != 0)
        return NULL;
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return NULL;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_RDONLY);
        if (null < 0 || dup2(null, 0) < 0 || dup2(fds[1], 1) < 0 || dup2(fds[1], 2) < 0)
            _exit(127);
        close(fds[0]);
        execl(gnuplot, "gnuplot", "-e", "set terminal", (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    size_t n = 0;
    char *buf = malloc(TERMINALS_MAX + 1);
    double end = mmb_seconds_now() + TERMINALS_SECONDS;
    while (buf && n < TERMINALS_MAX) {
        double left = end - mmb_seconds_now();
        struct pollfd p = {fds[0], POLLIN, 0};
        int ready = left > 0 ? poll(&p, 1, (int)(left * 1000) + 1) : 0;
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0)
            break; /* out of time */
        ssize_t got = read(fds[0], buf + n, TERMINALS_MAX - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        n += (size_t)got;
    }
    close(fds[0]);
    /* done reading: whatever it is, it has had its chance */
    kill(pid, SIGKILL);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (buf)
        buf[n] = '\0';
    return buf;
}

static bool terminal_listed(const char *list, const char *terminal)
{
    size_t n = strlen(terminal);
    for (const char *p = strstr(list, terminal); p; p = strstr(p + 1, terminal)) {
        bool start = p == list || p[-1] == ' ' || p[-1] == '\n' || p[-1] == '\t';
        bool end = p[n] == ' ' || p[n] == '\t' || p[n] == '\n';
        if (start && end)
            return true;
    }
    return false;
}

bool mmb_report_gnuplot_find(struct mmb_report *rep)
{
    char found[4096];
    if (rep->gnuplot[0]) {
        if (!executable(rep->gnuplot)) {
            snprintf(rep->plot_state, sizeof rep->plot_state, "--gnuplot %s: %s: expected the gnuplot program", rep->gnuplot,
                     access(rep->gnuplot, F_OK) != 0 ? "no such file" : "not an executable file");
            rep->gnuplot[0] = '\0';
            return false;
        }
    } else if (path_search("gnuplot", found, sizeof found)) {
        snprintf(rep->gnuplot, sizeof rep->gnuplot, "%s", found);
    } else {
        snprintf(rep->plot_state, sizeof rep->plot_state,
                 "gnuplot is not on PATH: the scripts are written, the figures are not drawn (install gnuplot, e.g. apt-get install gnuplot-nox, and run the report again)");
        return false;
    }
    char *list = terminals_list(rep->gnuplot);
    if (!list || !strstr(list, "terminal")) {
        snprintf(rep->plot_state, sizeof rep->plot_state,
                 "%s -e 'set terminal' %s: expected gnuplot's list of terminals", rep->gnuplot,
                 list ? "printed no list of terminals" : "could not be run");
        free(list);
        rep->gnuplot[0] = '\0';
        return false;
    }
    char missing[64] = "";
    size_t kept = 0;
    for (size_t i = 0; i < rep->nformats; i++) {
        const char *term = mmb_report_format_info(rep->formats[i])->terminal;
        if (terminal_listed(list, term))
            rep->formats[kept++] = rep->formats[i];
        else
            snprintf(missing + strlen(missing), sizeof missing - strlen(missing), "%s%s", missing[0] ? ", " : "", term);
    }
    free(list);
    rep->nformats = kept;
    if (missing[0])
        mmb_report_state_note_add(rep, "This gnuplot (%s) lacks the %s terminal: those formats are not drawn",
                                  rep->gnuplot, missing);
    if (kept == 0) {
        snprintf(rep->plot_state, sizeof rep->plot_state, "%s has none of the terminals asked for (%s)", rep->gnuplot,
                 missing);
        rep->gnuplot[0] = '\0';
        return false;
    }
    return true;
}

/* ---- running ------------------------------------------------------------------------ */

struct job {
    pid_t pid;
    size_t fig;
};

static pid_t script_start(const struct mmb_report *rep, const char *dir, const char *name)
{
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    /* child: gnuplot reads its data and writes ../figures relative to dir */
    char script[256], log[256];
    snprintf(script, sizeof script, "%s.gp", name);
    snprintf(log, sizeof log, "%s.log", name);
    if (chdir(dir) != 0)
        _exit(126);
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    int null = open("/dev/null", O_RDONLY);
    if (fd < 0 || null < 0 || dup2(null, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
        _exit(126);
    execl(rep->gnuplot, "gnuplot", script, (char *)NULL);
    dprintf(2, "exec %s: %s\n", rep->gnuplot, strerror(errno));
    _exit(127);
}

/* cairo stamps each PDF with the time it was drawn (Debian 12's cairo ignores
 * SOURCE_DATE_EPOCH), so every regeneration would change every PDF in git. The
 * same data must give the same files: the date becomes the epoch, in place, with
 * the same length, so no offset in the file moves. */
static int pdf_date_fix(const struct mmb_report *rep, const char *name, char *err, size_t errlen)
{
    char file[256], path[4400];
    snprintf(file, sizeof file, "%s.pdf", name);
    if (mmb_report_state_path(rep, path, sizeof path, "figures", file, err, errlen) != 0)
        return -1;
    size_t len = 0;
    char ignored[256];
    char *pdf = mmb_file_read(path, &len, ignored, sizeof ignored);
    if (!pdf)
        return 0; /* no PDF drawn: nothing to fix */
    static const char key[] = "/CreationDate (D:";
    int rc = 0;
    char *at = memmem(pdf, len, key, sizeof key - 1);
    if (at && (size_t)(at - pdf) + sizeof key - 1 + 14 <= len) {
        memcpy(at + sizeof key - 1, "19700101000000", 14);
        rc = mmb_file_write_atomic(path, pdf, len, err, errlen);
    }
    free(pdf);
    return rc;
}

/* The first line of the log, for the error message. */
static void log_first_line(const char *path, char *out, size_t len)
{
    char *text = mmb_file_read(path, NULL, NULL, 0);
    out[0] = '\0';
    if (!text)
        return;
    char *p = text;
    while (*p == '\n' || *p == ' ')
        p++;
    snprintf(out, len, "%.*s", (int)strcspn(p, "\n"), p);
    free(text);
}

/* The scripts being run: at most slots at once, figures started in order. */
struct runner {
    struct mmb_report *rep;
    const char *dir;
    struct job *jobs;
    size_t slots, next, running, failed, warned;
    char first[8192]; /* the first failure, for the error message */
};

/* Starts the next scripts until every slot runs one. */
static int jobs_start(struct runner *r, char *err, size_t errlen)
{
    while (r->running < r->slots && r->next < r->rep->nfigs) {
        pid_t pid = script_start(r->rep, r->dir, r->rep->figs[r->next].name);
        if (pid < 0) {
            mmb_errorf(err, errlen, "fork: %s", strerror(errno));
            return -1;
        }
        for (size_t j = 0; j < r->slots; j++)
            if (r->jobs[j].pid == 0) {
                r->jobs[j] = (struct job){pid, r->next};
                break;
            }
        r->running++;
        r->next++;
    }
    return 0;
}

/* A script ended: its PDF loses the date, its log stays when gnuplot had
 * something to say, and the first failure is remembered. */
static int job_finish(struct runner *r, pid_t pid, int status, char *err, size_t errlen)
{
    size_t j = 0;
    while (j < r->slots && r->jobs[j].pid != pid)
        j++;
    if (j == r->slots)
        return 0; /* not one of ours */
    const char *name = r->rep->figs[r->jobs[j].fig].name;
    r->jobs[j].pid = 0;
    r->running--;
    char log[4608], file[256];
    snprintf(file, sizeof file, "%s.log", name);
    if (mmb_report_state_path(r->rep, log, sizeof log, "gnuplot", file, NULL, 0) != 0)
        return 0;
    int rc = 0;
    bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    char deck[200];
    snprintf(deck, sizeof deck, "%s-%s", MMB_GP_DECK_FORMAT, name); /* its slide, where drawn */
    if (ok && (pdf_date_fix(r->rep, name, err, errlen) != 0 || pdf_date_fix(r->rep, deck, err, errlen) != 0))
        rc = -1;
    struct stat st;
    if (ok && stat(log, &st) == 0 && st.st_size > 0) {
        r->warned++; /* drawn, but gnuplot had something to say: keep it */
    } else if (ok && unlink(log) != 0 && errno != ENOENT) {
        mmb_errorf(err, errlen, "%s: unlink: %s", log, strerror(errno));
        rc = -1;
    }
    if (!ok && r->failed++ == 0) {
        char line[512];
        log_first_line(log, line, sizeof line);
        snprintf(r->first, sizeof r->first, "%s.gp (%s %d): %s; its log is %s", name,
                 WIFEXITED(status) ? "exit" : "signal", WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
                 line[0] ? line : "no output", log);
    }
    return rc;
}

int mmb_report_gnuplot_run(struct mmb_report *rep, char *err, size_t errlen)
{
    char dir[4400];
    if (mmb_report_state_path(rep, dir, sizeof dir, NULL, "gnuplot", err, errlen) != 0)
        return -1;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t slots = cpus > 0 ? (size_t)cpus : 1;
    if (slots > 16)
        slots = 16;
    struct runner *r = calloc(1, sizeof *r);
    struct job *jobs = calloc(slots, sizeof *jobs);
    if (!r || !jobs) {
        free(r);
        free(jobs);
        mmb_errorf(err, errlen, "out of memory");
        return -1;
    }
    *r = (struct runner){.rep = rep, .dir = dir, .jobs = jobs, .slots = slots};
    int rc = 0;
    while (r->next < rep->nfigs || r->running > 0) {
        if (rc == 0 && jobs_start(r, err, errlen) != 0)
            rc = -1;
        if (r->running == 0)
            break;
        int status;
        pid_t pid = waitpid(-1, &status, 0);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            mmb_errorf(err, errlen, "waitpid: %s", strerror(errno));
            rc = -1;
            break;
        }
        if (job_finish(r, pid, status, err, errlen) != 0)
            rc = -1;
    }
    /* let no child outlive an error */
    for (size_t j = 0; j < slots; j++)
        if (jobs[j].pid > 0) {
            int status;
            while (waitpid(jobs[j].pid, &status, 0) < 0 && errno == EINTR)
                ;
        }
    if (r->warned)
        mmb_report_state_note_add(rep, "gnuplot drew %zu figures with warnings: see gnuplot/*.log", r->warned);
    if (rc == 0 && r->failed) {
        mmb_errorf(err, errlen, "gnuplot failed on %zu of %zu scripts; the first: %s", r->failed, rep->nfigs, r->first);
        rc = -1;
    }
    free(jobs);
    free(r);
    return rc;
}
