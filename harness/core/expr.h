/* expr.h - C-like integer expressions over named values: restrictions, grid divisors,
 * block sizes and shared-memory sizes in profiles. */
#ifndef MMB_EXPR_H
#define MMB_EXPR_H

#include <stdbool.h>
#include <stddef.h>

struct mmb_expr;

/* Resolves an identifier (not NUL-terminated: name[0..len)). Returns true and sets
 * *value when the name is known. */
typedef bool (*mmb_expr_lookup_fn)(void *ctx, const char *name, size_t len, long long *value);

/* Parses text. On error returns NULL and writes to err a message followed by a
 * second line with the expression and a third with a caret under the position:
 *   "expected ')', found the end at column 11\n  a * (b + c\n            ^" */
struct mmb_expr *mmb_expr_parse(const char *text, char *err, size_t errlen);

/* Evaluates with 64-bit integer arithmetic. Returns 0, or -1 with err set (unknown
 * name with a caret under it, division by zero, overflow). */
int mmb_expr_eval(const struct mmb_expr *expr, mmb_expr_lookup_fn lookup, void *ctx,
                  long long *value, char *err, size_t errlen);

/* Calls fn once for every identifier occurrence (functions excluded), in order;
 * stops and returns fn's non-zero result. Lets a profile check names before a sweep. */
int mmb_expr_each_name(const struct mmb_expr *expr,
                       int (*fn)(void *ctx, const char *name, size_t len, size_t column), void *ctx);

const char *mmb_expr_text(const struct mmb_expr *expr);

/* Writes "\n  TEXT\n  ^" with the caret under column (1-based, as in the messages
 * above and each_name's column) into buf; returns the length written. Lets callers
 * point at a name they reject, e.g. a profile naming an unknown parameter. */
size_t mmb_expr_format_caret(const char *text, size_t column, char *buf, size_t len);
void mmb_expr_free(struct mmb_expr *expr);

#endif
