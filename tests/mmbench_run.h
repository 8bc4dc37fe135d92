/* mmbench_run.h - for tests: runs a command line of the mmbench program ($MMBENCH) as
 * a user would, its stdout and stderr caught in out and err: in a fork of the test
 * process through mmb_cmd_main (what main() calls: the same code, without loading the
 * program and its CUDA libraries, ~0.2 s, each time), or the program itself where
 * mmbench_exec_program is set. Include after tmpdir.h's tmpdir is made (the streams
 * pass through files in it). */
#ifndef MMB_TEST_MMBENCH_RUN_H
#define MMB_TEST_MMBENCH_RUN_H

#include <check.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/commands.h"
#include "tmpdir.h"

/* Whether mmbench() starts the program itself (exec): for what only the program does
 * (no command, its own --help). */
static bool mmbench_exec_program __attribute__((unused));

static char out[1 << 16] __attribute__((unused)), err[1 << 16] __attribute__((unused));

static inline void mmbench_slurp(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(buf, 1, len - 1, f) : 0;
    buf[n] = '\0';
    if (f)
        fclose(f);
}

/* Runs mmbench with argv (NULL-terminated, without the program), stdout and stderr
 * caught in out and err, for at most 60 s; returns the exit code. */
static inline int mmbench(const char *arg0, ...)
{
    const char *prog = getenv("MMBENCH");
    ck_assert_msg(prog != NULL, "MMBENCH must name the mmbench program");
    char *argv[32] = {(char *)prog};
    int n = 1;
    va_list ap;
    va_start(ap, arg0);
    for (const char *a = arg0; a && n < 31; a = va_arg(ap, const char *))
        argv[n++] = (char *)a;
    va_end(ap);
    argv[n] = NULL;
    char po[128], pe[128];
    snprintf(po, sizeof po, "%s/out", tmpdir);
    snprintf(pe, sizeof pe, "%s/err", tmpdir);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int fo = open(po, O_WRONLY | O_CREAT | O_TRUNC, 0644), fe = open(pe, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fo < 0 || fe < 0 || dup2(fo, 1) < 0 || dup2(fe, 2) < 0)
            _exit(127);
        alarm(60);
        if (mmbench_exec_program) {
            execv(prog, argv);
            _exit(127);
        }
        int rc = mmb_cmd_main(n, argv);
        fflush(NULL);
        _exit(rc);
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    mmbench_slurp(po, out, sizeof out);
    mmbench_slurp(pe, err, sizeof err);
    ck_assert_msg(WIFEXITED(status), "killed by signal %d; stderr: %s", WTERMSIG(status), err);
    return WEXITSTATUS(status);
}

#endif
