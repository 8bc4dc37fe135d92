/* profile_binding.c - the [kernel] keys that bind a kernel as it is written: the
 * function as a C++ name or template instance, the argument list (matrices by role,
 * int expressions), -D defines computed from the problem and the parameters, the
 * grid as expressions, and the prelude of what nvcc makes visible. Checked when the
 * section ends, with the file:line of the key. */
#include "model/profile.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "model/macro_names.h"
#include "model/profile_parse.h"

/* name, ns::name, name<T, 16>: identifiers joined by '::', then at most one balanced
 * template argument list of identifiers, numbers, ',', '*', ':' and blanks. */
static bool is_function_name(const char *s)
{
    const char *p = s;
    for (;;) {
        if (!(isalpha((unsigned char)*p) || *p == '_'))
            return false;
        while (isalnum((unsigned char)*p) || *p == '_')
            p++;
        if (p[0] != ':' || p[1] != ':')
            break;
        p += 2;
    }
    if (!*p)
        return true;
    if (*p != '<')
        return false;
    int depth = 0;
    for (; *p; p++) {
        if (*p == '<')
            depth++;
        else if (*p == '>' && --depth == 0)
            return p[1] == '\0';
        else if (!(isalnum((unsigned char)*p) || strchr("_,*: ", *p)))
            return false;
    }
    return false;
}

int mmb_profile_key_function(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    if (!is_function_name(value))
        return mmb_profile_msgf(msg, msglen, "expected a function name such as 'matmul', 'ns::matmul' or "
                                "'matmul<elem_t>', got '%s'", value);
    return mmb_profile_copy_text(ld->kernel->function, sizeof ld->kernel->function, value, msg, msglen);
}

static int arg_item(void *ctx, const char *item, size_t len, char *msg, size_t msglen)
{
    struct mmb_kernel_spec *k = ctx;
    if (k->nargs == MMB_MAX_ARGS)
        return mmb_profile_msgf(msg, msglen, "more than %d arguments", MMB_MAX_ARGS);
    if (mmb_profile_is_tma_item(item, len)) {
        if (mmb_profile_parse_tma(k, item, len, msg, msglen))
            return -1;
        const struct mmb_kernel_arg *t = &k->args[k->nargs - 1];
        for (int i = 0; i < k->nargs - 1; i++)
            if (k->args[i].kind == MMB_ARG_TMA && k->args[i].matrix == t->matrix)
                return mmb_profile_msgf(msg, msglen, "argument %d is tma(%c) again (argument %d); expected at most one "
                                        "tensor map of each matrix", k->nargs, "ABC"[t->matrix], i + 1);
        return 0;
    }
    struct mmb_kernel_arg *a = &k->args[k->nargs];
    static const char roles[] = "ABC";
    if (len == 1 && strchr(roles, item[0])) {
        a->kind = (enum mmb_arg_kind)(strchr(roles, item[0]) - roles);
        for (int i = 0; i < k->nargs; i++)
            if (k->args[i].kind == a->kind)
                return mmb_profile_msgf(msg, msglen, "argument %d is %c again (argument %d); expected at most one "
                                        "pointer to each matrix", k->nargs + 1, item[0], i + 1);
        k->nargs++;
        return 0;
    }
    char text[256], eerr[512];
    if (len >= sizeof text)
        return mmb_profile_msgf(msg, msglen, "argument %d is %zu characters long; expected at most %zu", k->nargs + 1,
                                len, sizeof text - 1);
    memcpy(text, item, len);
    text[len] = '\0';
    if (!(a->expr = mmb_expr_parse(text, eerr, sizeof eerr)))
        return mmb_profile_msgf(msg, msglen, "argument %d: %s", k->nargs + 1, eerr);
    a->kind = MMB_ARG_INT;
    k->nargs++;
    return 0;
}

/* A kernel computes C from A and B: a list without one of them, as a pointer or a
 * tensor map, could only fail on the GPU, every configuration, and so could one that
 * passes a matrix's pointer twice, or two tensor maps of it. A pointer and a tensor map
 * of one matrix together are a kernel's choice (TMA loads, pointer stores). */
int mmb_profile_key_args(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    struct mmb_kernel_spec *k = ld->kernel;
    k->args_line = ld->line;
    if (mmb_profile_each_item(value, arg_item, k, msg, msglen))
        return -1;
    static const char roles[] = "ABC";
    bool named[3] = {false};
    for (int i = 0; i < k->nargs; i++) {
        if (k->args[i].kind == MMB_ARG_A || k->args[i].kind == MMB_ARG_B || k->args[i].kind == MMB_ARG_C)
            named[k->args[i].kind] = true;
        else if (k->args[i].kind == MMB_ARG_TMA)
            named[k->args[i].matrix] = true;
    }
    for (int r = 0; r < 3; r++)
        if (!named[r])
            return mmb_profile_msgf(msg, msglen, "'args' names no %c; expected each of the matrices A, B and C at "
                                    "least once, as a pointer (%c) or a tensor map (tma(%c, ...))", roles[r], roles[r],
                                    roles[r]);
    return 0;
}

int mmb_profile_key_define(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    struct mmb_kernel_spec *k = ld->kernel;
    const char *name = key + strlen("define.");
    if (!mmb_profile_is_identifier(name))
        return mmb_profile_msgf(msg, msglen, "define name '%s' is not a C identifier; expected define.NAME", name);
    const char *clash = mmb_macro_name_clash(name);
    if (clash)
        return mmb_profile_msgf(msg, msglen, "define name '%s' is %s: the compiler gets it as the macro -D%s=VALUE, "
                                "which would break every configuration; expected another name", name, clash, name);
    for (int i = 0; i < k->ndefines; i++)
        if (!strcmp(k->defines[i].name, name))
            return mmb_profile_msgf(msg, msglen, "define '%s' is already set at line %d", name, k->defines[i].line);
    for (int i = 0; i < k->nparams; i++)
        if (!strcmp(k->params[i].name, name))
            return mmb_profile_msgf(msg, msglen, "'%s' is a parameter (line %d), which is already a -D define",
                                    name, k->params[i].line);
    if (k->ndefines == MMB_MAX_DEFINES)
        return mmb_profile_msgf(msg, msglen, "more than %d defines", MMB_MAX_DEFINES);
    struct mmb_kernel_define *d = &k->defines[k->ndefines];
    char eerr[512];
    if (mmb_profile_copy_text(d->name, sizeof d->name, name, msg, msglen))
        return -1;
    if (!(d->expr = mmb_expr_parse(value, eerr, sizeof eerr)))
        return mmb_profile_msgf(msg, msglen, "bad expression for '%s': %s", key, eerr);
    d->line = ld->line;
    k->ndefines++;
    return 0;
}

int mmb_profile_key_prelude(struct loader *ld, const char *key, const char *value, char *msg, size_t msglen)
{
    if (!strcmp(value, "none"))
        ld->kernel->prelude = MMB_PRELUDE_NONE;
    else if (!strcmp(value, "stdint"))
        ld->kernel->prelude = MMB_PRELUDE_STDINT;
    else
        return -1;
    return 0;
}

static int names_size(void *ctx, const char *name, size_t len, size_t column)
{
    if (len == 1 && strchr("MNK", name[0]))
        *(bool *)ctx = true;
    return 0;
}

int mmb_profile_end_binding(struct loader *ld, mmb_profile_expr_check check)
{
    struct mmb_kernel_spec *k = ld->kernel;
    int args_line = ld->key_lines[mmb_profile_kernel_key_index("args")];
    for (int i = 0; i < k->nargs; i++) {
        const struct mmb_kernel_arg *a = &k->args[i];
        if (a->kind == MMB_ARG_INT && check(ld, a->expr, "args", args_line))
            return -1;
        if (a->kind == MMB_ARG_TMA && (check(ld, a->box_inner, "args", args_line) ||
                                       check(ld, a->box_outer, "args", args_line) ||
                                       check(ld, a->swizzle, "args", args_line)))
            return -1;
    }
    for (int i = 0; i < k->ndefines; i++) {
        if (check(ld, k->defines[i].expr, "define", k->defines[i].line))
            return -1;
        mmb_expr_each_name(k->defines[i].expr, names_size, &k->defines_use_size);
    }
    static const char *const grid_keys[] = {"grid_x", "grid_y", "grid_z"};
    struct mmb_expr *grids[] = {k->grid_x, k->grid_y, k->grid_z};
    for (int i = 0; i < 3; i++)
        if (grids[i] && check(ld, grids[i], grid_keys[i], ld->key_lines[mmb_profile_kernel_key_index(grid_keys[i])]))
            return -1;
    if (k->nargs)
        return 0;
    /* The mmbench ABI: (C, A, B, M, N, K). */
    static const char *const abi[] = {"M", "N", "K"};
    k->args[0].kind = MMB_ARG_C;
    k->args[1].kind = MMB_ARG_A;
    k->args[2].kind = MMB_ARG_B;
    for (int i = 0; i < 3; i++) {
        char eerr[128];
        k->args[3 + i].kind = MMB_ARG_INT;
        if (!(k->args[3 + i].expr = mmb_expr_parse(abi[i], eerr, sizeof eerr)))
            return mmb_profile_fail(ld, k->line, "default argument '%s': %s", abi[i], eerr);
    }
    k->nargs = 6;
    return 0;
}
