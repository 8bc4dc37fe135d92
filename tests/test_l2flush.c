/* test_l2flush.c - the cold-L2 preparation: MMB_L2_SWEEP values are checked without a
 * GPU, the kernels compile with NVRTC for sm_80 and sm_90 (CI), and on a GPU every
 * method opens, runs and leaves the device usable. */
#include <check.h>
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "cuda/compile.h"
#include "cuda/l2flush.h"

START_TEST(test_methods_canonical)
{
    static const struct {
        const char *in, *canon;
    } ok[] = {
        {"read", "read:8"},       {"read:2", "read:2"},     {"reread:16:keep", "reread:16:keep"},
        {"store:1", "store:1"},   {"memset:2:keep", "memset:2:keep"}, {"write+read:64", "write+read:64"},
        {"none", "none"},         {"none:4", "none"},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        char canon[MMB_L2_FLUSH_METHOD_LEN] = "", err[256] = "";
        ck_assert_msg(mmb_l2_flush_check_method(ok[i].in, canon, sizeof canon, err, sizeof err) == 0, "%s: %s",
                      ok[i].in, err);
        ck_assert_str_eq(canon, ok[i].canon);
    }
}
END_TEST

START_TEST(test_methods_rejected)
{
    static const char *const bad[] = {"", "bogus", "read:", "read:0", "read:65", "read:x", "read:8:kep",
                                      "read:8:keep:1", "rea", "reads", ":8", "read8"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char canon[MMB_L2_FLUSH_METHOD_LEN] = "", err[256] = "";
        ck_assert_msg(mmb_l2_flush_check_method(bad[i], canon, sizeof canon, err, sizeof err) == -1, "%s", bad[i]);
        ck_assert_msg(strstr(err, "MMB_L2_SWEEP") && strstr(err, "reread") && strstr(err, "1..64"), "%s", err);
    }
}
END_TEST

START_TEST(test_kernels_compile)
{
    static const char *const functions[] = {"mmb_l2_read", "mmb_l2_reread", "mmb_l2_store", "mmb_l2_discard"};
    const char *const no_defines[] = {NULL};
    for (int arch = 80; arch <= 90; arch += 10)
        for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++) {
            struct mmb_compile_request req = {.source_path = "l2flush.c", .source = mmb_l2_flush_source,
                                              .function = functions[i], .defines = no_defines, .arch = arch};
            struct mmb_cubin cubin;
            char err[2048] = "";
            ck_assert_msg(mmb_compile(&req, &cubin, err, sizeof err) == MMB_STATUS_OK, "sm_%d %s: %s", arch,
                          functions[i], err);
            ck_assert(cubin.size > 0);
            mmb_cubin_free(&cubin);
        }
}
END_TEST

static bool have_gpu(void)
{
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

START_TEST(test_gpu_every_method_runs)
{
    if (!have_gpu()) {
        printf("skipped: no GPU\n");
        return;
    }
    static const char *const methods[] = {"read:1", "reread:1", "store:1", "memset:1:keep", "write+read:1",
                                          "store+reread:1", "none", ""};
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        struct mmb_l2_flush *f = NULL;
        char err[512] = "";
        ck_assert_msg(mmb_l2_flush_open(&f, 0, methods[i], err, sizeof err) == MMB_STATUS_OK, "%s: %s", methods[i],
                      err);
        ck_assert_str_eq(mmb_l2_flush_method(f), methods[i][0] ? (strcmp(methods[i], "none") ? methods[i] : "none")
                                                               : "read:8");
        ck_assert_msg(mmb_l2_flush_enqueue(f, NULL, err, sizeof err) == MMB_STATUS_OK, "%s: %s", methods[i], err);
        ck_assert_int_eq(cudaDeviceSynchronize(), cudaSuccess);
        mmb_l2_flush_close(f);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("l2flush");
    TCase *tc = tcase_create("offline");
    tcase_add_test(tc, test_methods_canonical);
    tcase_add_test(tc, test_methods_rejected);
    tcase_add_test(tc, test_kernels_compile);
    suite_add_tcase(s, tc);
    TCase *device = tcase_create("device");
    tcase_add_test(device, test_gpu_every_method_runs);
    suite_add_tcase(s, device);
    return mmb_test_failures(s, true) ? EXIT_FAILURE : EXIT_SUCCESS;
}
