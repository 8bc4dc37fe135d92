/* columns_json.c - the column table and rows as JSON. A row's cells are the CSV's own
 * text (mmb_column_format), so a JSON line and a CSV line of one row hold the same
 * numbers to the digit. */
#include "results/columns_json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/cache.h"
#include "core/converge.h"
#include "core/dtype.h"
#include "core/counters.h"
#include "core/status.h"
#include "core/throttle.h"
#include "results/limiter.h"

const char *mmb_columns_json_type(enum mmb_col_type type)
{
    switch (type) {
    case MMB_COL_STR:
        return "text";
    case MMB_COL_INT:
        return "int";
    case MMB_COL_REAL:
        return "real";
    case MMB_COL_STATUS:
        return "status";
    }
    return "text";
}

const char *mmb_columns_json_role(enum mmb_col_role role)
{
    switch (role) {
    case MMB_ROLE_IDENTITY:
        return "identity";
    case MMB_ROLE_DEVICE:
        return "device";
    case MMB_ROLE_KEY:
        return "key";
    case MMB_ROLE_CONFIG:
        return "config";
    case MMB_ROLE_OUTCOME:
        return "outcome";
    case MMB_ROLE_TIME:
        return "time";
    case MMB_ROLE_COUNTER:
        return "counter";
    case MMB_ROLE_DERIVED:
        return "derived";
    case MMB_ROLE_STATIC:
        return "static";
    }
    return "identity";
}

static const char *required_text(enum mmb_col_required r)
{
    switch (r) {
    case MMB_REQUIRED_NO:
        return "no";
    case MMB_REQUIRED_COLUMN:
        return "column";
    case MMB_REQUIRED_VALUE:
        return "value";
    }
    return "no";
}

static const char *better_text(enum mmb_col_better b)
{
    switch (b) {
    case MMB_BETTER_NONE:
        return "none";
    case MMB_BETTER_LOWER:
        return "lower";
    case MMB_BETTER_HIGHER:
        return "higher";
    }
    return "none";
}

const char *mmb_columns_json_domain(enum mmb_col_domain domain)
{
    switch (domain) {
    case MMB_DOMAIN_TEXT:
        return "text";
    case MMB_DOMAIN_DTYPE:
        return "dtype";
    case MMB_DOMAIN_PIPE:
        return "pipe";
    case MMB_DOMAIN_CACHE:
        return "cache";
    case MMB_DOMAIN_LIMITER:
        return "limiter";
    case MMB_DOMAIN_COUNT:
        return "count";
    case MMB_DOMAIN_NONNEG:
        return "nonnegative";
    case MMB_DOMAIN_ERROR:
        return "error";
    case MMB_DOMAIN_POSITIVE:
        return "positive";
    case MMB_DOMAIN_STATUS:
        return "status";
    case MMB_DOMAIN_STOP:
        return "stop";
    case MMB_DOMAIN_THROTTLE:
        return "throttle";
    case MMB_DOMAIN_ENERGY_STATUS:
        return "energy_status";
    }
    return "text";
}

/* The names a name domain allows, from its table; NULL for the other domains (and
 * when out of memory, which the caller finds through cJSON_AddItemToObject's check). */
static cJSON *domain_values(enum mmb_col_domain domain)
{
    cJSON *a = cJSON_CreateArray();
    if (!a)
        return NULL;
    bool ok = true;
    switch (domain) {
    case MMB_DOMAIN_DTYPE:
        for (const struct mmb_dtype_info *d = mmb_dtype_table; d->text; d++)
            ok = ok && cJSON_AddItemToArray(a, cJSON_CreateString(d->text));
        break;
    case MMB_DOMAIN_PIPE:
        for (const struct mmb_pipe_info *pp = mmb_pipe_table; pp->text; pp++)
            ok = ok && cJSON_AddItemToArray(a, cJSON_CreateString(pp->text));
        break;
    case MMB_DOMAIN_CACHE:
        for (const struct mmb_cache_info *c = mmb_cache_table; c->text; c++)
            ok = ok && cJSON_AddItemToArray(a, cJSON_CreateString(c->text));
        break;
    case MMB_DOMAIN_LIMITER:
        for (const struct mmb_limiter *l = mmb_limiter_table; l->text; l++)
            ok = ok && cJSON_AddItemToArray(a, cJSON_CreateString(l->text));
        break;
    case MMB_DOMAIN_STATUS:
        for (const struct mmb_status_info *s = mmb_status_table; s->text; s++)
            ok = ok && cJSON_AddItemToArray(a, cJSON_CreateString(s->text));
        break;
    case MMB_DOMAIN_STOP:
        for (const struct mmb_stop_info *s = mmb_stop_table; s->text; s++)
            ok = ok && cJSON_AddItemToArray(a, cJSON_CreateString(s->text));
        break;
    case MMB_DOMAIN_ENERGY_STATUS:
        for (const struct mmb_energy_status_info *e = mmb_energy_status_table; e->text; e++)
            ok = ok && cJSON_AddItemToArray(a, cJSON_CreateString(e->text));
        break;
    case MMB_DOMAIN_THROTTLE: /* words, not values: a cell joins them (words_json) */
    case MMB_DOMAIN_TEXT:
    case MMB_DOMAIN_COUNT:
    case MMB_DOMAIN_NONNEG:
    case MMB_DOMAIN_ERROR:
    case MMB_DOMAIN_POSITIVE:
        cJSON_Delete(a);
        return NULL;
    }
    if (!ok) {
        cJSON_Delete(a);
        return NULL;
    }
    return a;
}

/* The throttle domain's words: a cell is "none" or some of them joined by '+', each once. */
static cJSON *words_json(void)
{
    cJSON *a = cJSON_CreateArray();
    bool ok = a != NULL;
    for (const struct mmb_throttle_info *t = mmb_throttle_table; ok && t->text; t++)
        ok = cJSON_AddItemToArray(a, cJSON_CreateString(t->text));
    if (!ok)
        cJSON_Delete(a);
    return ok ? a : NULL;
}

static cJSON *column_json(const struct mmb_column *c)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    bool ok = cJSON_AddStringToObject(o, "name", c->name) && cJSON_AddStringToObject(o, "type", mmb_columns_json_type(c->type)) &&
              cJSON_AddStringToObject(o, "role", mmb_columns_json_role(c->role)) &&
              cJSON_AddStringToObject(o, "required", required_text(c->required)) &&
              cJSON_AddStringToObject(o, "better", better_text(c->better)) &&
              cJSON_AddStringToObject(o, "domain", mmb_columns_json_domain(c->domain));
    cJSON *values = ok ? domain_values(c->domain) : NULL;
    if (values && !cJSON_AddItemToObject(o, "values", values)) {
        cJSON_Delete(values);
        ok = false;
    }
    cJSON *words = ok && c->domain == MMB_DOMAIN_THROTTLE ? words_json() : NULL;
    if (ok && c->domain == MMB_DOMAIN_THROTTLE && (!words || !cJSON_AddItemToObject(o, "words", words))) {
        cJSON_Delete(words);
        ok = false;
    }
    ok = ok && cJSON_AddStringToObject(o, "unit", c->unit) && cJSON_AddStringToObject(o, "description", c->description);
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

cJSON *mmb_columns_json_table(void)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *cols = root ? cJSON_AddArrayToObject(root, "columns") : NULL;
    if (!cols) {
        cJSON_Delete(root);
        return NULL;
    }
    for (const struct mmb_column *c = mmb_columns; c->name; c++) {
        cJSON *o = column_json(c);
        if (!o || !cJSON_AddItemToArray(cols, o)) {
            cJSON_Delete(o);
            cJSON_Delete(root);
            return NULL;
        }
    }
    return root;
}

/* One cell: the CSV's text as a number (int, real), a string, "inf", or null. */
static cJSON *cell_json(const struct mmb_column *c, const struct mmb_row *row)
{
    char text[sizeof row->reason + 64];
    mmb_column_format(c, row, text, sizeof text);
    if (!text[0])
        return cJSON_CreateNull();
    if (c->type == MMB_COL_REAL && isinf(mmb_column_number(c, row)))
        return cJSON_CreateString(text); /* JSON has no infinity; the CSV's word stays */
    if (c->type == MMB_COL_INT || c->type == MMB_COL_REAL)
        return cJSON_CreateRaw(text);
    return cJSON_CreateString(text);
}

cJSON *mmb_columns_json_row(const struct mmb_row *row)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    for (const struct mmb_column *c = mmb_columns; c->name; c++) {
        cJSON *v = cell_json(c, row);
        if (!v || !cJSON_AddItemToObject(o, c->name, v)) {
            cJSON_Delete(v);
            cJSON_Delete(o);
            return NULL;
        }
    }
    return o;
}

char *mmb_columns_json_line(const struct mmb_row *row)
{
    cJSON *o = mmb_columns_json_row(row);
    char *text = o ? cJSON_PrintUnformatted(o) : NULL;
    cJSON_Delete(o);
    if (!text)
        return NULL;
    size_t n = strlen(text);
    char *line = realloc(text, n + 2);
    if (!line) {
        free(text);
        return NULL;
    }
    line[n] = '\n';
    line[n + 1] = '\0';
    return line;
}
