/* expr.c - the C-like integer expressions of profiles (restrictions, launch geometry).
 * A recursive-descent parser builds a flat node array; evaluation walks it with
 * overflow checks, so no profile can make the harness execute undefined behaviour.
 *
 * Two deliberate departures from plain C, both for Kernel Tuner (Python) users:
 * `not` binds as in Python (looser than comparisons: `not a == b` is `not (a == b)`),
 * while `!` binds as in C; and chained comparisons (`a < b < c`, `a < b == c`) are
 * rejected, because C and Python give them different meanings. */
#include "core/expr.h"

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bounds recursion on hostile input; real profiles nest a handful of levels. */
#define MAX_DEPTH 200
#define MAX_NODES 10000

enum node_op {
    N_NUM, N_NAME,
    N_NEG, N_POS, N_NOT,
    N_MUL, N_DIV, N_MOD, N_ADD, N_SUB,
    N_LT, N_LE, N_GT, N_GE, N_EQ, N_NE,
    N_AND, N_OR, N_COND,
    N_MIN, N_MAX, N_CEIL_DIV,
};

struct node {
    enum node_op op;
    size_t pos, len; /* the token that carries the node: operator, literal or name */
    long long value;
    int a, b, c;
};

struct mmb_expr {
    char *text;
    struct node *nodes;
    int nnodes, cap;
    int root;
};

enum tok_kind { T_END, T_NUM, T_NAME, T_OP };

struct token {
    enum tok_kind kind;
    size_t pos, len;
    long long value;
    const char *op; /* canonical spelling: "and" lexes as "&&", "or" as "||" */
};

struct parser {
    struct mmb_expr *e;
    const char *s;
    size_t pos;
    struct token tok;
    int depth;
    char *err;
    size_t errlen;
    bool failed;
};

static const struct {
    const char *name;
    enum node_op op;
} functions[] = {
    {"min", N_MIN},
    {"max", N_MAX},
    {"ceil_div", N_CEIL_DIV},
};

size_t mmb_expr_format_caret(const char *text, size_t column, char *buf, size_t len)
{
    if (!len)
        return 0;
    size_t n = 0;
    int w = snprintf(buf, len, "\n  %s\n  ", text);
    if (w < 0) {
        buf[0] = '\0';
        return 0;
    }
    n = (size_t)w < len ? (size_t)w : len - 1;
    /* Copy tabs so that the caret lines up however the terminal expands them. */
    size_t tlen = strlen(text);
    for (size_t i = 0; i + 1 < column && n + 1 < len; i++)
        buf[n++] = (i < tlen && text[i] == '\t') ? '\t' : ' ';
    if (n + 1 < len)
        buf[n++] = '^';
    buf[n] = '\0';
    return n;
}

static void error_at(char *err, size_t errlen, const char *text, size_t pos, const char *fmt,
                     va_list ap)
{
    if (!err || !errlen)
        return;
    int w = vsnprintf(err, errlen, fmt, ap);
    size_t n = w < 0 ? 0 : (size_t)w;
    if (n >= errlen)
        return;
    w = snprintf(err + n, errlen - n, " at column %zu", pos + 1);
    n += w < 0 ? 0 : (size_t)w;
    if (n >= errlen)
        return;
    mmb_expr_format_caret(text, pos + 1, err + n, errlen - n);
}

static void parse_fail(struct parser *p, size_t pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void parse_fail(struct parser *p, size_t pos, const char *fmt, ...)
{
    if (p->failed)
        return;
    p->failed = true;
    va_list ap;
    va_start(ap, fmt);
    error_at(p->err, p->errlen, p->s, pos, fmt, ap);
    va_end(ap);
}

static bool is_name_start(int c)
{
    return isalpha(c) || c == '_';
}

static bool is_name_char(int c)
{
    return isalnum(c) || c == '_';
}

static bool lex_number(struct parser *p, struct token *t)
{
    const char *s = p->s;
    size_t i = t->pos;
    unsigned base = 10;
    if (s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
        base = 16;
        i += 2;
        if (!isxdigit((unsigned char)s[i])) {
            parse_fail(p, i, "expected hexadecimal digits after '0x'");
            return false;
        }
    } else if (s[i] == '0' && isdigit((unsigned char)s[i + 1])) {
        /* 010 is 8 in C and an error in Python: refuse rather than guess. */
        parse_fail(p, t->pos, "integer with a leading zero (octal in C); write it without the zero");
        return false;
    }
    unsigned long long v = 0;
    for (;; i++) {
        int c = (unsigned char)s[i];
        unsigned d;
        if (isdigit(c))
            d = (unsigned)(c - '0');
        else if (base == 16 && isxdigit(c))
            d = (unsigned)(tolower(c) - 'a' + 10);
        else
            break;
        if (v > (unsigned long long)LLONG_MAX / base ||
            v * base > (unsigned long long)LLONG_MAX - d) {
            parse_fail(p, t->pos, "integer literal out of range (at most %lld)", LLONG_MAX);
            return false;
        }
        v = v * base + d;
    }
    if (is_name_char((unsigned char)s[i])) {
        parse_fail(p, i, "unexpected '%c' after a number", s[i]);
        return false;
    }
    t->kind = T_NUM;
    t->value = (long long)v;
    t->len = i - t->pos;
    return true;
}

/* Reads the next token into p->tok. */
static bool next(struct parser *p)
{
    static const char *const ops2[] = {"<=", ">=", "==", "!=", "&&", "||"};
    const char *s = p->s;
    while (isspace((unsigned char)s[p->pos]))
        p->pos++;
    struct token *t = &p->tok;
    t->pos = p->pos;
    t->len = 0;
    t->op = NULL;
    int c = (unsigned char)s[p->pos];
    if (!c) {
        t->kind = T_END;
        return true;
    }
    if (isdigit(c)) {
        if (!lex_number(p, t))
            return false;
        p->pos += t->len;
        return true;
    }
    if (is_name_start(c)) {
        size_t i = p->pos;
        while (is_name_char((unsigned char)s[i]))
            i++;
        t->kind = T_NAME;
        t->len = i - p->pos;
        p->pos = i;
        if (t->len == 3 && !memcmp(s + t->pos, "and", 3))
            t->op = "&&";
        else if (t->len == 2 && !memcmp(s + t->pos, "or", 2))
            t->op = "||";
        else if (t->len == 3 && !memcmp(s + t->pos, "not", 3))
            t->op = "not";
        if (t->op)
            t->kind = T_OP;
        return true;
    }
    t->kind = T_OP;
    for (size_t i = 0; i < sizeof ops2 / sizeof ops2[0]; i++) {
        if (s[p->pos] == ops2[i][0] && s[p->pos + 1] == ops2[i][1]) {
            t->op = ops2[i];
            t->len = 2;
            p->pos += 2;
            return true;
        }
    }
    static const char ops1[] = "()+-*/%<>!?:,";
    const char *hit = strchr(ops1, c);
    if (hit) {
        static const char *const names[] = {"(", ")", "+", "-", "*", "/", "%",
                                            "<", ">", "!", "?", ":", ","};
        t->op = names[hit - ops1];
        t->len = 1;
        p->pos++;
        return true;
    }
    if (c == '=')
        parse_fail(p, p->pos, "expected '==' (a single '=' is assignment)");
    else if (c == '&')
        parse_fail(p, p->pos, "expected '&&' (bitwise '&' is not supported)");
    else if (c == '|')
        parse_fail(p, p->pos, "expected '||' (bitwise '|' is not supported)");
    else if (isprint(c))
        parse_fail(p, p->pos, "unexpected character '%c'", c);
    else
        parse_fail(p, p->pos, "unexpected byte 0x%02x", (unsigned)c);
    return false;
}

static bool tok_is(const struct parser *p, const char *op)
{
    return p->tok.kind == T_OP && strcmp(p->tok.op, op) == 0;
}

static int add_node(struct parser *p, enum node_op op, const struct token *t, int a, int b, int c)
{
    struct mmb_expr *e = p->e;
    if (e->nnodes == e->cap) {
        if (e->cap >= MAX_NODES) {
            parse_fail(p, t->pos, "expression too long (more than %d terms)", MAX_NODES);
            return -1;
        }
        int cap = e->cap ? e->cap * 2 : 16;
        struct node *n = realloc(e->nodes, (size_t)cap * sizeof *n);
        if (!n) {
            parse_fail(p, t->pos, "out of memory");
            return -1;
        }
        e->nodes = n;
        e->cap = cap;
    }
    struct node *n = &e->nodes[e->nnodes];
    n->op = op;
    n->pos = t->pos;
    n->len = t->len;
    n->value = t->value;
    n->a = a;
    n->b = b;
    n->c = c;
    return e->nnodes++;
}

static const char *describe(const struct token *t)
{
    switch (t->kind) {
    case T_END: return "the end";
    case T_NUM: return "a number";
    case T_NAME: return "a name";
    case T_OP: return t->op;
    }
    return "?";
}

static int parse_cond(struct parser *p);

static int parse_call(struct parser *p, const struct token *name, enum node_op op)
{
    const char *fname = p->s + name->pos;
    int fl = (int)name->len;
    int args[2];
    if (!next(p))
        return -1;
    for (int i = 0; i < 2; i++) {
        args[i] = parse_cond(p);
        if (args[i] < 0)
            return -1;
        const char *want = i == 0 ? "," : ")";
        if (!tok_is(p, want)) {
            parse_fail(p, p->tok.pos, "expected '%s' in %.*s(a, b), found %s", want, fl, fname,
                       describe(&p->tok));
            return -1;
        }
        if (!next(p))
            return -1;
    }
    return add_node(p, op, name, args[0], args[1], -1);
}

static int parse_primary(struct parser *p)
{
    struct token t = p->tok;
    if (t.kind == T_NUM) {
        if (!next(p))
            return -1;
        return add_node(p, N_NUM, &t, -1, -1, -1);
    }
    if (t.kind == T_NAME) {
        if (!next(p))
            return -1;
        bool call = tok_is(p, "(");
        for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++) {
            if (strlen(functions[i].name) == t.len && !memcmp(functions[i].name, p->s + t.pos, t.len)) {
                if (!call) {
                    parse_fail(p, p->tok.pos, "expected '(' after function '%s'", functions[i].name);
                    return -1;
                }
                return parse_call(p, &t, functions[i].op);
            }
        }
        if (call) {
            parse_fail(p, t.pos, "unknown function '%.*s'; expected min, max or ceil_div",
                       (int)t.len, p->s + t.pos);
            return -1;
        }
        return add_node(p, N_NAME, &t, -1, -1, -1);
    }
    if (tok_is(p, "(")) {
        if (!next(p))
            return -1;
        int a = parse_cond(p);
        if (a < 0)
            return -1;
        if (!tok_is(p, ")")) {
            parse_fail(p, p->tok.pos, "expected ')', found %s", describe(&p->tok));
            return -1;
        }
        if (!next(p))
            return -1;
        return a;
    }
    if (tok_is(p, "/"))
        parse_fail(p, t.pos, "expected an operand ('//' is Python; '/' divides as in C)");
    else
        parse_fail(p, t.pos, "expected a number, a name or '(', found %s", describe(&t));
    return -1;
}

/* A prefix operator at the current token, then its operand (parsed by operand),
 * bounded in depth like every recursion of the parser. */
static int parse_prefix(struct parser *p, enum node_op op, int (*operand)(struct parser *))
{
    struct token t = p->tok;
    if (++p->depth > MAX_DEPTH) {
        parse_fail(p, t.pos, "expression nested too deeply");
        return -1;
    }
    if (!next(p))
        return -1;
    int a = operand(p);
    p->depth--;
    if (a < 0)
        return -1;
    return add_node(p, op, &t, a, -1, -1);
}

static int parse_unary(struct parser *p)
{
    static const struct {
        const char *op;
        enum node_op node;
    } unary[] = {{"-", N_NEG}, {"+", N_POS}, {"!", N_NOT}};
    for (size_t i = 0; i < sizeof unary / sizeof unary[0]; i++) {
        if (tok_is(p, unary[i].op))
            return parse_prefix(p, unary[i].node, parse_unary);
    }
    return parse_primary(p);
}

struct binop {
    const char *op;
    enum node_op node;
};

/* One left-associative precedence level. */
static int parse_level(struct parser *p, const struct binop *ops, size_t nops, int (*sub)(struct parser *))
{
    int a = sub(p);
    for (;;) {
        if (a < 0)
            return -1;
        size_t i = 0;
        while (i < nops && !tok_is(p, ops[i].op))
            i++;
        if (i == nops)
            return a;
        struct token t = p->tok;
        if (!next(p))
            return -1;
        int b = sub(p);
        if (b < 0)
            return -1;
        a = add_node(p, ops[i].node, &t, a, b, -1);
    }
}

static int parse_mul(struct parser *p)
{
    static const struct binop ops[] = {{"*", N_MUL}, {"/", N_DIV}, {"%", N_MOD}};
    return parse_level(p, ops, 3, parse_unary);
}

static int parse_add(struct parser *p)
{
    static const struct binop ops[] = {{"+", N_ADD}, {"-", N_SUB}};
    return parse_level(p, ops, 2, parse_mul);
}

static const struct binop compare_ops[] = {
    {"<", N_LT}, {"<=", N_LE}, {">", N_GT}, {">=", N_GE}, {"==", N_EQ}, {"!=", N_NE},
};

static bool at_compare(const struct parser *p)
{
    for (size_t i = 0; i < sizeof compare_ops / sizeof compare_ops[0]; i++)
        if (tok_is(p, compare_ops[i].op))
            return true;
    return false;
}

/* Relational and equality operators share one level that takes a single operator,
 * so every accepted expression means the same in C and in Python. */
static int parse_compare(struct parser *p)
{
    int a = parse_add(p);
    if (a < 0)
        return -1;
    for (size_t i = 0; i < sizeof compare_ops / sizeof compare_ops[0]; i++) {
        if (!tok_is(p, compare_ops[i].op))
            continue;
        struct token t = p->tok;
        if (!next(p))
            return -1;
        int b = parse_add(p);
        if (b < 0)
            return -1;
        if (at_compare(p)) {
            parse_fail(p, p->tok.pos, "chained comparison (C and Python read it differently); "
                       "use parentheses and '&&'");
            return -1;
        }
        return add_node(p, compare_ops[i].node, &t, a, b, -1);
    }
    return a;
}

static int parse_not(struct parser *p)
{
    if (!tok_is(p, "not"))
        return parse_compare(p);
    return parse_prefix(p, N_NOT, parse_not);
}

static int parse_and(struct parser *p)
{
    static const struct binop ops[] = {{"&&", N_AND}};
    return parse_level(p, ops, 1, parse_not);
}

static int parse_or(struct parser *p)
{
    static const struct binop ops[] = {{"||", N_OR}};
    return parse_level(p, ops, 1, parse_and);
}

static int parse_cond(struct parser *p)
{
    if (++p->depth > MAX_DEPTH) {
        parse_fail(p, p->tok.pos, "expression nested too deeply");
        return -1;
    }
    int r = -1;
    int a = parse_or(p);
    if (a < 0)
        goto out;
    if (!tok_is(p, "?")) {
        r = a;
        goto out;
    }
    struct token t = p->tok;
    if (!next(p))
        goto out;
    int b = parse_cond(p);
    if (b < 0)
        goto out;
    if (!tok_is(p, ":")) {
        parse_fail(p, p->tok.pos, "expected ':' of '?:', found %s", describe(&p->tok));
        goto out;
    }
    if (!next(p))
        goto out;
    int c = parse_cond(p);
    if (c < 0)
        goto out;
    r = add_node(p, N_COND, &t, a, b, c);
out:
    p->depth--;
    return r;
}

struct mmb_expr *mmb_expr_parse(const char *text, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    struct mmb_expr *e = calloc(1, sizeof *e);
    char *copy = strdup(text);
    if (!e || !copy) {
        free(e);
        free(copy);
        if (err && errlen)
            snprintf(err, errlen, "out of memory");
        return NULL;
    }
    e->text = copy;
    struct parser p = {.e = e, .s = copy, .err = err, .errlen = errlen};
    if (next(&p)) {
        if (p.tok.kind == T_END) {
            parse_fail(&p, p.tok.pos, "expected an expression");
        } else {
            e->root = parse_cond(&p);
            if (e->root >= 0 && p.tok.kind != T_END) {
                if (tok_is(&p, ")"))
                    parse_fail(&p, p.tok.pos, "unmatched ')'");
                else
                    parse_fail(&p, p.tok.pos, "expected an operator or the end, found %s",
                               describe(&p.tok));
            }
        }
    }
    if (p.failed) {
        mmb_expr_free(e);
        return NULL;
    }
    return e;
}

struct evaluator {
    const struct mmb_expr *e;
    mmb_expr_lookup_fn lookup;
    void *ctx;
    char *err;
    size_t errlen;
};

static int eval_fail(const struct evaluator *ev, size_t pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int eval_fail(const struct evaluator *ev, size_t pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    error_at(ev->err, ev->errlen, ev->e->text, pos, fmt, ap);
    va_end(ap);
    return -1;
}

static int eval_node(const struct evaluator *ev, int idx, long long *out)
{
    const struct node *n = &ev->e->nodes[idx];
    long long a = 0, b = 0;
    switch (n->op) {
    case N_NUM:
        *out = n->value;
        return 0;
    case N_NAME:
        if (ev->lookup && ev->lookup(ev->ctx, ev->e->text + n->pos, n->len, out))
            return 0;
        return eval_fail(ev, n->pos, "unknown name '%.*s'", (int)n->len, ev->e->text + n->pos);
    case N_AND:
    case N_OR:
        if (eval_node(ev, n->a, &a))
            return -1;
        if ((n->op == N_AND) == (a == 0)) { /* short circuit */
            *out = n->op == N_OR;
            return 0;
        }
        if (eval_node(ev, n->b, &b))
            return -1;
        *out = b != 0;
        return 0;
    case N_COND:
        if (eval_node(ev, n->a, &a))
            return -1;
        return eval_node(ev, a ? n->b : n->c, out);
    default:
        break;
    }
    if (eval_node(ev, n->a, &a))
        return -1;
    if (n->b >= 0 && eval_node(ev, n->b, &b))
        return -1;
    bool overflow = false;
    switch (n->op) {
    case N_NEG: overflow = __builtin_sub_overflow(0LL, a, out); break;
    case N_POS: *out = a; break;
    case N_NOT: *out = !a; break;
    case N_ADD: overflow = __builtin_add_overflow(a, b, out); break;
    case N_SUB: overflow = __builtin_sub_overflow(a, b, out); break;
    case N_MUL: overflow = __builtin_mul_overflow(a, b, out); break;
    case N_DIV:
    case N_MOD:
    case N_CEIL_DIV:
        if (b == 0)
            return eval_fail(ev, n->pos, "division by zero in '%.*s'", (int)n->len,
                             ev->e->text + n->pos);
        if (a == LLONG_MIN && b == -1) {
            overflow = true;
            break;
        }
        if (n->op == N_DIV) {
            *out = a / b;
        } else if (n->op == N_MOD) {
            *out = a % b;
        } else {
            /* Rounds toward +infinity for every sign, unlike (a + b - 1) / b. */
            *out = a / b + (a % b != 0 && (a < 0) == (b < 0));
        }
        break;
    case N_LT: *out = a < b; break;
    case N_LE: *out = a <= b; break;
    case N_GT: *out = a > b; break;
    case N_GE: *out = a >= b; break;
    case N_EQ: *out = a == b; break;
    case N_NE: *out = a != b; break;
    case N_MIN: *out = a < b ? a : b; break;
    case N_MAX: *out = a > b ? a : b; break;
    default:
        return eval_fail(ev, n->pos, "internal error: node %d", (int)n->op);
    }
    if (overflow)
        return eval_fail(ev, n->pos, "integer overflow in '%.*s' (%lld and %lld)", (int)n->len,
                         ev->e->text + n->pos, a, b);
    return 0;
}

int mmb_expr_eval(const struct mmb_expr *expr, mmb_expr_lookup_fn lookup, void *ctx,
                  long long *value, char *err, size_t errlen)
{
    struct evaluator ev = {.e = expr, .lookup = lookup, .ctx = ctx, .err = err, .errlen = errlen};
    return eval_node(&ev, expr->root, value);
}

int mmb_expr_each_name(const struct mmb_expr *expr,
                       int (*fn)(void *ctx, const char *name, size_t len, size_t column), void *ctx)
{
    /* Leaves are created left to right, so array order is source order. */
    for (int i = 0; i < expr->nnodes; i++) {
        const struct node *n = &expr->nodes[i];
        if (n->op != N_NAME)
            continue;
        int r = fn(ctx, expr->text + n->pos, n->len, n->pos + 1);
        if (r)
            return r;
    }
    return 0;
}

const char *mmb_expr_text(const struct mmb_expr *expr)
{
    return expr->text;
}

void mmb_expr_free(struct mmb_expr *expr)
{
    if (!expr)
        return;
    free(expr->nodes);
    free(expr->text);
    free(expr);
}
