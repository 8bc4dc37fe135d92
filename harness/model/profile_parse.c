/* profile_parse.c - the INI reader under model/profile.c, and the value types that
 * keys of every section share (numbers, names, comma lists, dtype lists). The
 * reader feeds libinih one physical line at a time (so every key knows its line),
 * handles section headers itself (so empty sections are seen), and strips comments
 * and indentation (so long comments fit libinih's line buffer and indented keys
 * never become continuation lines). What the sections and keys are, and what their
 * values mean, is profile.c's tables: a new section is one more row there. */
#include "model/profile_parse.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/dtype.h"
#include "core/error.h"
#include "core/file.h"

int mmb_profile_fail(struct loader *ld, int line, const char *fmt, ...)
{
    if (ld->failed)
        return -1;
    ld->failed = true;
    if (!ld->err || !ld->errlen)
        return -1;
    int w = snprintf(ld->err, ld->errlen, "%s:%d: ", ld->path, line);
    size_t n = w < 0 ? 0 : (size_t)w;
    if (n < ld->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ld->err + n, ld->errlen - n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int mmb_profile_msgf(char *msg, size_t msglen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, msglen, fmt, ap);
    va_end(ap);
    return -1;
}

int mmb_profile_copy_text(char *dst, size_t size, const char *value, char *msg, size_t msglen)
{
    size_t len = strlen(value);
    if (len >= size)
        return mmb_profile_msgf(msg, msglen, "value is %zu characters long; expected at most %zu", len, size - 1);
    memcpy(dst, value, len + 1);
    return 0;
}

int mmb_profile_parse_ll(const char *value, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(value, &end, 10);
    if (errno || end == value || *end || !(isdigit((unsigned char)*value) || *value == '-'))
        return -1;
    if (v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int mmb_profile_parse_int(const char *value, int lo, int *out)
{
    long long v;
    if (mmb_profile_parse_ll(value, lo, INT_MAX, &v))
        return -1;
    *out = (int)v;
    return 0;
}

int mmb_profile_parse_u64(const char *value, unsigned long long *out)
{
    for (const char *s = value; *s; s++)
        if (!isdigit((unsigned char)*s))
            return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(value, &end, 10);
    if (errno || end == value || *end)
        return -1;
    *out = v;
    return 0;
}

int mmb_profile_parse_number(const char *value, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(value, &end);
    if (errno || end == value || *end || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

bool mmb_profile_is_identifier(const char *s)
{
    if (!isalpha((unsigned char)*s) && *s != '_')
        return false;
    for (s++; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return false;
    return true;
}

bool mmb_profile_is_plain_name(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && !strchr("_.-", *s))
            return false;
    return true;
}

/* The next comma outside parentheses (min(a, b) and tma(A, 64, 64, 0) are one item
 * each), or NULL. */
static const char *next_comma(const char *s)
{
    int depth = 0;
    for (; *s; s++) {
        if (*s == '(')
            depth++;
        else if (*s == ')' && depth > 0)
            depth--;
        else if (*s == ',' && depth == 0)
            return s;
    }
    return NULL;
}

int mmb_profile_each_item(const char *value, mmb_profile_item_fn fn, void *ctx, char *msg, size_t msglen)
{
    for (const char *s = value;;) {
        const char *comma = next_comma(s);
        const char *e = comma ? comma : s + strlen(s);
        while (s < e && isspace((unsigned char)*s))
            s++;
        while (e > s && isspace((unsigned char)e[-1]))
            e--;
        if (fn(ctx, s, (size_t)(e - s), msg, msglen))
            return -1;
        if (!comma)
            return 0;
        s = comma + 1;
    }
}

void mmb_profile_dtype_names(char *buf, size_t len)
{
    buf[0] = '\0';
    for (const struct mmb_dtype_info *d = mmb_dtype_table; d->text; d++)
        mmb_join_append(buf, len, ", ", d->text);
}

struct dtype_list {
    unsigned *bits;
    char names[96];
};

static int dtype_item(void *ctx, const char *s, size_t len, char *msg, size_t msglen)
{
    struct dtype_list *l = ctx;
    if (!len)
        return mmb_profile_msgf(msg, msglen, "empty item in the dtype list; expected %s", l->names);
    char item[16];
    size_t n = len < sizeof item ? len : sizeof item - 1; /* long enough to be reported as unknown */
    memcpy(item, s, n);
    item[n] = '\0';
    enum mmb_dtype d;
    if (!mmb_dtype_parse(item, &d))
        return mmb_profile_msgf(msg, msglen, "unknown dtype '%.*s'; expected %s", (int)len, s, l->names);
    if (*l->bits & (1u << d))
        return mmb_profile_msgf(msg, msglen, "dtype %s is listed twice", item);
    *l->bits |= 1u << d;
    return 0;
}

int mmb_profile_parse_dtypes(const char *value, unsigned *bits, char *msg, size_t msglen)
{
    struct dtype_list l = {.bits = bits};
    mmb_profile_dtype_names(l.names, sizeof l.names);
    *bits = 0;
    return mmb_profile_each_item(value, dtype_item, &l, msg, msglen);
}

int mmb_profile_key_index(const struct key_def *keys, const char *key)
{
    for (int i = 0; keys[i].key; i++)
        if (!strcmp(keys[i].key, key))
            return i;
    return -1;
}

static int end_section(struct loader *ld)
{
    const struct section_def *s = ld->section;
    ld->section = NULL;
    return s && s->end ? s->end(ld) : 0;
}

static void list_sections(const struct section_def *sections, char *buf, size_t len)
{
    buf[0] = '\0';
    for (const struct section_def *d = sections; d->prefix; d++)
        mmb_join_append(buf, len, " or ", d->shown);
}

/* s is a trimmed line that starts with '['. */
static int begin_section(struct loader *ld, char *s)
{
    char *close = strchr(s, ']');
    if (!close)
        return mmb_profile_fail(ld, ld->line, "expected ']' closing the section header");
    if (close[1])
        return mmb_profile_fail(ld, ld->line, "unexpected text after ']' of the section header");
    if (end_section(ld))
        return -1;
    *close = '\0';
    char *name = s + 1;
    while (isspace((unsigned char)*name))
        name++;
    for (char *e = close; e > name && isspace((unsigned char)e[-1]);)
        *--e = '\0';
    snprintf(ld->section_text, sizeof ld->section_text, "[%s]", name);
    ld->section_line = ld->line;
    memset(ld->key_lines, 0, sizeof ld->key_lines);
    for (const struct section_def *d = ld->sections; d->prefix; d++) {
        size_t plen = strlen(d->prefix);
        if (strncmp(name, d->prefix, plen))
            continue;
        const char *rest = name + plen;
        if (!d->named && !*rest) {
            ld->section = d;
            return d->begin(ld, rest);
        }
        if (d->named && !*rest)
            return mmb_profile_fail(ld, ld->line, "expected a name: %s", d->shown);
        if (d->named && isspace((unsigned char)*rest)) {
            while (isspace((unsigned char)*rest))
                rest++;
            ld->section = d;
            return d->begin(ld, rest);
        }
    }
    char list[128];
    list_sections(ld->sections, list, sizeof list);
    return mmb_profile_fail(ld, ld->line, "unknown section [%s]; expected %s", name, list);
}

static void list_keys(const struct key_def *keys, char *buf, size_t len)
{
    buf[0] = '\0';
    for (const struct key_def *d = keys; d->key; d++)
        mmb_join_append(buf, len, ", ", d->shown ? d->shown : d->key);
}

/* What a good value of d looks like, for messages. */
static const char *expect_text(const struct key_def *d, char *buf, size_t len)
{
    if (!d->expect_list)
        return d->expect;
    d->expect_list(buf, len);
    return buf;
}

static int on_key(void *user, const char *section, const char *key, const char *value)
{
    struct loader *ld = user;
    if (ld->failed)
        return 0;
    if (!*key)
        return !mmb_profile_fail(ld, ld->line, "expected a key name before '='");
    if (!ld->section) {
        char list[128];
        list_sections(ld->sections, list, sizeof list);
        return !mmb_profile_fail(ld, ld->line, "key '%s' outside any section; expected %s first", key, list);
    }
    const struct key_def *keys = ld->section->keys;
    int i = 0;
    for (; keys[i].key; i++) {
        size_t klen = strlen(keys[i].key);
        if ((keys[i].flags & KEY_PREFIX) ? !strncmp(key, keys[i].key, klen) && key[klen] : !strcmp(key, keys[i].key))
            break;
    }
    const struct key_def *d = &keys[i];
    if (!d->key) {
        char list[512];
        list_keys(keys, list, sizeof list);
        return !mmb_profile_fail(ld, ld->line, "unknown key '%s' in %s; expected one of %s", key, ld->section_text,
                                 list);
    }
    char expect[128];
    if (!*value)
        return !mmb_profile_fail(ld, ld->line, "'%s' has no value; expected %s", key,
                                 expect_text(d, expect, sizeof expect));
    if (ld->key_lines[i] && !(d->flags & (KEY_PREFIX | KEY_REPEAT)))
        return !mmb_profile_fail(ld, ld->line, "'%s' is already set at line %d; expected it once per section", key,
                                 ld->key_lines[i]);
    if (!ld->key_lines[i])
        ld->key_lines[i] = ld->line;
    char msg[768] = "";
    if (d->parse(ld, key, value, msg, sizeof msg)) {
        if (msg[0])
            return !mmb_profile_fail(ld, ld->line, "%s", msg);
        return !mmb_profile_fail(ld, ld->line, "bad value '%s' for '%s'; expected %s", value, key,
                                 expect_text(d, expect, sizeof expect));
    }
    return 1;
}

/* Strips comments: ';' or '#' starting the line, ';' after a blank elsewhere (as
 * libinih does), then surrounding blanks. */
static char *clean_line(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    if (*s == ';' || *s == '#') {
        *s = '\0';
        return s;
    }
    /* From s, not s + 1: a blank line leaves s at its terminator. s itself is no ';'
     * (returned above), so c[-1] is read only inside the line. */
    for (char *c = s; *c; c++) {
        if (*c == ';' && isspace((unsigned char)c[-1])) {
            *c = '\0';
            break;
        }
    }
    for (char *e = s + strlen(s); e > s && isspace((unsigned char)e[-1]);)
        *--e = '\0';
    return s;
}

static char *read_line(char *str, int num, void *stream)
{
    struct loader *ld = stream;
    if (ld->failed)
        return NULL;
    errno = 0;
    ssize_t n = getline(&ld->buf, &ld->cap, ld->f);
    if (n < 0) {
        if (ferror(ld->f))
            mmb_profile_fail(ld, ld->line + 1, "read error: %s", strerror(errno ? errno : EIO));
        return NULL;
    }
    ld->line++;
    char *s = ld->buf;
    if ((size_t)n != strlen(s)) {
        mmb_profile_fail(ld, ld->line, "NUL byte in the line; expected text");
        return NULL;
    }
    if (ld->line == 1 && !memcmp(s, "\xEF\xBB\xBF", 3))
        s += 3;
    s = clean_line(s);
    if (*s == '[') {
        begin_section(ld, s);
        s[0] = '\0'; /* libinih sees an empty line: the section is ours */
    } else if (*s) {
        const char *eq = strchr(s, '=');
        const char *colon = strchr(s, ':');
        if (!eq) {
            mmb_profile_fail(ld, ld->line, "expected 'key = value', '[section]' or a comment");
            return NULL;
        }
        if (colon && colon < eq) { /* libinih would split at ':' */
            mmb_profile_fail(ld, ld->line, "':' in the key; expected 'key = value'");
            return NULL;
        }
    }
    if (ld->failed)
        return NULL;
    size_t len = strlen(s);
    if (len + 1 > (size_t)num) {
        mmb_profile_fail(ld, ld->line, "line is %zu characters long without comments; expected at most %d", len,
                         num - 1);
        return NULL;
    }
    memcpy(str, s, len + 1);
    return str;
}

int mmb_profile_parse_file(struct loader *ld, int (*finish)(struct loader *ld))
{
    ld->f = mmb_file_open_regular(ld->path, MMB_PROFILE_MAX, "profile", ld->err, ld->errlen);
    if (!ld->f)
        return -1;
    int rc = ini_parse_stream(read_line, ld, on_key, ld);
    if (!ld->failed && rc > 0)
        mmb_profile_fail(ld, rc, "expected 'key = value', '[section]' or a comment");
    else if (!ld->failed && rc < 0)
        mmb_profile_fail(ld, ld->line, "libinih failed (%d)", rc);
    if (!ld->failed)
        end_section(ld);
    if (!ld->failed)
        finish(ld);
    free(ld->buf);
    if (fclose(ld->f) != 0 && !ld->failed)
        mmb_profile_fail(ld, ld->line, "close: %s", strerror(errno));
    return ld->failed ? -1 : 0;
}
