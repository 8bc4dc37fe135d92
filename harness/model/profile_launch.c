/* profile_launch.c - the [kernel] keys and values for the launch features of recent
 * GPUs: `target` (the architectures a kernel is written for: sm_90 and newer, or the
 * arch-specific sm_90a that wgmma and setmaxnreg need) and the tma(X, box_inner, box_outer, swizzle) item of `args` (a TMA tensor
 * map of a matrix). A box whose values do not depend on the parameters is checked
 * when the file has been read, at every dtype its kernel runs; the rest, and the
 * matrices' pitches, are checked per configuration (model/tma.h). Thread-block
 * clusters are geometry keys (profile.c). Grammar: docs/profiles.md. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "model/profile.h"
#include "model/profile_parse.h"
#include "model/tma.h"

/* ---- target ---- */

/* "sm_90a" -> {90, true}, "sm_90" -> {90, false}; arch -1 when item[0..len) is
 * neither. */
static struct mmb_target parse_target(const char *item, size_t len)
{
    struct mmb_target t = {-1, false};
    if (len < 5 || strncmp(item, "sm_", 3) != 0)
        return t;
    t.specific = item[len - 1] == 'a';
    size_t digits = len - 3 - t.specific;
    if (digits < 2 || digits > 3 || item[3] == '0')
        return t;
    int v = 0;
    for (size_t i = 3; i < 3 + digits; i++) {
        if (!isdigit((unsigned char)item[i]))
            return t;
        v = v * 10 + (item[i] - '0');
    }
    t.arch = v;
    return t;
}

static int target_item(void *ctx, const char *item, size_t len, char *msg, size_t msglen)
{
    struct mmb_kernel_spec *k = ctx;
    struct mmb_target t = parse_target(item, len);
    if (t.arch < 0)
        return mmb_profile_msgf(msg, msglen, "target '%.*s'; expected sm_XY (compute capability X.Y or newer) or "
                                "sm_XYa (X.Y only, its arch-specific features), such as sm_90 or sm_90a", (int)len,
                                item);
    if (t.specific && t.arch < 90)
        return mmb_profile_msgf(msg, msglen, "target '%.*s': arch-specific targets begin with sm_90a", (int)len,
                                item);
    for (int i = 0; i < k->ntargets; i++)
        if (k->targets[i].arch == t.arch && k->targets[i].specific == t.specific)
            return mmb_profile_msgf(msg, msglen, "target '%.*s' is listed twice", (int)len, item);
    if (k->ntargets == MMB_MAX_TARGETS)
        return mmb_profile_msgf(msg, msglen, "more than %d targets", MMB_MAX_TARGETS);
    k->targets[k->ntargets++] = t;
    return 0;
}

int mmb_profile_key_target(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    return mmb_profile_each_item(value, target_item, ld->kernel, msg, msglen);
}

void mmb_kernel_targets_text(const struct mmb_kernel_spec *kernel, char *buf, size_t len)
{
    if (!len)
        return;
    buf[0] = '\0';
    for (int i = 0; i < kernel->ntargets; i++) {
        char one[16];
        snprintf(one, sizeof one, "sm_%d%s", kernel->targets[i].arch, kernel->targets[i].specific ? "a" : "");
        mmb_join_append(buf, len, ", ", one);
    }
}

bool mmb_kernel_target(const struct mmb_kernel_spec *kernel, int arch, bool *specific, char *why, size_t whylen)
{
    *specific = false;
    bool plain = kernel->ntargets == 0;
    for (int i = 0; i < kernel->ntargets; i++) {
        const struct mmb_target *t = &kernel->targets[i];
        if (t->specific && t->arch == arch) {
            *specific = true;
            return true;
        }
        plain |= !t->specific && t->arch <= arch;
    }
    if (plain)
        return true;
    char admits[256] = "";
    for (int i = 0; i < kernel->ntargets; i++) {
        const struct mmb_target *t = &kernel->targets[i];
        char one[64];
        snprintf(one, sizeof one, "sm_%d%s (compute capability %d.%d %s)", t->arch, t->specific ? "a" : "",
                 t->arch / 10, t->arch % 10, t->specific ? "only" : "or newer");
        mmb_join_append(admits, sizeof admits, " and ", one);
    }
    mmb_errorf(why, whylen, "kernel '%s' is built for %s, its target, and not for sm_%d", kernel->name, admits,
               arch);
    return false;
}

/* ---- tma(X, box_inner, box_outer, swizzle) in args ---- */

bool mmb_profile_is_tma_item(const char *item, size_t len)
{
    if (len < 3 || strncmp(item, "tma", 3) != 0)
        return false;
    size_t i = 3;
    while (i < len && isspace((unsigned char)item[i]))
        i++;
    return i < len && item[i] == '(';
}

struct tma_parts {
    char text[4][200];
    int n;
};

static int tma_part(void *ctx, const char *item, size_t len, char *msg, size_t msglen)
{
    struct tma_parts *t = ctx;
    if (t->n < 4) {
        if (len >= sizeof t->text[0])
            return mmb_profile_msgf(msg, msglen, "a value of %zu characters; expected at most %zu", len,
                                    sizeof t->text[0] - 1);
        memcpy(t->text[t->n], item, len);
        t->text[t->n][len] = '\0';
    }
    t->n++;
    return 0;
}

int mmb_profile_parse_tma(struct mmb_kernel_spec *k, const char *item, size_t len, char *msg, size_t msglen)
{
    const int index = k->nargs + 1;
    const char *open = memchr(item, '(', len);
    if (item[len - 1] != ')')
        return mmb_profile_msgf(msg, msglen, "argument %d: '%.*s' does not end with ')'; expected tma(A, box_inner, "
                                "box_outer, swizzle)", index, (int)len, item);
    char inner[256], pmsg[256];
    size_t n = (size_t)(item + len - 1 - (open + 1));
    if (n >= sizeof inner)
        return mmb_profile_msgf(msg, msglen, "argument %d is %zu characters long; expected at most %zu", index, len,
                                sizeof inner - 1);
    memcpy(inner, open + 1, n);
    inner[n] = '\0';
    struct tma_parts t = {.n = 0};
    if (mmb_profile_each_item(inner, tma_part, &t, pmsg, sizeof pmsg))
        return mmb_profile_msgf(msg, msglen, "argument %d: %s", index, pmsg);
    if (t.n != 4)
        return mmb_profile_msgf(msg, msglen, "argument %d: tma() takes 4 values, got %d; expected tma(X, box_inner, "
                                "box_outer, swizzle) with X one of A, B, C", index, t.n);
    static const char roles[] = "ABC";
    if (strlen(t.text[0]) != 1 || !strchr(roles, t.text[0][0]))
        return mmb_profile_msgf(msg, msglen, "argument %d: tma() of '%s'; expected the matrix A, B or C first", index,
                                t.text[0]);
    struct mmb_kernel_arg *a = &k->args[k->nargs];
    memset(a, 0, sizeof *a);
    a->kind = MMB_ARG_TMA;
    a->matrix = (enum mmb_arg_kind)(strchr(roles, t.text[0][0]) - roles);
    static const char *const what[] = {"box_inner", "box_outer", "swizzle"};
    struct mmb_expr **slots[] = {&a->box_inner, &a->box_outer, &a->swizzle};
    for (int i = 0; i < 3; i++) {
        char eerr[512];
        if (!(*slots[i] = mmb_expr_parse(t.text[i + 1], eerr, sizeof eerr))) {
            for (int j = 0; j < i; j++)
                mmb_expr_free(*slots[j]);
            memset(a, 0, sizeof *a);
            return mmb_profile_msgf(msg, msglen, "argument %d: tma() %s: %s", index, what[i], eerr);
        }
    }
    k->nargs++;
    return 0;
}

/* ---- the boxes, once the dtypes are known ---- */

static int other_than_elem_size(void *ctx, const char *name, size_t len, size_t column)
{
    return !(len == 9 && !memcmp(name, "elem_size", 9));
}

static bool elem_size_lookup(void *ctx, const char *name, size_t len, long long *value)
{
    if (len != 9 || memcmp(name, "elem_size", 9) != 0)
        return false;
    *value = *(const long long *)ctx;
    return true;
}

/* Evaluates e when it names nothing but elem_size: 1 (known, *v set), 0 (depends on
 * the configuration), -1 (fails: err). */
static int eval_fixed(const struct mmb_expr *e, long long elem_size, long long *v, char *err, size_t errlen)
{
    if (mmb_expr_each_name(e, other_than_elem_size, NULL))
        return 0;
    return mmb_expr_eval(e, elem_size_lookup, &elem_size, v, err, errlen) ? -1 : 1;
}

/* Every rule that the values known without a configuration can break, at dtype d. */
static int check_box_at(const struct mmb_kernel_arg *a, enum mmb_dtype d, char *err, size_t errlen)
{
    const struct mmb_dtype_info *info = mmb_dtype_info(d);
    size_t bytes = mmb_tma_type_bytes(mmb_tma_type_of(d, a->matrix));
    if (!bytes)
        return mmb_failf(err, errlen, "%s has no TMA element type for %s", info->text, mmb_tma_matrix_name(a->matrix));
    const struct mmb_expr *e[3] = {a->box_inner, a->box_outer, a->swizzle};
    static const char *const what[] = {"box_inner", "box_outer", "swizzle"};
    long long v[3];
    int known[3];
    for (int i = 0; i < 3; i++) {
        char eerr[256];
        if ((known[i] = eval_fixed(e[i], (long long)info->size, &v[i], eerr, sizeof eerr)) < 0)
            return mmb_failf(err, errlen, "%s: %s", what[i], eerr);
    }
    if ((known[0] && mmb_tma_check_box_dim(what[0], v[0], err, errlen)) ||
        (known[1] && mmb_tma_check_box_dim(what[1], v[1], err, errlen)) ||
        (known[2] && mmb_tma_check_swizzle(v[2], err, errlen)))
        return -1;
    struct mmb_tma_box box = {.matrix = a->matrix, .inner = v[0], .outer = 1, .swizzle = v[2]};
    char why[256];
    if (known[0] && known[2] && mmb_tma_check_box(&box, bytes, why, sizeof why))
        return mmb_failf(err, errlen, "at %s, %s", info->text, why);
    return 0;
}

int mmb_profile_check_tma(struct loader *ld)
{
    const struct mmb_profile *p = ld->p;
    for (int ki = 0; ki < p->nkernels; ki++) {
        const struct mmb_kernel_spec *k = &p->kernels[ki];
        for (int i = 0; i < k->nargs; i++) {
            const struct mmb_kernel_arg *a = &k->args[i];
            if (a->kind != MMB_ARG_TMA)
                continue;
            for (int d = 0; d < MMB_DTYPE_COUNT; d++) {
                char why[512];
                if (mmb_kernel_runs_dtype(p, k, (enum mmb_dtype)d) &&
                    check_box_at(a, (enum mmb_dtype)d, why, sizeof why))
                    return mmb_profile_fail(ld, k->args_line, "argument %d, tma(%s, %s, %s, %s): %s", i + 1,
                                            mmb_tma_matrix_name(a->matrix), mmb_expr_text(a->box_inner),
                                            mmb_expr_text(a->box_outer), mmb_expr_text(a->swizzle), why);
            }
        }
    }
    return 0;
}
