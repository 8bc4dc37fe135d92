/* test_resume.c - which row of a key counts (mmb_row_version_replaces) and what a
 * resumed run does with a row already there (mmb_resume_decide), without a GPU: an
 * edited kernel, or an edited header it includes, makes its rows stale; other compile
 * options or another protocol too; a row of an older mmbench is stale as unrecorded;
 * the same origin is done. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_run.h"
#include "model/profile.h"
#include "results/resume.h"
#include "tmpdir.h"

static void put(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

static struct mmb_row planned(const char *digest, const char *options, const char *protocol)
{
    struct mmb_row r;
    mmb_row_init(&r);
    snprintf(r.kernel, sizeof r.kernel, "tiled");
    snprintf(r.source_digest, sizeof r.source_digest, "%s", digest);
    snprintf(r.compile_options, sizeof r.compile_options, "%s", options);
    snprintf(r.protocol, sizeof r.protocol, "%s", protocol);
    snprintf(r.timestamp, sizeof r.timestamp, "2026-11-20T10:00:00Z");
    return r;
}

static enum mmb_resume decide(const struct mmb_row *present, const struct mmb_row *want)
{
    struct mmb_row_version v;
    mmb_row_version_of(present, &v);
    return mmb_resume_decide(&v, want);
}

START_TEST(test_decide)
{
    struct mmb_row want = planned("00000000000000aa", "--gpu-architecture=sm_90 (NVRTC 13.0)", "warmup=2;repeats=20");
    ck_assert_int_eq(mmb_resume_decide(NULL, &want), MMB_RESUME_NEW);
    ck_assert_int_eq(decide(&want, &want), MMB_RESUME_DONE);
    struct mmb_row old = planned("", "", "");
    ck_assert_int_eq(decide(&old, &want), MMB_RESUME_UNRECORDED);
    old = planned("00000000000000bb", want.compile_options, want.protocol);
    ck_assert_int_eq(decide(&old, &want), MMB_RESUME_SOURCE);
    old = planned(want.source_digest, "--gpu-architecture=sm_90 (NVRTC 12.8)", want.protocol);
    ck_assert_int_eq(decide(&old, &want), MMB_RESUME_COMPILE);
    old = planned(want.source_digest, want.compile_options, "warmup=0;repeats=20");
    ck_assert_int_eq(decide(&old, &want), MMB_RESUME_PROTOCOL);
    /* which rows a sweep counts is not how a row was measured: counter_mode alone
     * differs, or is absent from one (an mmbench before counter modes): done; the
     * counter set differs: stale */
    struct mmb_row counted = planned(want.source_digest, want.compile_options,
                                     "warmup=2;counters=default;counter_mode=best;counter_batch=32");
    old = planned(want.source_digest, want.compile_options,
                  "warmup=2;counters=default;counter_mode=all;counter_batch=32");
    ck_assert_int_eq(decide(&old, &counted), MMB_RESUME_DONE);
    old = planned(want.source_digest, want.compile_options,
                  "warmup=2;counters=default;counter_batch=32");
    ck_assert_int_eq(decide(&old, &counted), MMB_RESUME_DONE);
    old = planned(want.source_digest, want.compile_options,
                  "warmup=2;counters=memory;counter_mode=best;counter_batch=32");
    ck_assert_int_eq(decide(&old, &counted), MMB_RESUME_PROTOCOL);
    old = planned(want.source_digest, want.compile_options,
                  "warmup=2;counters=default;counter_mode=best;counter_batch=8");
    ck_assert_int_eq(decide(&old, &counted), MMB_RESUME_PROTOCOL);
    old = planned(want.source_digest, want.compile_options,
                  "warmup=2;counters=default;counter_mode=best");
    ck_assert_int_eq(decide(&old, &counted), MMB_RESUME_PROTOCOL);
    /* nor which rows get the energy window: energy_mode alone differs, or both choices
     * differ; the window's length differs, or energy is off: stale */
    struct mmb_row energy = planned(want.source_digest, want.compile_options,
                                    "warmup=2;energy=0.2;energy_mode=best;counters=default;counter_mode=best");
    old = planned(want.source_digest, want.compile_options,
                  "warmup=2;energy=0.2;energy_mode=all;counters=default;counter_mode=all");
    ck_assert_int_eq(decide(&old, &energy), MMB_RESUME_DONE);
    old = planned(want.source_digest, want.compile_options, "warmup=2;energy=0.2;counters=default");
    ck_assert_int_eq(decide(&old, &energy), MMB_RESUME_DONE);
    old = planned(want.source_digest, want.compile_options,
                  "warmup=2;energy=1;energy_mode=best;counters=default;counter_mode=best");
    ck_assert_int_eq(decide(&old, &energy), MMB_RESUME_PROTOCOL);
    old = planned(want.source_digest, want.compile_options, "warmup=2;energy=off;counters=default;counter_mode=best");
    ck_assert_int_eq(decide(&old, &energy), MMB_RESUME_PROTOCOL);
    /* the source decides first */
    old = planned("00000000000000bb", "x", "y");
    ck_assert_int_eq(decide(&old, &want), MMB_RESUME_SOURCE);
    /* a cell the run could not fill (an unreadable source) is not compared */
    struct mmb_row blind = planned("", want.compile_options, want.protocol);
    old = planned("00000000000000bb", want.compile_options, want.protocol);
    ck_assert_int_eq(decide(&old, &blind), MMB_RESUME_DONE);
    /* a library kernel: compiled by nobody, its digest its version */
    struct mmb_row lib = planned("cuBLAS 13.0.0", "", want.protocol);
    old = planned("cuBLAS 12.8.4", "", want.protocol);
    ck_assert_int_eq(decide(&old, &lib), MMB_RESUME_SOURCE);
    ck_assert_int_eq(decide(&lib, &lib), MMB_RESUME_DONE);
    for (int r = 0; r < MMB_RESUME_COUNT; r++)
        ck_assert(mmb_resume_stale((enum mmb_resume)r) == (r != MMB_RESUME_NEW && r != MMB_RESUME_DONE));
    ck_assert_ptr_nonnull(strstr(mmb_resume_text(MMB_RESUME_SOURCE), "source"));
}
END_TEST

START_TEST(test_replaces)
{
    struct mmb_row a = planned("00000000000000aa", "o", "p"), b = a;
    struct mmb_row_version va, vb;
    snprintf(b.timestamp, sizeof b.timestamp, "2026-11-21T10:00:00Z");
    mmb_row_version_of(&a, &va);
    mmb_row_version_of(&b, &vb);
    ck_assert(mmb_row_version_replaces(&va, &vb));  /* later */
    ck_assert(!mmb_row_version_replaces(&vb, &va)); /* measured before: from another file */
    ck_assert(mmb_row_version_replaces(&va, &va));  /* the same time: the one read last */
    /* a later failure of the same measurement does not erase an ok row... */
    b.status = MMB_STATUS_TIMEOUT;
    mmb_row_version_of(&b, &vb);
    ck_assert(!mmb_row_version_replaces(&va, &vb));
    /* ...a failure of another source does: that source fails */
    snprintf(b.source_digest, sizeof b.source_digest, "00000000000000bb");
    mmb_row_version_of(&b, &vb);
    ck_assert(mmb_row_version_replaces(&va, &vb));
    /* and an ok row replaces a failure */
    a.status = MMB_STATUS_TIMEOUT;
    b = a;
    b.status = MMB_STATUS_OK;
    snprintf(b.timestamp, sizeof b.timestamp, "2026-11-21T10:00:00Z");
    mmb_row_version_of(&a, &va);
    mmb_row_version_of(&b, &vb);
    ck_assert(mmb_row_version_replaces(&va, &vb));
}
END_TEST

/* The digest as a run computes it: an edit of the kernel, or of a header it includes
 * (found through the profile's -I folder), makes the row measured before stale. */
START_TEST(test_edited_kernel_is_stale)
{
    put("k.cu", "#include \"tile.cuh\"\nextern \"C\" __global__ void k(float *C, const float *A, const float *B,"
                " int M, int N, int K) { }\n");
    char inc[256];
    snprintf(inc, sizeof inc, "%s/inc", tmpdir);
    ck_assert_int_eq(mkdir(inc, 0755), 0);
    put("inc/tile.cuh", "#define TILE 16\n");
    put("p.ini", "[profile]\nsizes = 64\n[kernel k]\nsource = k.cu\nfunction = k\nnvrtc_options = -Iinc\n");
    char path[256], err[512];
    snprintf(path, sizeof path, "%s/p.ini", tmpdir);
    struct mmb_profile *p = calloc(1, sizeof *p);
    ck_assert_msg(mmb_profile_load(path, p, err, sizeof err) == 0, "%s", err);
    /* the -I folder is relative to where NVRTC runs: the profile's folder here */
    ck_assert_int_eq(chdir(tmpdir), 0);
    const char *proto = "mmbench=0.1.0;warmup=2;repeats=20";
    struct mmb_row measured = planned("", "--gpu-architecture=sm_90 (NVRTC 13.0)", proto), now = measured;
    ck_assert_msg(mmb_row_set_source_digest(&measured, &p->kernels[0], NULL, err, sizeof err) == 0, "%s", err);
    ck_assert_uint_eq(strlen(measured.source_digest), 16);
    ck_assert_int_eq(mmb_row_set_source_digest(&now, &p->kernels[0], NULL, err, sizeof err), 0);
    ck_assert_int_eq(decide(&measured, &now), MMB_RESUME_DONE);

    put("inc/tile.cuh", "#define TILE 32\n");
    ck_assert_int_eq(mmb_row_set_source_digest(&now, &p->kernels[0], NULL, err, sizeof err), 0);
    ck_assert_int_eq(decide(&measured, &now), MMB_RESUME_SOURCE);

    put("inc/tile.cuh", "#define TILE 16\n");
    ck_assert_int_eq(mmb_row_set_source_digest(&now, &p->kernels[0], NULL, err, sizeof err), 0);
    ck_assert_int_eq(decide(&measured, &now), MMB_RESUME_DONE);
    put("k.cu", "#include \"tile.cuh\"\nextern \"C\" __global__ void k(float *C, const float *A, const float *B,"
                " int M, int N, int K) { if (M < 0) C[0] = 0; }\n");
    ck_assert_int_eq(mmb_row_set_source_digest(&now, &p->kernels[0], NULL, err, sizeof err), 0);
    ck_assert_int_eq(decide(&measured, &now), MMB_RESUME_SOURCE);

    /* a source that cannot be read leaves the cell empty, with the reason */
    snprintf(p->kernels[0].source, sizeof p->kernels[0].source, "%s/gone.cu", tmpdir);
    ck_assert_int_eq(mmb_row_set_source_digest(&now, &p->kernels[0], NULL, err, sizeof err), -1);
    ck_assert_str_eq(now.source_digest, "");
    ck_assert_ptr_nonnull(strstr(err, "gone.cu"));
    mmb_profile_free(p);
    free(p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("resume");
    TCase *tc = tcase_create("resume");
    tcase_add_checked_fixture(tc, tmpdir_setup, tmpdir_teardown);
    tcase_add_test(tc, test_decide);
    tcase_add_test(tc, test_replaces);
    tcase_add_test(tc, test_edited_kernel_is_stale);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
