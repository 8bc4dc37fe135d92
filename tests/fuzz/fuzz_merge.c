/* fuzz_merge.c - libFuzzer target: `mmbench merge` over a data folder the fuzzer makes:
 * shard file names (any spelling of K and N, other stems, folders, links to siblings
 * that dangle or loop) and their CSV text, merged for a small fixed profile, with or
 * without --tune. Beyond no crash, leak or hang, it checks what merge promises: when it
 * exits 0 or 1, every merged CSV it wrote holds only runs of the profile, each once per
 * GPU.
 *
 * Input: a first byte of flags (bit 0: --tune), then records separated by NUL bytes,
 * each "NAME\nTEXT": NAME a file under data/ ("g/x.csv"; a bare name goes in g/, a
 * name ending in '/' is a folder), TEXT its content, or "->TARGET" for a link to a
 * sibling TARGET. */
#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cmd/merge.h"
#include "core/cache.h"
#include "fuzz_common.h"
#include "model/profile.h"
#include "results/csv.h"
#include "results/csv_name.h"
#include "results/shard.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define RECORDS_MAX 12

static const char profile_text[] =
    "[profile]\nname = merge\nsizes = 64, 100x30x7\ndtypes = f32, f64\n\n"
    "[kernel k]\nsource = ../kernels/kernel.cu\nfunction = f\nparam.block_size_x = 8, 16\nparam.tile = 1, 2\n"
    "restrict = block_size_x * tile <= 16\n\n[kernel cublas]\nlibrary = cublas\n";

static char profile_path[200], data_dir[200];
static struct mmb_profile *profile;

/* The profile's runs as keys without the device, sorted. */
static char **run_keys;
static size_t nrun_keys;

static int key_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int add_run(void *ctx, const struct mmb_shard_run *run)
{
    struct mmb_row row;
    mmb_row_init(&row);
    snprintf(row.kernel, sizeof row.kernel, "%s", run->kernel->name);
    snprintf(row.params, sizeof row.params, "%s", run->params);
    snprintf(row.dtype, sizeof row.dtype, "%s", mmb_dtype_info(run->dtype)->text);
    snprintf(row.cache, sizeof row.cache, "%s", mmb_cache_text(profile->cache));
    row.m = run->size->m;
    row.n = run->size->n;
    row.k = run->size->k;
    char key[MMB_ROW_KEY_LEN];
    mmb_row_key(&row, false, key, sizeof key);
    run_keys = realloc(run_keys, (nrun_keys + 1) * sizeof *run_keys);
    if (!run_keys || !(run_keys[nrun_keys++] = strdup(key)))
        abort();
    return 0;
}

static void setup_once(void)
{
    if (profile)
        return;
    snprintf(profile_path, sizeof profile_path, "%s", fuzz_file("merge.ini", (const uint8_t *)profile_text,
                                                                 sizeof profile_text - 1));
    snprintf(data_dir, sizeof data_dir, "%s/data", fuzz_dir);
    char err[1024];
    if (!(profile = calloc(1, sizeof *profile)) || mmb_profile_load(profile_path, profile, err, sizeof err) != 0) {
        fprintf(stderr, "fuzz_merge: %s\n", err);
        abort();
    }
    struct mmb_shard all = {0, 0};
    mmb_shard_each_run(profile, &all, add_run, NULL);
    qsort(run_keys, nrun_keys, sizeof *run_keys, key_cmp);
}

/* A name under data/: letters, digits, '.', '_', '-' and at most one '/', no "..",
 * not empty; a bare name goes in g/. False when nothing usable is left. */
static bool clean_name(const char *in, size_t len, char *out, size_t size)
{
    char name[160];
    size_t n = 0, slashes = 0;
    for (size_t i = 0; i < len && n + 1 < sizeof name; i++) {
        char c = in[i];
        if (isalnum((unsigned char)c) || c == '.' || c == '_' || c == '-' || (c == '/' && n > 0 && !slashes++))
            name[n++] = c;
    }
    name[n] = '\0';
    if (!n || strstr(name, "..") || name[0] == '.')
        return false;
    snprintf(out, size, "%s%s", strchr(name, '/') ? "" : "g/", name);
    return true;
}

static void make_dirs(const char *path)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s", path);
    for (char *s = strchr(dir + strlen(data_dir) + 1, '/'); s; s = strchr(s + 1, '/')) {
        *s = '\0';
        mkdir(dir, 0700);
        *s = '/';
    }
}

static void make_record(const uint8_t *rec, size_t len)
{
    const uint8_t *nl = memchr(rec, '\n', len);
    size_t name_len = nl ? (size_t)(nl - rec) : len;
    char name[200], path[512];
    if (!clean_name((const char *)rec, name_len, name, sizeof name))
        return;
    snprintf(path, sizeof path, "%s/%s", data_dir, name);
    make_dirs(path);
    const uint8_t *text = nl ? nl + 1 : rec + len;
    size_t text_len = (size_t)(rec + len - text);
    if (path[strlen(path) - 1] == '/') {
        mkdir(path, 0700);
    } else if (text_len >= 2 && !memcmp(text, "->", 2)) {
        char target[160];
        size_t t = 0;
        for (size_t i = 2; i < text_len && text[i] != '\n' && t + 1 < sizeof target; i++)
            if (text[i] != '/' && text[i] != '\0')
                target[t++] = (char)text[i];
        target[t] = '\0';
        if (t)
            symlink(target, path); /* a sibling: it may dangle or loop, never leaves data/ */
    } else {
        FILE *f = fopen(path, "wb");
        if (f) {
            fwrite(text, 1, text_len, f);
            fclose(f);
        }
    }
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    return remove(path);
}

/* What merge wrote: g/merge.csv files that are new since before (rename makes a new inode). */
struct before {
    char path[512];
    ino_t ino;
    bool existed;
};

static int each_row(void *ctx, const struct mmb_row *row, const char *path, long line, char *err, size_t errlen)
{
    char ***seen = ctx;
    char key[MMB_ROW_KEY_LEN], with_device[MMB_ROW_KEY_LEN];
    mmb_row_key(row, false, key, sizeof key);
    const char *k = key;
    if ((row->profile[0] && strcmp(row->profile, "merge")) || !bsearch(&k, run_keys, nrun_keys, sizeof *run_keys,
                                                                       key_cmp)) {
        fprintf(stderr, "fuzz_merge: %s:%ld: merge wrote a row that is not a run of the profile\n", path, line);
        abort();
    }
    mmb_row_key(row, true, with_device, sizeof with_device);
    for (char **s = *seen; s && *s; s++)
        if (!strcmp(*s, with_device)) {
            fprintf(stderr, "fuzz_merge: %s:%ld: merge wrote a configuration twice for one GPU\n", path, line);
            abort();
        }
    size_t n = 0;
    while (*seen && (*seen)[n])
        n++;
    *seen = realloc(*seen, (n + 2) * sizeof **seen);
    if (!*seen || !((*seen)[n] = strdup(with_device)))
        abort();
    (*seen)[n + 1] = NULL;
    return 0;
}

static void check_written(const struct before *b)
{
    struct stat st;
    if (lstat(b->path, &st) != 0 || !S_ISREG(st.st_mode) || (b->existed && st.st_ino == b->ino))
        return;
    char **seen = NULL, err[1024];
    if (mmb_csv_read(b->path, each_row, &seen, err, sizeof err) != 0) {
        fprintf(stderr, "fuzz_merge: merge wrote a CSV it cannot read back: %s\n", err);
        abort();
    }
    for (char **s = seen; s && *s; s++)
        free(*s);
    free(seen);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    setup_once();
    nftw(data_dir, remove_one, 8, FTW_DEPTH | FTW_PHYS);
    mkdir(data_dir, 0700);
    bool tune = size > 0 && (data[0] & 1);
    const uint8_t *p = size ? data + 1 : data, *end = data + size;
    for (int r = 0; r < RECORDS_MAX && p < end; r++) {
        const uint8_t *nul = memchr(p, '\0', (size_t)(end - p));
        size_t len = nul ? (size_t)(nul - p) : (size_t)(end - p);
        make_record(p, len);
        p += len + (nul != NULL);
    }
    /* the merged files there before (the fuzzer's own g/merge.csv is input, not output) */
    static const char *const folders[] = {"g", "h", "g2"};
    struct before before[3];
    char stem[128];
    if (mmb_csv_name_stem(profile->name, tune, stem, sizeof stem) != 0)
        abort();
    for (int i = 0; i < 3; i++) {
        struct stat st;
        snprintf(before[i].path, sizeof before[i].path, "%s/%s/%s.csv", data_dir, folders[i], stem);
        before[i].existed = lstat(before[i].path, &st) == 0;
        before[i].ino = before[i].existed ? st.st_ino : 0;
    }
    char *argv[] = {"merge", "--data-dir", data_dir, tune ? "--tune" : profile_path, tune ? profile_path : NULL, NULL};
    int rc = mmb_cmd_merge(tune ? 5 : 4, argv);
    if (rc == 0 || rc == 1)
        for (int i = 0; i < 3 && !tune; i++)
            check_written(&before[i]);
    return 0;
}
