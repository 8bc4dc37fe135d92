/* best.c - the groups of counters = best and energy = best (best.h): rows held per group in a queue
 * with their launch times, each group's row to count, the fastest ok row of each group already in the file,
 * and the groups sent whole, in the order they were opened. */
#include "results/best/best.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/counters.h"
#include "core/hash.h"
#include "core/imap.h"
#include "results/columns.h"
#include "results/csv.h"

enum group_state { GROUP_OPEN, GROUP_WAITING, GROUP_READY };

/* A held row's launch times (a copy; NULL and 0: not timed). */
struct held_samples {
    double *v;
    size_t n;
};

struct group {
    uint64_t key;
    enum group_state state;
    struct mmb_row *rows;
    struct mmb_config *cfgs;
    struct held_samples *samples;
    size_t n, cap;
    size_t counted;      /* the row counted; SIZE_MAX: none */
};

/* The fastest ok row of a group in the file. */
struct known {
    double median;
    enum mmb_status counter_status;
    bool energy_asked; /* its energy window was run (measured or not) */
};

struct mmb_best {
    bool with_gpu;
    unsigned what;        /* MMB_BEST_COUNTERS, MMB_BEST_ENERGY */
    struct group *queue;  /* front first */
    size_t nqueue, cap;
    struct mmb_imap history; /* group key -> struct known * */
};

/* What a group is: the key columns (kernel, dtype, m, n, k, cache) and, with_gpu, the
 * device's; hashed, each cell with its terminating zero. */
static uint64_t group_key(const struct mmb_best *b, const struct mmb_row *row)
{
    uint64_t h = MMB_FNV_SEED;
    for (const struct mmb_column *c = mmb_columns; c->name; c++) {
        if (c->role != MMB_ROLE_KEY && !(b->with_gpu && c->role == MMB_ROLE_DEVICE))
            continue;
        char cell[512];
        mmb_column_format(c, row, cell, sizeof cell);
        h = mmb_hash_bytes(h, cell, strlen(cell) + 1);
    }
    return h;
}

/* An ok row with a time: what the report picks a best from. */
static bool timed_ok(const struct mmb_row *row)
{
    return row->status == MMB_STATUS_OK && isfinite(row->time_ms_median) && row->time_ms_median > 0;
}

/* Counters were asked of the row (read, or refused by the GPU). */
static bool counters_asked(enum mmb_status counter_status)
{
    return counter_status != MMB_STATUS_SKIPPED && counter_status != MMB_STATUS_NOT_BEST;
}

/* The energy window was run for the row: measured, or tried where it could not be. */
static bool energy_asked(const char *energy_status)
{
    enum mmb_energy_status st;
    return mmb_energy_status_parse(energy_status, &st) &&
           (st == MMB_ENERGY_STATUS_OK || st == MMB_ENERGY_STATUS_UNAVAILABLE || st == MMB_ENERGY_STATUS_FAILED);
}

static struct known known_of(const struct mmb_row *row)
{
    return (struct known){row->time_ms_median, row->counter_status, energy_asked(row->energy_status)};
}

struct mmb_best *mmb_best_new(bool with_gpu, unsigned what)
{
    if (!(what & (MMB_BEST_COUNTERS | MMB_BEST_ENERGY)))
        return NULL;
    struct mmb_best *b = calloc(1, sizeof *b);
    if (b) {
        b->with_gpu = with_gpu;
        b->what = what;
    }
    return b;
}

static void group_free(struct group *g)
{
    for (size_t i = 0; i < g->n; i++)
        free(g->samples[i].v);
    free(g->samples);
    free(g->rows);
    free(g->cfgs);
    memset(g, 0, sizeof *g);
}

static void free_known(void *ctx, size_t key, uintptr_t value)
{
    free((void *)value);
}

void mmb_best_free(struct mmb_best *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->nqueue; i++)
        group_free(&b->queue[i]);
    free(b->queue);
    mmb_imap_each(&b->history, free_known, NULL);
    mmb_imap_free(&b->history);
    free(b);
}

int mmb_best_history_add(struct mmb_best *b, const struct mmb_row *row)
{
    if (!timed_ok(row))
        return 0;
    uint64_t key = group_key(b, row);
    uintptr_t v;
    struct known *k = mmb_imap_get(&b->history, (size_t)key, &v) ? (struct known *)v : NULL;
    if (k) {
        if (row->time_ms_median < k->median) /* the first of equals stays, as the report keeps it */
            *k = known_of(row);
        return 0;
    }
    if (!(k = malloc(sizeof *k)))
        return -1;
    *k = known_of(row);
    if (mmb_imap_put(&b->history, (size_t)key, (uintptr_t)k) != 0) {
        free(k);
        return -1;
    }
    return 0;
}

struct history_ctx {
    struct mmb_best *b;
    bool (*keep)(void *ctx, const struct mmb_row *row);
    void *keep_ctx;
};

static int history_row(void *opaque, const struct mmb_row *row, const char *path, long line, char *err,
                       size_t errlen)
{
    struct history_ctx *h = opaque;
    if (h->keep && !h->keep(h->keep_ctx, row))
        return 0;
    if (mmb_best_history_add(h->b, row) != 0) {
        snprintf(err, errlen, "%s:%ld: out of memory", path, line);
        return -1;
    }
    return 0;
}

int mmb_best_history_load(struct mmb_best *b, const char *path, bool (*keep)(void *ctx, const struct mmb_row *row),
                          void *keep_ctx, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0; /* nothing there yet: the writer says why when it cannot make it */
    fclose(f);
    struct history_ctx h = {b, keep, keep_ctx};
    return mmb_csv_read_appended(path, history_row, &h, NULL, err, errlen);
}

static struct group *last_group(struct mmb_best *b)
{
    return b->nqueue ? &b->queue[b->nqueue - 1] : NULL;
}

int mmb_best_open(struct mmb_best *b, const struct mmb_row *identity)
{
    struct group *g = last_group(b);
    if (g && g->state == GROUP_OPEN)
        return -1;
    if (b->nqueue == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 8;
        struct group *q = realloc(b->queue, cap * sizeof *q);
        if (!q)
            return -1;
        b->queue = q;
        b->cap = cap;
    }
    g = &b->queue[b->nqueue++];
    memset(g, 0, sizeof *g);
    g->key = group_key(b, identity);
    g->state = GROUP_OPEN;
    g->counted = SIZE_MAX;
    return 0;
}

int mmb_best_hold(struct mmb_best *b, const struct mmb_row *row, const struct mmb_config *cfg,
                  const double *samples, size_t nsamples)
{
    struct group *g = last_group(b);
    if (!g || g->state != GROUP_OPEN)
        return -1;
    if (g->n == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 16;
        struct mmb_row *rows = realloc(g->rows, cap * sizeof *rows);
        if (!rows)
            return -1;
        g->rows = rows;
        struct mmb_config *cfgs = realloc(g->cfgs, cap * sizeof *cfgs);
        if (!cfgs)
            return -1;
        g->cfgs = cfgs;
        struct held_samples *held = realloc(g->samples, cap * sizeof *held);
        if (!held)
            return -1;
        g->samples = held;
        g->cap = cap;
    }
    struct held_samples copy = {NULL, 0};
    if (samples && nsamples) {
        if (!(copy.v = malloc(nsamples * sizeof *copy.v)))
            return -1;
        memcpy(copy.v, samples, nsamples * sizeof *copy.v);
        copy.n = nsamples;
    }
    g->samples[g->n] = copy;
    g->rows[g->n] = *row;
    if (cfg)
        g->cfgs[g->n] = *cfg;
    else
        memset(&g->cfgs[g->n], 0, sizeof g->cfgs[g->n]);
    g->n++;
    return 0;
}

const struct mmb_row *mmb_best_close(struct mmb_best *b, struct mmb_config *cfg, unsigned *missing)
{
    struct group *g = last_group(b);
    *missing = 0;
    if (!g || g->state != GROUP_OPEN)
        return NULL;
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < g->n; i++)
        if (timed_ok(&g->rows[i]) && (best == SIZE_MAX || g->rows[i].time_ms_median < g->rows[best].time_ms_median))
            best = i;
    uintptr_t v;
    const struct known *k = mmb_imap_get(&b->history, (size_t)g->key, &v) ? (const struct known *)v : NULL;
    bool beaten = k && (best == SIZE_MAX || !(g->rows[best].time_ms_median < k->median));
    if (beaten && (b->what & MMB_BEST_COUNTERS) && !counters_asked(k->counter_status))
        *missing |= MMB_BEST_COUNTERS;
    if (beaten && (b->what & MMB_BEST_ENERGY) && !k->energy_asked)
        *missing |= MMB_BEST_ENERGY;
    if (best == SIZE_MAX || beaten) {
        g->state = GROUP_READY;
        return NULL;
    }
    g->state = GROUP_WAITING;
    g->counted = best;
    *cfg = g->cfgs[best];
    return &g->rows[best];
}

int mmb_best_completed(struct mmb_best *b, const struct mmb_row *row)
{
    for (size_t i = 0; i < b->nqueue; i++) {
        struct group *g = &b->queue[i];
        if (g->state != GROUP_WAITING)
            continue;
        g->rows[g->counted] = *row; /* its launch times are those held: completing does not time */
        g->state = GROUP_READY;
        return 0;
    }
    return -1;
}

int mmb_best_drain(struct mmb_best *b,
                   int (*sink)(void *ctx, struct mmb_row *row, const double *samples, size_t nsamples), void *ctx)
{
    size_t sent = 0;
    int rc = 0;
    while (sent < b->nqueue && b->queue[sent].state == GROUP_READY && rc == 0) {
        struct group *g = &b->queue[sent];
        /* the counted row first: a group cut short while it was written (a killed
         * process) still holds its best, which a resumed sweep then compares with */
        if (g->counted != SIZE_MAX)
            rc = sink(ctx, &g->rows[g->counted], g->samples[g->counted].v, g->samples[g->counted].n);
        for (size_t i = 0; i < g->n && rc == 0; i++) {
            struct mmb_row *r = &g->rows[i];
            if (i == g->counted)
                continue;
            if (r->status == MMB_STATUS_OK && (b->what & MMB_BEST_COUNTERS))
                r->counter_status = MMB_STATUS_NOT_BEST;
            if (r->status == MMB_STATUS_OK && (b->what & MMB_BEST_ENERGY))
                snprintf(r->energy_status, sizeof r->energy_status, "%s",
                         mmb_energy_status_text(MMB_ENERGY_STATUS_NOT_BEST));
            rc = sink(ctx, r, g->samples[i].v, g->samples[i].n);
        }
        group_free(g);
        sent++;
    }
    memmove(b->queue, b->queue + sent, (b->nqueue - sent) * sizeof *b->queue);
    b->nqueue -= sent;
    return rc;
}

size_t mmb_best_drop(struct mmb_best *b)
{
    size_t rows = 0;
    for (size_t i = 0; i < b->nqueue; i++) {
        rows += b->queue[i].n;
        group_free(&b->queue[i]);
    }
    b->nqueue = 0;
    return rows;
}

size_t mmb_best_held(const struct mmb_best *b)
{
    return b->nqueue;
}
