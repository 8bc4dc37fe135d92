/* tuner.c - the search loop. A proposal costs an evaluation only when it is allowed
 * and has no result yet: restricted configurations are counted (and recorded when
 * asked) for free, and results from an interrupted tune are replayed to the
 * strategy, which therefore walks the same path and continues where the
 * interrupted one stopped. */
#include "search/tuner.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "core/clock.h"
#include "core/error.h"
#include "core/imap.h"
#include "results/csv.h"

/* Spaces up to this size keep their restriction results in a byte per
 * configuration, and are counted up front (how many are allowed). */
#define MEMO_ARRAY_MAX ((size_t)1 << 24)
#define COUNT_MAX ((size_t)1 << 20)
/* Proposals mmb_tuner_first looks through for an allowed one. */
#define FIRST_PROPOSALS_MAX 4096

const char *mmb_tuner_stop_text(enum mmb_tuner_stop stop)
{
    static const char *const text[] = {
        [MMB_TUNER_FINISHED] = "the strategy finished",
        [MMB_TUNER_EXHAUSTED] = "every allowed configuration has a result",
        [MMB_TUNER_MAX_FEVALS] = "max_fevals reached",
        [MMB_TUNER_TIME_LIMIT] = "time limit reached",
        [MMB_TUNER_INTERRUPTED] = "interrupted",
    };
    return (unsigned)stop < MMB_COUNT(text) ? text[stop] : "?";
}

/* ---- the loop ---- */

/* MEMO_ELSEWHERE: another shard's, which this search neither proposes nor counts. */
enum memo_class { MEMO_UNKNOWN, MEMO_ALLOWED, MEMO_RESTRICTED, MEMO_INVALID, MEMO_ELSEWHERE };
#define MEMO_CLASS 7u
#define MEMO_COUNTED 8u /* counted and queued for recording: once per configuration */

struct tuner {
    const struct mmb_tuner_options *o;
    const struct mmb_tuner_callbacks *cb;
    struct mmb_tune_history *history;
    struct mmb_tuner_result *res;
    struct mmb_search search;
    unsigned char *memo_array;
    struct mmb_imap memo_map;
    struct mmb_imap touched;     /* results the search has used this invocation */
    size_t *pending;             /* restricted or invalid, to be recorded */
    size_t npending, cap_pending;
    size_t known_allowed;        /* allowed configurations with a result */
    bool peeking;
    bool failed;                 /* out of memory inside a strategy callback */
    size_t *peek;
};

static unsigned memo_get(const struct tuner *t, size_t index)
{
    if (t->memo_array)
        return t->memo_array[index];
    uintptr_t v = 0;
    mmb_imap_get(&t->memo_map, index, &v);
    return (unsigned)v;
}

static void memo_set(struct tuner *t, size_t index, unsigned code)
{
    if (t->memo_array)
        t->memo_array[index] = (unsigned char)code;
    else if (mmb_imap_put(&t->memo_map, index, code) != 0)
        t->failed = true;
}

static bool in_shard(const struct mmb_tuner_options *o, const struct mmb_config *cfg)
{
    if (mmb_shard_is_all(&o->shard))
        return true;
    const struct mmb_row *id = o->identity;
    char params[MMB_PARAMS_LEN];
    mmb_space_format_params(o->kernel, cfg, params, sizeof params);
    return mmb_shard_of(id->kernel, params, id->dtype, id->m, id->n, id->k, o->shard.n) == o->shard.k;
}

static unsigned classify(struct tuner *t, size_t index)
{
    unsigned code = memo_get(t, index);
    if ((code & MEMO_CLASS) == MEMO_UNKNOWN) {
        const struct mmb_tuner_options *o = t->o;
        struct mmb_config cfg;
        int failed;
        char why[8];
        mmb_space_config_at(o->kernel, index, &cfg);
        if (in_shard(o, &cfg)) {
            int r = mmb_space_allowed(o->kernel, &cfg, &o->size, o->elem_size, &failed, why, sizeof why);
            code = r == 1 ? MEMO_ALLOWED : r == 0 ? MEMO_RESTRICTED : MEMO_INVALID;
        } else {
            code = MEMO_ELSEWHERE;
        }
        memo_set(t, index, code);
    }
    return code;
}

/* The strategies' view of the restrictions. Outside peeks, the first meeting with
 * a removed configuration counts it and queues its row. */
static bool search_allowed(void *ctx, size_t index)
{
    struct tuner *t = ctx;
    unsigned code = classify(t, index);
    unsigned cls = code & MEMO_CLASS;
    if (cls == MEMO_ALLOWED)
        return true;
    if (cls == MEMO_ELSEWHERE)
        return false;
    if (!t->peeking && !(code & MEMO_COUNTED)) {
        memo_set(t, index, code | MEMO_COUNTED);
        if (cls == MEMO_RESTRICTED)
            t->res->restricted++;
        bool known = mmb_tune_history_find(t->history, index) != NULL;
        if (!known && (cls == MEMO_INVALID || t->o->record_restricted)) {
            if (t->npending == t->cap_pending) {
                size_t cap = t->cap_pending ? 2 * t->cap_pending : 64;
                size_t *p = realloc(t->pending, cap * sizeof *p);
                if (!p) {
                    t->failed = true;
                    return false;
                }
                t->pending = p;
                t->cap_pending = cap;
            }
            t->pending[t->npending++] = index;
        }
    }
    return false;
}

static void row_for(const struct tuner *t, size_t index, struct mmb_config *cfg, struct mmb_row *row)
{
    *row = *t->o->identity;
    mmb_space_config_at(t->o->kernel, index, cfg);
    mmb_space_format_params(t->o->kernel, cfg, row->params, sizeof row->params);
}

static int record(struct tuner *t, size_t index, struct mmb_row *row, char *err, size_t errlen)
{
    if (!row->timestamp[0])
        mmb_timestamp_utc(row->timestamp, sizeof row->timestamp);
    if (t->cb->record(t->cb->ctx, row, err, errlen) != 0)
        return -1;
    if (mmb_tune_history_add(t->history, index, row) != 0) {
        mmb_errorf(err, errlen, "out of host memory");
        return -1;
    }
    t->res->recorded++;
    if ((unsigned)row->status < MMB_STATUS_COUNT)
        t->res->by_status[row->status]++;
    return 0;
}

/* Rows for the configurations the restrictions removed since the last call. */
static int drain_pending(struct tuner *t, char *err, size_t errlen)
{
    if (t->failed) {
        mmb_errorf(err, errlen, "out of host memory");
        return -1;
    }
    const struct mmb_kernel_spec *k = t->o->kernel;
    for (size_t i = 0; i < t->npending; i++) {
        size_t index = t->pending[i];
        struct mmb_config cfg;
        struct mmb_row row;
        int failed = -1;
        row_for(t, index, &cfg, &row);
        int r = mmb_space_allowed(k, &cfg, &t->o->size, t->o->elem_size, &failed, row.reason, sizeof row.reason);
        if (r == 0) {
            row.status = MMB_STATUS_RESTRICTED;
            snprintf(row.reason, sizeof row.reason, "%s", mmb_expr_text(k->restrictions[failed].expr));
        } else {
            row.status = MMB_STATUS_INVALID_CONFIG;
        }
        if (record(t, index, &row, err, errlen) != 0)
            return -1;
    }
    t->npending = 0;
    return 0;
}

/* The score as a resumed tune will read it back from the CSV. A fresh measurement
 * is rounded the same way, so that an interrupted search replays to the very same
 * decisions. */
static double score_of(const struct tuner *t, const struct mmb_row *row)
{
    return mmb_csv_round(mmb_objective_score(&t->o->objective, row));
}

/* The best row, and the front of a two-objective search (scores rounded as score_of
 * rounds them); -1 out of host memory. */
static int consider_best(struct tuner *t, size_t index, const struct mmb_row *row)
{
    struct mmb_tuner_result *res = t->res;
    double score = score_of(t, row);
    if (isinf(score))
        return 0;
    if (!res->have_best || score < score_of(t, &res->best)) {
        res->have_best = true;
        res->best_index = index;
        res->best = *row;
    }
    if (!t->o->objective.second)
        return 0;
    double both[2];
    mmb_objective_scores(&t->o->objective, row, both);
    both[0] = mmb_csv_round(both[0]);
    both[1] = mmb_csv_round(both[1]);
    return mmb_pareto_add(&res->front, index, both, row) < 0 ? -1 : 0;
}

static void count_known(void *ctx, size_t index, const struct mmb_row *row)
{
    struct tuner *t = ctx;
    if (row->status != MMB_STATUS_RESTRICTED && index < t->res->space &&
        (classify(t, index) & MEMO_CLASS) == MEMO_ALLOWED)
        t->known_allowed++;
}

static int setup(struct tuner *t, char *err, size_t errlen)
{
    const struct mmb_tuner_options *o = t->o;
    struct mmb_tuner_result *res = t->res;
    res->space = mmb_space_size(o->kernel);
    if (res->space <= MEMO_ARRAY_MAX && !(t->memo_array = calloc(res->space ? res->space : 1, 1)))
        goto oom;
    if (!(t->peek = malloc((o->lookahead + 1) * sizeof *t->peek)))
        goto oom;
    if (res->space <= COUNT_MAX)
        for (size_t i = 0; i < res->space; i++) { /* classify() memoises; only the search counts */
            unsigned cls = classify(t, i) & MEMO_CLASS;
            res->allowed += cls == MEMO_ALLOWED;
            res->elsewhere += cls == MEMO_ELSEWHERE;
        }
    mmb_tune_history_each(t->history, count_known, t);
    if (t->failed)
        goto oom;
    t->search = (struct mmb_search){
        .kernel = o->kernel, .seed = o->seed, .max_fevals = o->max_fevals,
        .allowed = search_allowed, .allowed_ctx = t,
    };
    /* A budget beyond the allowed configurations would stretch annealing's schedule
     * past what can ever be measured (Kernel Tuner caps it the same way). */
    if (res->allowed && (!o->max_fevals || o->max_fevals > res->allowed))
        t->search.max_fevals = res->allowed;
    return mmb_search_init(&t->search, o->strategy, err, errlen);
oom:
    mmb_errorf(err, errlen, "out of host memory for a space of %zu configurations", res->space);
    return -1;
}

/* Hands the configuration about to be measured and the strategy's next ones to the
 * compile-ahead hook, leaving out what needs no compile. */
static void prefetch(struct tuner *t, size_t index)
{
    if (!t->cb->prefetch || !t->o->lookahead)
        return;
    size_t n = 0;
    t->peek[n++] = index;
    t->peeking = true;
    size_t got = t->search.ops->peek(&t->search, t->peek + 1, t->o->lookahead);
    for (size_t i = 0; i < got; i++) {
        size_t x = t->peek[1 + i];
        if (x != index && !mmb_tune_history_find(t->history, x) && (classify(t, x) & MEMO_CLASS) == MEMO_ALLOWED)
            t->peek[n++] = x;
    }
    t->peeking = false;
    t->cb->prefetch(t->cb->ctx, t->peek, n);
}

/* A result the search uses for the first time this invocation counts as a
 * function evaluation, whether measured now or by the interrupted tune. */
static int touch(struct tuner *t, size_t index, bool resumed)
{
    if (mmb_imap_get(&t->touched, index, NULL))
        return 0;
    if (mmb_imap_put(&t->touched, index, 1) != 0)
        return -1;
    t->search.fevals++;
    t->res->fevals++;
    if (resumed)
        t->res->resumed++;
    return 0;
}

static bool should_stop(struct tuner *t, double t0)
{
    const struct mmb_tuner_options *o = t->o;
    struct mmb_tuner_result *res = t->res;
    if (o->max_fevals && res->fevals >= o->max_fevals)
        res->stop = MMB_TUNER_MAX_FEVALS;
    else if (o->time_limit > 0 && mmb_seconds_now() - t0 >= o->time_limit)
        res->stop = MMB_TUNER_TIME_LIMIT;
    else if (t->cb->interrupted && t->cb->interrupted(t->cb->ctx))
        res->stop = MMB_TUNER_INTERRUPTED;
    else if (o->strategy->revisits && res->allowed && t->known_allowed >= res->allowed)
        res->stop = MMB_TUNER_EXHAUSTED;
    else if (t->search.ops->done(&t->search))
        res->stop = MMB_TUNER_FINISHED;
    else
        return false;
    return true;
}

static int step(struct tuner *t, char *err, size_t errlen)
{
    struct mmb_tuner_result *res = t->res;
    size_t index = t->search.ops->next(&t->search);
    res->proposals++;
    if (drain_pending(t, err, errlen) != 0)
        return -1;
    const struct mmb_row *known = mmb_tune_history_find(t->history, index);
    unsigned cls = index < res->space ? classify(t, index) & MEMO_CLASS : MEMO_INVALID;
    double score = INFINITY;
    if (known && known->status != MMB_STATUS_RESTRICTED && cls == MEMO_ALLOWED) {
        if (touch(t, index, true) != 0)
            goto oom;
        score = score_of(t, known);
        if (consider_best(t, index, known) != 0)
            goto oom;
    } else if (cls != MEMO_ALLOWED) {
        search_allowed(t, index); /* counts and queues it, once */
        if (drain_pending(t, err, errlen) != 0)
            return -1;
    } else {
        struct mmb_config cfg;
        struct mmb_row row;
        row_for(t, index, &cfg, &row);
        prefetch(t, index);
        double e0 = mmb_seconds_now();
        int rc = t->cb->evaluate(t->cb->ctx, index, &cfg, &row, err, errlen);
        res->evaluate_seconds += mmb_seconds_now() - e0;
        if (rc != 0 || record(t, index, &row, err, errlen) != 0)
            return -1;
        if (touch(t, index, false) != 0)
            goto oom;
        res->evaluated++;
        t->known_allowed++;
        score = score_of(t, &row);
        if (consider_best(t, index, &row) != 0)
            goto oom;
    }
    t->search.ops->observe(&t->search, index, score);
    return drain_pending(t, err, errlen);
oom:
    mmb_errorf(err, errlen, "out of host memory");
    return -1;
}

static void tuner_free(struct tuner *t)
{
    mmb_search_free(&t->search);
    free(t->memo_array);
    mmb_imap_free(&t->memo_map);
    mmb_imap_free(&t->touched);
    free(t->pending);
    free(t->peek);
}

size_t mmb_tuner_first(const struct mmb_tuner_options *o, struct mmb_tune_history *history, size_t *out,
                       size_t max)
{
    struct mmb_tuner_result *res = calloc(1, sizeof *res);
    if (!res || max == 0) {
        free(res);
        return 0;
    }
    struct mmb_tuner_options opts = *o;
    opts.lookahead = max - 1;
    struct mmb_tuner_callbacks none = {0};
    struct tuner t = {.o = &opts, .cb = &none, .history = history, .res = res};
    char err[256];
    size_t n = 0;
    mmb_row_init(&res->best);
    if (setup(&t, err, sizeof err) == 0) {
        /* the first proposal the loop would measure: restricted ones cost it nothing; a
         * search that meets thousands first finds its own way without compiling ahead */
        for (size_t tries = 0; tries < res->space && tries < FIRST_PROPOSALS_MAX && !t.search.ops->done(&t.search);
             tries++) {
            size_t index = t.search.ops->next(&t.search);
            if (index < res->space && (classify(&t, index) & MEMO_CLASS) == MEMO_ALLOWED) {
                if (!mmb_tune_history_find(history, index))
                    out[n++] = index;
                break;
            }
        }
        if (n && max > 1) { /* what the loop's first prefetch would add */
            t.peeking = true;
            size_t got = t.search.ops->peek(&t.search, t.peek, max - 1);
            for (size_t i = 0; i < got && n < max; i++) {
                size_t x = t.peek[i];
                if (x != out[0] && !mmb_tune_history_find(history, x) &&
                    (classify(&t, x) & MEMO_CLASS) == MEMO_ALLOWED)
                    out[n++] = x;
            }
        }
    }
    tuner_free(&t);
    free(res);
    return t.failed ? 0 : n;
}

int mmb_tuner_run(const struct mmb_tuner_options *o, const struct mmb_tuner_callbacks *cb,
                  struct mmb_tune_history *history, struct mmb_tuner_result *res, char *err, size_t errlen)
{
    struct tuner t = {.o = o, .cb = cb, .history = history, .res = res};
    double t0 = mmb_seconds_now();
    memset(res, 0, sizeof *res);
    mmb_row_init(&res->best);
    int rc = setup(&t, err, errlen);
    if (rc == 0)
        rc = drain_pending(&t, err, errlen); /* what init met */
    while (rc == 0 && !should_stop(&t, t0))
        rc = step(&t, err, errlen);
    res->seconds = mmb_seconds_now() - t0;
    mmb_pareto_sort(&res->front);
    tuner_free(&t);
    return rc;
}
