/* fuzz_common.h - what the libFuzzer targets share: the fuzzer's bytes written to a
 * file in a private folder (removed at exit), because the readers under test take
 * paths, as users give them. */
#ifndef MMB_FUZZ_COMMON_H
#define MMB_FUZZ_COMMON_H

#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char fuzz_dir[64];

static int fuzz_remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    return remove(path);
}

static void fuzz_remove_dir(void)
{
    nftw(fuzz_dir, fuzz_remove_one, 8, FTW_DEPTH | FTW_PHYS);
}

static void fuzz_write(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
        perror(path);
        abort();
    }
}

/* Writes data to DIR/profiles/name and returns the path. DIR is made once per
 * process, with DIR/kernels/ holding a file for each kernel source the shipped
 * profiles name, so that `source = ../kernels/naive.cu` resolves as it does in the
 * repository and the reader goes on past the source key. */
static const char *fuzz_file(const char *name, const uint8_t *data, size_t size)
{
    char *dir = fuzz_dir;
    static char path[160];
    if (!dir[0]) {
        static const char *const kernels[] = {"naive.cu", "tiled.cu", "rect_tiles.cu", "tunable.cu", "kernel.cu"};
        static const uint8_t text[] = "extern \"C\" __global__ void k(void) {}\n";
        snprintf(dir, sizeof fuzz_dir, "/tmp/mmb_fuzz.XXXXXX");
        if (!mkdtemp(dir)) {
            perror("fuzz: mkdtemp");
            abort();
        }
        atexit(fuzz_remove_dir);
        snprintf(path, sizeof path, "%s/profiles", dir);
        if (mkdir(path, 0700) != 0) {
            perror(path);
            abort();
        }
        snprintf(path, sizeof path, "%s/kernels", dir);
        if (mkdir(path, 0700) != 0) {
            perror(path);
            abort();
        }
        for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++) {
            snprintf(path, sizeof path, "%s/kernels/%s", dir, kernels[i]);
            fuzz_write(path, text, sizeof text - 1);
        }
    }
    snprintf(path, sizeof path, "%s/profiles/%s", dir, name);
    fuzz_write(path, data, size);
    return path;
}

#endif
