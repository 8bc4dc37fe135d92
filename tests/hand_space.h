/* hand_space.h - for tests: kernel spaces built by hand, so that a test needs no
 * profile reader; seed 002's space among them. */
#ifndef MMB_TEST_HAND_SPACE_H
#define MMB_TEST_HAND_SPACE_H

#include <check.h>
#include <stdio.h>
#include <string.h>

#include "core/expr.h"
#include "model/space.h"

static inline void add_param(struct mmb_kernel_spec *k, const char *name, const long long *values, int n)
{
    struct mmb_param *p = &k->params[k->nparams++];
    snprintf(p->name, sizeof p->name, "%s", name);
    memcpy(p->values, values, sizeof values[0] * (size_t)n);
    p->nvalues = n;
}

static inline void add_restriction(struct mmb_kernel_spec *k, const char *text)
{
    char err[256];
    struct mmb_expr *e = mmb_expr_parse(text, err, sizeof err);
    ck_assert_msg(e != NULL, "%s", err);
    k->restrictions[k->nrestrictions++].expr = e;
}

static inline void free_kernel(struct mmb_kernel_spec *k)
{
    for (int i = 0; i < k->nrestrictions; i++)
        mmb_expr_free(k->restrictions[i].expr);
}

/* Seed 002: block_size_x 16*2^i (i < 3), block_size_y 2^i (i < 6), tile sizes 2^i
 * (i < 4), restriction block_size_x == block_size_y * tile_size_y. */
static inline void seed002(struct mmb_kernel_spec *k)
{
    static const long long bx[] = {16, 32, 64}, by[] = {1, 2, 4, 8, 16, 32}, t[] = {1, 2, 4, 8};
    memset(k, 0, sizeof *k);
    snprintf(k->name, sizeof k->name, "tunable");
    add_param(k, "block_size_x", bx, 3);
    add_param(k, "block_size_y", by, 6);
    add_param(k, "tile_size_x", t, 4);
    add_param(k, "tile_size_y", t, 4);
    add_restriction(k, "block_size_x == block_size_y * tile_size_y");
}

#endif
