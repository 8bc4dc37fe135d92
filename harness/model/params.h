/* params.h - a configuration's parameters as text: name=value pairs joined by ';'
 * ("block_size_x=16;tile_size_y=2"), each value a decimal integer. The one writer
 * and the one reader of that text: the CSV's params cell, the tune's resume cache,
 * the T4 export and the report all go through here. */
#ifndef MMB_MODEL_PARAMS_H
#define MMB_MODEL_PARAMS_H

#include <stddef.h>

/* One name=value pair, pointing into the text it was read from. */
struct mmb_params_item {
    const char *name;       /* name_len characters, not NUL-terminated */
    size_t name_len;
    const char *value_text; /* value_len characters: the value as written */
    size_t value_len;
    long long value;
};

/* Reads the pair at *cursor into item and moves *cursor past it (and past its ';').
 * Returns 1, 0 at the end of the text ("" has no pair), or -1 when the text there is
 * not name=integer: no '=', an empty name, a value that is not a whole decimal
 * integer (an optional '-' and digits, in range), an empty pair ("a=1;;b=2") or a
 * ';' with nothing after it. */
int mmb_params_next(const char **cursor, struct mmb_params_item *item);

/* Appends name=value to out (len bytes, *used of them taken), with ';' before it
 * when out is not empty; never writes past len, and keeps *used at most len - 1. */
void mmb_params_append(char *out, size_t len, size_t *used, const char *name, long long value);

#endif
