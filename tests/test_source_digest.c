/* test_source_digest.c - the source digest follows includes as NVRTC resolves them
 * (quoted ones beside the including file, then -I folders in order; angle ones in -I
 * folders only; -no-source-include), so that editing any included file changes it and
 * editing a file it does not include does not; comments and literals are not read for
 * includes; cycles end; the limits hold; the include options are read in every
 * spelling NVRTC takes. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_run.h"
#include "core/source_digest.h"
#include "tmpdir.h"

/* Writes text to tmpdir/name, making its folders; returns the path. */
static const char *put(const char *name, const char *text)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    for (char *slash = path + strlen(tmpdir) + 1; (slash = strchr(slash, '/')); *slash++ = '/') {
        *slash = '\0';
        ck_assert_msg(mkdir(path, 0700) == 0 || errno == EEXIST, "mkdir %s: %s", path, strerror(errno));
    }
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
    return path;
}

/* The digest of tmpdir/k.cu with NVRTC options opts (folders relative to tmpdir). */
static struct mmb_source_digest digest(const char *opts)
{
    char path[512], err[1024], cwd[1024];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    ck_assert_int_eq(chdir(tmpdir), 0); /* -I folders are relative to the current folder, as NVRTC's */
    snprintf(path, sizeof path, "%s/k.cu", tmpdir);
    struct mmb_include_paths inc;
    ck_assert_msg(mmb_include_paths_parse(opts, &inc, err, sizeof err) == 0, "%s", err);
    struct mmb_source_digest d;
    ck_assert_msg(mmb_source_digest(path, NULL, &inc, &d, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(chdir(cwd), 0);
    ck_assert_uint_eq(strlen(d.hex), 16);
    return d;
}

#define CHANGES(opts, before, edit)                                                                                 \
    do {                                                                                                            \
        edit;                                                                                                       \
        struct mmb_source_digest after_ = digest(opts);                                                             \
        ck_assert_msg(after_.value != (before).value, "%s did not change the digest", #edit);                      \
        before = after_;                                                                                            \
    } while (0)
#define KEEPS(opts, before, edit)                                                                                   \
    do {                                                                                                            \
        edit;                                                                                                       \
        ck_assert_msg(digest(opts).value == (before).value, "%s changed the digest", #edit);                      \
    } while (0)

START_TEST(test_source_alone)
{
    put("k.cu", "extern \"C\" __global__ void k() {}\n");
    struct mmb_source_digest d = digest("");
    ck_assert_uint_eq(d.files, 1);
    ck_assert_uint_eq(d.builtin, 0);
    ck_assert(digest("").value == d.value);
    CHANGES("", d, put("k.cu", "extern \"C\" __global__ void k() { }\n"));
    /* text given instead of read: the same digest */
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/k.cu", tmpdir);
    struct mmb_source_digest t;
    ck_assert_int_eq(mmb_source_digest(path, "extern \"C\" __global__ void k() { }\n", NULL, &t, err, sizeof err), 0);
    ck_assert(t.value == d.value);
}
END_TEST

/* A quoted include beside the includer; a nested one beside its own includer, not the
 * source (NVRTC 13: sub/a.h's "b.h" is sub/b.h, and without it not ./b.h). */
START_TEST(test_quoted_beside_includer)
{
    put("k.cu", "#include \"sub/a.h\"\nextern \"C\" __global__ void k() {}\n");
    put("sub/a.h", "#include \"b.h\"\n");
    put("sub/b.h", "#define B 1\n");
    put("b.h", "#define B 2\n");
    struct mmb_source_digest d = digest("");
    ck_assert_uint_eq(d.files, 3);
    CHANGES("", d, put("sub/b.h", "#define B 3\n"));
    CHANGES("", d, put("sub/a.h", "#include \"b.h\" // edited\n"));
    KEEPS("", d, put("b.h", "#define B 4\n"));
    KEEPS("", d, put("unrelated.h", "int x;\n"));
}
END_TEST

START_TEST(test_include_folders)
{
    put("k.cu", "#include <x.h>\n#include \"y.h\"\n");
    put("x.h", "beside: not an angle include's\n");
    put("y.h", "beside\n");
    put("inc1/x.h", "one\n");
    put("inc2/x.h", "two\n");
    put("inc2/y.h", "two\n");
    struct mmb_source_digest d = digest("-Iinc1 --include-path=inc2");
    ck_assert_uint_eq(d.files, 3); /* k.cu, inc1/x.h, y.h */
    CHANGES("-Iinc1 --include-path=inc2", d, put("inc1/x.h", "one, edited\n"));
    KEEPS("-Iinc1 --include-path=inc2", d, put("x.h", "beside, edited\n"));
    KEEPS("-Iinc1 --include-path=inc2", d, put("inc2/x.h", "two, edited\n"));
    KEEPS("-Iinc1 --include-path=inc2", d, put("inc2/y.h", "two, edited\n"));
    CHANGES("-Iinc1 --include-path=inc2", d, put("y.h", "beside, edited\n"));
    /* -no-source-include: y.h is inc2's */
    struct mmb_source_digest n = digest("-no-source-include -I inc1 -I=inc2");
    ck_assert(n.value != d.value);
    CHANGES("-no-source-include -I inc1 -I=inc2", n, put("inc2/y.h", "two, edited again\n"));
    KEEPS("-no-source-include -I inc1 -I=inc2", n, put("y.h", "beside, edited again\n"));
}
END_TEST

/* An include no folder has (NVRTC's built-in <cuda_fp16.h>) adds its name: the file
 * appearing in a folder is a new digest. */
START_TEST(test_builtin_and_missing)
{
    put("k.cu", "#include <cuda_fp16.h>\n#include \"later.h\"\n");
    struct mmb_source_digest d = digest("-Iinc");
    ck_assert_uint_eq(d.files, 1);
    ck_assert_uint_eq(d.builtin, 2);
    CHANGES("-Iinc", d, put("later.h", "now here\n"));
    ck_assert_uint_eq(d.builtin, 1);
    CHANGES("-Iinc", d, put("inc/cuda_fp16.h", "a user's own\n"));
    ck_assert_uint_eq(d.builtin, 0);
}
END_TEST

/* Comments and string literals hold no directive; __has_include is one; an include
 * written with a macro cannot be followed, and is passed over. */
START_TEST(test_what_is_a_directive)
{
    put("k.cu", "// #include \"c1.h\"\n/* #include \"c2.h\"\n#include \"c3.h\" */\n"
                "const char *s = \"#include \\\"s.h\\\"\";\nauto r = R\"x(\n#include \"r.h\"\n)x\";\n"
                "int n = 1'000;\n  #  include \"real.h\"\n#if __has_include(<opt.h>)\n#endif\n#include HEADER\n"
                "int x = y/2; // a division, then a comment\n#include \"last.h\"\n");
    static const char *const ignored[] = {"c1.h", "c2.h", "c3.h", "s.h", "r.h"};
    for (size_t i = 0; i < sizeof ignored / sizeof *ignored; i++)
        put(ignored[i], "x\n");
    put("real.h", "x\n");
    put("last.h", "x\n");
    struct mmb_source_digest d = digest("-Iinc");
    ck_assert_uint_eq(d.files, 3); /* k.cu, real.h, last.h */
    ck_assert_uint_eq(d.builtin, 1); /* opt.h */
    for (size_t i = 0; i < sizeof ignored / sizeof *ignored; i++)
        KEEPS("-Iinc", d, put(ignored[i], "edited\n"));
    CHANGES("-Iinc", d, put("inc/opt.h", "x\n"));
    CHANGES("-Iinc", d, put("real.h", "edited\n"));
    CHANGES("-Iinc", d, put("last.h", "edited\n"));
}
END_TEST

/* Files that include each other, or themselves, are read once; the walk ends. */
START_TEST(test_cycles_end)
{
    put("k.cu", "#include \"a.h\"\n#include \"k.cu\"\n");
    put("a.h", "#include \"b.h\"\n#include \"a.h\"\n");
    put("b.h", "#include \"a.h\"\n#include \"k.cu\"\n");
    struct mmb_source_digest d = digest("");
    ck_assert_uint_eq(d.files, 3);
    CHANGES("", d, put("b.h", "#include \"a.h\"\n"));
}
END_TEST

/* Pre-included headers are part of what is compiled. */
START_TEST(test_pre_include)
{
    put("k.cu", "int k;\n");
    put("pre.h", "#include \"pre2.h\"\n");
    put("pre2.h", "x\n");
    struct mmb_source_digest d = digest("--pre-include=pre.h");
    ck_assert_uint_eq(d.files, 3);
    CHANGES("--pre-include=pre.h", d, put("pre2.h", "edited\n"));
    ck_assert(digest("-include pre.h").value == d.value);
}
END_TEST

/* Bounded: a file included that is not a regular file is not read (a FIFO would wait
 * forever); more files than the limit are an error naming the file. */
START_TEST(test_limits)
{
    char path[512], err[1024];
    put("k.cu", "#include \"fifo.h\"\n#include \"dir.h\"\n");
    snprintf(path, sizeof path, "%s/fifo.h", tmpdir);
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    snprintf(path, sizeof path, "%s/dir.h", tmpdir);
    ck_assert_int_eq(mkdir(path, 0700), 0);
    struct mmb_source_digest d = digest("");
    ck_assert_uint_eq(d.files, 1);
    ck_assert_uint_eq(d.builtin, 2);
    /* a chain longer than the nesting limit */
    for (int i = 0; i <= MMB_DIGEST_DEPTH_MAX; i++) {
        char name[32], text[64];
        snprintf(name, sizeof name, "c%d.h", i);
        snprintf(text, sizeof text, "#include \"c%d.h\"\n", i + 1);
        put(name, text);
    }
    put("k.cu", "#include \"c0.h\"\n");
    snprintf(path, sizeof path, "%s/k.cu", tmpdir);
    struct mmb_source_digest deep;
    ck_assert_int_eq(mmb_source_digest(path, NULL, NULL, &deep, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "includes nested more than 200 deep"), "%s", err);
    ck_assert_int_eq(mmb_source_digest("/no/such/k.cu", NULL, NULL, &deep, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "/no/such/k.cu: cannot open"), "%s", err);
}
END_TEST

START_TEST(test_include_options)
{
    struct mmb_include_paths p;
    char err[256];
    ck_assert_int_eq(mmb_include_paths_parse("-lineinfo -Ia -I b -I=c --include-path=d --include-path e -DFOO=1 "
                                             "-include p1.h --pre-include=p2.h --pre-include p3.h --no-source-include",
                                             &p, err, sizeof err), 0);
    ck_assert_int_eq(p.ndirs, 5);
    static const char *const dirs[] = {"a", "b", "c", "d", "e"};
    for (int i = 0; i < 5; i++)
        ck_assert_str_eq(p.dirs[i], dirs[i]);
    ck_assert_int_eq(p.npre, 3);
    ck_assert_str_eq(p.pre[2], "p3.h");
    ck_assert(p.no_source_include);
    ck_assert_int_eq(mmb_include_paths_parse("-lineinfo -I", &p, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "-I at the end, without its folder"), "%s", err);
    char many[1024] = "";
    for (int i = 0; i <= MMB_INCLUDE_DIRS_MAX; i++)
        strcat(many, "-Ix ");
    ck_assert_int_eq(mmb_include_paths_parse(many, &p, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "more than 32 include folders"), "%s", err);
    ck_assert_int_eq(mmb_include_paths_parse(NULL, &p, err, sizeof err), 0);
    ck_assert_int_eq(p.ndirs, 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("source_digest");
    TCase *tc = tcase_create("source_digest");
    tcase_add_checked_fixture(tc, tmpdir_setup, tmpdir_teardown);
    tcase_add_test(tc, test_source_alone);
    tcase_add_test(tc, test_quoted_beside_includer);
    tcase_add_test(tc, test_include_folders);
    tcase_add_test(tc, test_builtin_and_missing);
    tcase_add_test(tc, test_what_is_a_directive);
    tcase_add_test(tc, test_cycles_end);
    tcase_add_test(tc, test_pre_include);
    tcase_add_test(tc, test_limits);
    tcase_add_test(tc, test_include_options);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
