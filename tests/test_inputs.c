/* test_inputs.c - random inputs, poisoning and the comparison that decides
 * ok / wrong_result; the threads of a host pass; and the timing statistics. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "core/hash.h"
#include "core/stats.h"
#include "model/inputs.h"

START_TEST(test_fill_is_reproducible_and_in_range)
{
    float a[1000], b[1000];
    int32_t ia[1000];
    mmb_inputs_fill(a, 1000, MMB_F32, 42);
    mmb_inputs_fill(b, 1000, MMB_F32, 42);
    ck_assert_int_eq(memcmp(a, b, sizeof a), 0);
    mmb_inputs_fill(b, 1000, MMB_F32, 43);
    ck_assert_int_ne(memcmp(a, b, sizeof a), 0);
    int zeros = 0;
    for (int i = 0; i < 1000; i++) {
        ck_assert(a[i] >= -1.0f && a[i] < 1.0f);
        zeros += a[i] == 0.0f;
    }
    ck_assert_int_lt(zeros, 3);
    mmb_inputs_fill(ia, 1000, MMB_I32, 7);
    int seen_neg = 0, seen_pos = 0;
    for (int i = 0; i < 1000; i++) {
        ck_assert(ia[i] >= -8 && ia[i] <= 8);
        seen_neg |= ia[i] < 0;
        seen_pos |= ia[i] > 0;
    }
    ck_assert(seen_neg && seen_pos);
}
END_TEST

/* A matrix large enough to be filled in threads holds the one sequence of draws a
 * single loop gives, element for element, in every format: for f32, f64 and i32 the
 * values they always had; for the others the draw rounded to the format. */
START_TEST(test_threaded_fill_is_the_sequence)
{
    const size_t n = (5u << 20) + 3;
    for (int f = 0; f < MMB_FMT_COUNT; f++) {
        const struct mmb_format_info *fi = mmb_format_info((enum mmb_format)f);
        double *got = malloc(n * sizeof *got);
        ck_assert_ptr_nonnull(got);
        mmb_inputs_fill_format(got, n, fi->value, 12345 + (uint64_t)f);
        uint64_t state = 12345 + (uint64_t)f;
        for (size_t i = 0; i < n; i++) {
            uint64_t r = mmb_splitmix64(&state);
            double u = (double)(r >> 11) * 0x1.0p-53 * 2.0 - 1.0, want;
            if (fi->value == MMB_FMT_F32)
                want = (double)(float)u;
            else if (fi->value == MMB_FMT_F64)
                want = u;
            else if (fi->value == MMB_FMT_I32)
                want = (double)((int32_t)(r % 17) - 8);
            else if (fi->value == MMB_FMT_I8)
                want = (double)((int32_t)(r % 256) - 128);
            else {
                unsigned char one[8];
                fi->encode(one, 0, u);
                want = fi->decode(one, 0);
            }
            double have = mmb_inputs_element(got, i, fi->value);
            if (have != want)
                ck_abort_msg("format %s element %zu: %.9g, the sequence has %.9g", fi->text, i, have, want);
        }
        free(got);
    }
}
END_TEST

/* Inputs of every rounding format are exactly representable: encoding a decoded
 * element gives its bits back, and they lie in [-1, 1]. */
START_TEST(test_fill_is_representable)
{
    for (int f = 0; f < MMB_FMT_COUNT; f++) {
        const struct mmb_format_info *fi = mmb_format_info((enum mmb_format)f);
        unsigned char data[4096 * 8], again[8];
        mmb_inputs_fill_format(data, 4096, fi->value, 99);
        int distinct = 0;
        double last = NAN;
        for (size_t i = 0; i < 4096; i++) {
            double v = fi->decode(data, i);
            ck_assert_msg(v >= fi->draw_min && v <= fi->draw_max, "%s: %g", fi->text, v);
            fi->encode(again, 0, v);
            ck_assert_msg(memcmp(again, data + i * fi->size, fi->size) == 0, "%s element %zu", fi->text, i);
            distinct += v != last;
            last = v;
        }
        ck_assert_int_gt(distinct, 1000); /* not a constant */
    }
}
END_TEST

START_TEST(test_poison_fails_the_comparison)
{
    float ref[64], out[64];
    mmb_inputs_fill(ref, 64, MMB_F32, 1);
    memcpy(out, ref, sizeof out);
    struct mmb_compare c;
    mmb_inputs_compare(out, ref, 64, MMB_F32, 1e-4, &c);
    ck_assert(c.ok);
    ck_assert(c.max_rel_err == 0.0);
    memset(&out[17], mmb_inputs_poison_byte(MMB_F32), sizeof out[17]);
    ck_assert(isnan(out[17]));
    mmb_inputs_compare(out, ref, 64, MMB_F32, 1e-4, &c);
    ck_assert(!c.ok);
    ck_assert_uint_eq(c.mismatches, 1);
    ck_assert_uint_eq(c.first_bad, 17);
    ck_assert(isinf(c.max_rel_err));

    int32_t iref[8] = {1, -2, 3, 0, 5, 6, 7, 8}, iout[8];
    memcpy(iout, iref, sizeof iout);
    memset(&iout[3], mmb_inputs_poison_byte(MMB_I32), sizeof iout[3]);
    mmb_inputs_compare(iout, iref, 8, MMB_I32, 0.0, &c);
    ck_assert(!c.ok);
    ck_assert_uint_eq(c.first_bad, 3);
}
END_TEST

START_TEST(test_tolerance_is_relative_to_largest_reference)
{
    double ref[4] = {100.0, -50.0, 0.001, 3.0}, out[4];
    memcpy(out, ref, sizeof out);
    out[2] += 0.005; /* tiny element off by 5x its value, but 5e-5 of the largest */
    struct mmb_compare c;
    mmb_inputs_compare(out, ref, 4, MMB_F64, 1e-4, &c);
    ck_assert(c.ok);
    ck_assert_double_eq_tol(c.max_rel_err, 5e-5, 1e-12);
    out[0] += 0.02; /* 2e-4 of the largest: beyond */
    mmb_inputs_compare(out, ref, 4, MMB_F64, 1e-4, &c);
    ck_assert(!c.ok);
    ck_assert_uint_eq(c.first_bad, 0);
}
END_TEST

START_TEST(test_element_reads_each_dtype)
{
    const float f[] = {0.5f, -0.25f};
    const double d[] = {1e-300, -3.0};
    const int32_t n[] = {-8, 2147483647};
    ck_assert_double_eq(mmb_inputs_element(f, 1, MMB_FMT_F32), -0.25);
    ck_assert_double_eq(mmb_inputs_element(d, 0, MMB_FMT_F64), 1e-300);
    ck_assert_double_eq(mmb_inputs_element(n, 0, MMB_FMT_I32), -8.0);
    ck_assert_double_eq(mmb_inputs_element(n, 1, MMB_FMT_I32), 2147483647.0);
    ck_assert(isnan(mmb_inputs_element(n, 0, MMB_FMT_COUNT)));
}
END_TEST

START_TEST(test_stats)
{
    double v[] = {5.0, 1.0, 3.0, 2.0, 4.0};
    struct mmb_stats s;
    mmb_stats_compute(v, 5, &s);
    ck_assert_double_eq(s.median, 3.0);
    ck_assert_double_eq(s.min, 1.0);
    ck_assert_double_eq(s.max, 5.0);
    ck_assert_double_eq_tol(s.stddev, sqrt(2.5), 1e-12);
    double w[] = {4.0, 1.0, 3.0, 2.0};
    mmb_stats_compute(w, 4, &s);
    ck_assert_double_eq(s.median, 2.5);
    mmb_stats_compute(w, 0, &s);
    ck_assert(isnan(s.median));
}
END_TEST

struct thread_job {
    int index, runs;
    long sum;
};

static void *work(void *opaque)
{
    struct thread_job *j = opaque;
    for (long i = 0; i <= 100000; i++)
        j->sum += i * (j->index + 1);
    j->runs++;
    return NULL;
}

/* Every job of a pass runs exactly once for every count up to the most; more than
 * the most are not run; the thread count stays within one and the most. */
START_TEST(test_every_job_once)
{
    for (size_t n = 0; n <= MMB_INPUTS_THREADS_MAX + 2; n++) {
        struct thread_job jobs[MMB_INPUTS_THREADS_MAX + 2] = {{0}};
        for (size_t i = 0; i < n; i++)
            jobs[i].index = (int)i;
        mmb_inputs_run_threads(work, jobs, sizeof jobs[0], n);
        for (size_t i = 0; i < n && i < MMB_INPUTS_THREADS_MAX; i++) {
            ck_assert_int_eq(jobs[i].runs, 1);
            ck_assert_int_eq(jobs[i].sum, 5000050000L * (long)(i + 1));
        }
        for (size_t i = MMB_INPUTS_THREADS_MAX; i < n; i++)
            ck_assert_int_eq(jobs[i].runs, 0);
    }
}
END_TEST

START_TEST(test_thread_counts)
{
    ck_assert_uint_eq(mmb_inputs_threads(0, 1024), 1);
    ck_assert_uint_eq(mmb_inputs_threads(1023, 1024), 1);
    ck_assert_uint_eq(mmb_inputs_threads(5, 0), 1);
    size_t most = mmb_inputs_threads((size_t)1 << 40, 1);
    ck_assert(most >= 1 && most <= MMB_INPUTS_THREADS_MAX);
    ck_assert_uint_le(mmb_inputs_threads(2048, 1024), 2);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("inputs");
    TCase *tc = tcase_create("inputs");
    tcase_add_test(tc, test_fill_is_reproducible_and_in_range);
    tcase_add_test(tc, test_threaded_fill_is_the_sequence);
    tcase_add_test(tc, test_fill_is_representable);
    tcase_add_test(tc, test_poison_fails_the_comparison);
    tcase_add_test(tc, test_tolerance_is_relative_to_largest_reference);
    tcase_add_test(tc, test_element_reads_each_dtype);
    tcase_add_test(tc, test_stats);
    tcase_add_test(tc, test_every_job_once);
    tcase_add_test(tc, test_thread_counts);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
