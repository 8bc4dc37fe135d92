/* profile_parse.h - private to model/profile.c and model/profile_parse.c: the INI
 * reader with line numbers that profile.c's section and key tables plug into. The
 * reader finds the section a header names and the key a line sets, rejects unknown
 * and repeated ones, and hands the value to the key's parse function; every
 * message is "path:line: ...", and the first error wins. */
#ifndef MMB_PROFILE_PARSE_H
#define MMB_PROFILE_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/dtype.h"
#include "core/expr.h"

/* A profile file is refused above this size. */
#define MMB_PROFILE_MAX ((size_t)1 << 20)

/* What profile.c's key functions fill in; the reader itself only carries them. */
struct mmb_kernel_spec;
struct mmb_profile;

#define MAX_KEYS 32

struct loader;

/* Returns 0, or -1 with msg set (or left empty for the generic "expected ..."). */
typedef int (*key_fn)(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen);

enum key_flag {
    KEY_PREFIX = 1,      /* key is a prefix: param.NAME, tolerance.DTYPE */
    KEY_REPEAT = 2,      /* may appear any number of times */
    KEY_SOURCE_ONLY = 4, /* a library kernel rejects it (checked by [kernel]'s end) */
};

struct key_def {
    const char *key;
    key_fn parse;
    const char *expect; /* what a good value looks like */
    unsigned flags;
    const char *shown;  /* how messages spell a prefix key */
    /* When set, writes what a good value looks like from a table, instead of expect. */
    void (*expect_list)(char *buf, size_t len);
};

struct section_def {
    const char *prefix;  /* "profile", or "kernel" followed by a name */
    const char *shown;   /* "[kernel NAME]" */
    bool named;
    int (*begin)(struct loader *ld, const char *name);
    int (*end)(struct loader *ld);
    const struct key_def *keys;
};

struct loader {
    /* The reader's state. */
    const char *path;
    const struct section_def *sections; /* ends with a NULL prefix */
    FILE *f;
    char *buf;
    size_t cap;
    int line;
    const struct section_def *section;
    char section_text[128];
    int section_line;
    int key_lines[MAX_KEYS]; /* first line of each key of the current section; 0 = unset */
    bool failed;
    char *err;
    size_t errlen;
    /* What profile.c's tables fill in. */
    struct mmb_profile *p;
    struct mmb_kernel_spec *kernel;
    int profile_line;        /* of [profile] */
    int tolerance_lines[MMB_DTYPE_COUNT];
};

/* Reads ld->path through ld->sections, then calls finish (after the last section's
 * end). Returns 0, or -1 with ld->err set. */
int mmb_profile_parse_file(struct loader *ld, int (*finish)(struct loader *ld));

/* Sets ld->err to "path:line: ..." unless an error is already set; returns -1. */
int mmb_profile_fail(struct loader *ld, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A key's own message into msg; returns -1. */
int mmb_profile_msgf(char *msg, size_t msglen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Copies value into a fixed field; too long is an error, never a silent cut. */
int mmb_profile_copy_text(char *dst, size_t size, const char *value, char *msg, size_t msglen);

/* Value types that the keys of every section share. */

/* Numbers; each returns 0 or -1 (the generic "bad value ... expected ..."). */
int mmb_profile_parse_ll(const char *value, long long lo, long long hi, long long *out);
int mmb_profile_parse_int(const char *value, int lo, int *out);
/* Digits only: strtoull alone would accept "-1" as 2^64 - 1. */
int mmb_profile_parse_u64(const char *value, unsigned long long *out);
/* A finite number; the caller checks its bounds. */
int mmb_profile_parse_number(const char *value, double *out);

/* A C identifier: parameter and function names. */
bool mmb_profile_is_identifier(const char *s);
/* Letters, digits, '_', '.' and '-': names that end up in file names and CSV cells. */
bool mmb_profile_is_plain_name(const char *s);

/* One item of a comma-separated value, blanks trimmed; len 0 for an empty item.
 * Returns 0, or -1 with msg set. */
typedef int (*mmb_profile_item_fn)(void *ctx, const char *item, size_t len, char *msg, size_t msglen);
/* Calls fn for every item of value, in order; stops at the first that fails. Items
 * are separated by the commas outside parentheses. */
int mmb_profile_each_item(const char *value, mmb_profile_item_fn fn, void *ctx, char *msg, size_t msglen);

/* "f32, f64, i32": the dtype table's names, for messages. */
void mmb_profile_dtype_names(char *buf, size_t len);
/* "f32, f64" -> bits (1u << enum mmb_dtype); unknown, repeated or empty items are errors. */
int mmb_profile_parse_dtypes(const char *value, unsigned *bits, char *msg, size_t msglen);

/* The row of key in keys (a table ending with a NULL key), or -1. */
int mmb_profile_key_index(const struct key_def *keys, const char *key);

/* The [tune] section (profile_tune.c): its key table, its start, and the check of
 * the kernels it names, which runs once every [kernel] is known. */
extern const struct key_def mmb_profile_tune_keys[];
int mmb_profile_begin_tune(struct loader *ld, const char *name);
int mmb_profile_check_tune_kernels(struct loader *ld);

/* The timing keys of [profile] (profile_timing.c), and their check when [profile]
 * ends, given [profile]'s key table (for the lines in ld->key_lines). */
int mmb_profile_key_noise(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen);
int mmb_profile_key_min_samples(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen);
int mmb_profile_key_max_seconds(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen);
int mmb_profile_key_counters(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen);
int mmb_profile_end_timing(struct loader *ld, const struct key_def *keys);

/* The binding keys of [kernel] (profile_binding.c) and the check of their
 * expressions' names when the section ends, with profile.c's name check. */
int mmb_profile_key_function(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen);
int mmb_profile_key_args(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen);
int mmb_profile_key_define(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen);
int mmb_profile_key_prelude(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen);
typedef int (*mmb_profile_expr_check)(struct loader *ld, const struct mmb_expr *e, const char *key, int line);
int mmb_profile_end_binding(struct loader *ld, mmb_profile_expr_check check);

/* The [kernel] keys and values for recent GPUs (profile_launch.c): `target`, the
 * tma(...) item of `args` (item[0..len) into k's next argument), and the check, once
 * the whole file is read, of each tensor map's box at every dtype its kernel runs
 * where the box does not depend on the parameters. */
int mmb_profile_key_target(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen);
bool mmb_profile_is_tma_item(const char *item, size_t len);
int mmb_profile_parse_tma(struct mmb_kernel_spec *k, const char *item, size_t len, char *msg, size_t msglen);
int mmb_profile_check_tma(struct loader *ld);
/* The keys of the energy phase (profile_energy.c): [profile] energy, energy_seconds and
 * throttle_retries, throttle_threshold. */
int mmb_profile_key_energy(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen);
int mmb_profile_key_energy_seconds(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen);
int mmb_profile_key_throttle_retries(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen);
int mmb_profile_key_throttle_threshold(struct loader *ld, const char *key, const char *value, char *msg,
                                       size_t msglen);
/* The index of a [kernel] key in its table (for ld->key_lines). */
int mmb_profile_kernel_key_index(const char *key);

#endif
