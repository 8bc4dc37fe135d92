/* report_run.h - for the report's tests: a temporary folder per test, `mmbench
 * report` run in this process with its stderr caught, and files read back. */
#ifndef MMB_TEST_REPORT_RUN_H
#define MMB_TEST_REPORT_RUN_H

#include <check.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/report.h"
#include "tmpdir.h"




static char *file_get(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static inline bool exists(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline bool exists(const char *fmt, ...)
{
    char path[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(path, sizeof path, fmt, ap);
    va_end(ap);
    struct stat st;
    return stat(path, &st) == 0 && st.st_size > 0;
}

/* Runs the report with stderr caught (into report_err); returns its exit status. */
static char report_err[16384];
static int report_run(int argc, char **argv)
{
    char path[512];
    snprintf(path, sizeof path, "%s/stderr.txt", tmpdir);
    fflush(stderr);
    int saved = dup(2);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ck_assert_int_ge(saved, 0);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_ge(dup2(fd, 2), 0);
    close(fd);
    int status = mmb_cmd_report(argc, argv);
    fflush(stderr);
    ck_assert_int_ge(dup2(saved, 2), 0);
    close(saved);
    const char *text = file_get(path);
    size_t n = text ? strlen(text) : 0;
    n = n < sizeof report_err ? n : sizeof report_err - 1;
    memcpy(report_err, text ? text : "", n);
    report_err[n] = '\0';
    return status;
}

#endif
