/* t4.c - rows -> T4 results JSON (cJSON). The mapping, per result:
 *   configuration  the params cell as {name: integer}
 *   times          compilation_time (ms to get the cubin, when this run got it) and runtimes:
 *                  [median ms]; mmbench keeps the statistics, not every launch
 *   invalidity     the status table's t4 text (mmb_t4_invalidity)
 *   correctness    1 when the invalidity is "correct" (the output matched the reference), else 0
 *   measurements   time (the median, ms), then every result column (mmb_column_is_result)
 *                  that has a value, with the column table's unit
 *   objectives     [the tune's objective] */
#include "results/t4/t4.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/file.h"
#include "model/params.h"
#include "results/columns.h"
#include "results/csv.h"

struct mmb_t4 {
    cJSON *doc;
    cJSON *results;
    char objective[64];
};

const char *mmb_t4_invalidity(enum mmb_status status)
{
    return mmb_status_info(status)->t4;
}

int mmb_t4_path(const char *csv_path, const struct mmb_row *row, char *out, size_t len)
{
    size_t stem = strlen(csv_path);
    if (stem > 4 && !strcmp(csv_path + stem - 4, ".csv"))
        stem -= 4;
    int n = snprintf(out, len, "%.*s-%s-%lldx%lldx%lld-%s.t4.json", (int)stem, csv_path, row->kernel, row->m, row->n,
                     row->k, row->dtype);
    return n >= 0 && (size_t)n < len ? 0 : -1;
}

struct mmb_t4 *mmb_t4_new(const char *objective, char *err, size_t errlen)
{
    struct mmb_t4 *t4 = calloc(1, sizeof *t4);
    if (!t4 || !(t4->doc = cJSON_CreateObject()) ||
        !cJSON_AddStringToObject(t4->doc, "schema_version", MMB_T4_SCHEMA_VERSION) ||
        !(t4->results = cJSON_AddArrayToObject(t4->doc, "results"))) {
        mmb_errorf(err, errlen, "out of host memory");
        mmb_t4_free(t4);
        return NULL;
    }
    snprintf(t4->objective, sizeof t4->objective, "%s", objective);
    return t4;
}

void mmb_t4_free(struct mmb_t4 *t4)
{
    if (!t4)
        return;
    cJSON_Delete(t4->doc);
    free(t4);
}

size_t mmb_t4_count(const struct mmb_t4 *t4)
{
    return (size_t)cJSON_GetArraySize(t4->results);
}

/* "block_size_x=16;tile_size_y=2" -> {"block_size_x": 16, "tile_size_y": 2} */
static cJSON *configuration(const char *params, char *err, size_t errlen)
{
    cJSON *cfg = cJSON_CreateObject();
    if (!cfg)
        return NULL;
    struct mmb_params_item item;
    int more;
    for (const char *s = params; (more = mmb_params_next(&s, &item)) != 0;) {
        char name[64];
        if (more < 0 || item.name_len >= sizeof name)
            goto bad;
        memcpy(name, item.name, item.name_len);
        name[item.name_len] = '\0';
        if (!cJSON_AddNumberToObject(cfg, name, (double)item.value))
            goto bad;
    }
    return cfg;
bad:
    mmb_errorf(err, errlen, "params '%s': expected name=integer pairs joined by ';'", params);
    cJSON_Delete(cfg);
    return NULL;
}

static bool add_measurement(cJSON *list, const char *name, double value, const char *unit)
{
    cJSON *m = cJSON_CreateObject();
    if (!m)
        return false;
    cJSON_AddItemToArray(list, m);
    return cJSON_AddStringToObject(m, "name", name) && cJSON_AddNumberToObject(m, "value", value) &&
           cJSON_AddStringToObject(m, "unit", unit);
}

static bool measurements(cJSON *list, const struct mmb_row *row)
{
    if (!isnan(row->time_ms_median) && !add_measurement(list, "time", row->time_ms_median, "ms"))
        return false;
    for (const struct mmb_column *c = mmb_columns; c->name; c++) {
        if (!mmb_column_is_result(c))
            continue;
        double v = mmb_column_number(c, row);
        if (isfinite(v) && !add_measurement(list, c->name, v, c->unit))
            return false;
    }
    return true;
}

int mmb_t4_add(struct mmb_t4 *t4, const struct mmb_row *row, double compile_ms, char *err, size_t errlen)
{
    cJSON *cfg = configuration(row->params, err, errlen);
    if (!cfg)
        return -1;
    cJSON *r = cJSON_CreateObject(), *times, *runtimes, *list, *objectives, *item;
    if (!r) {
        cJSON_Delete(cfg);
        goto oom;
    }
    cJSON_AddItemToObject(r, "configuration", cfg);
    if (!cJSON_AddStringToObject(r, "timestamp", row->timestamp) || !(times = cJSON_AddObjectToObject(r, "times")))
        goto oom;
    if (!isnan(compile_ms) && !cJSON_AddNumberToObject(times, "compilation_time", compile_ms))
        goto oom;
    if (!(runtimes = cJSON_AddArrayToObject(times, "runtimes")))
        goto oom;
    if (row->status == MMB_STATUS_OK && !isnan(row->time_ms_median)) {
        if (!(item = cJSON_CreateNumber(row->time_ms_median)))
            goto oom;
        cJSON_AddItemToArray(runtimes, item);
    }
    const char *invalidity = mmb_t4_invalidity(row->status);
    bool correct = strcmp(invalidity, "correct") == 0;
    if (!cJSON_AddStringToObject(r, "invalidity", invalidity) ||
        !cJSON_AddNumberToObject(r, "correctness", correct ? 1 : 0))
        goto oom;
    if (!(list = cJSON_AddArrayToObject(r, "measurements")) || !measurements(list, row))
        goto oom;
    if (!(objectives = cJSON_AddArrayToObject(r, "objectives")))
        goto oom;
    for (const char *o = t4->objective; *o;) { /* "time" or "time,energy_j": one string each */
        size_t n = strcspn(o, ",");
        if (!(item = cJSON_CreateString("")))
            goto oom;
        cJSON_AddItemToArray(objectives, item);
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)n, o);
        if (!cJSON_SetValuestring(item, name))
            goto oom;
        o += n + (o[n] == ',');
    }
    cJSON_AddItemToArray(t4->results, r);
    return 0;
oom:
    cJSON_Delete(r);
    mmb_errorf(err, errlen, "out of host memory");
    return -1;
}

int mmb_t4_write(const struct mmb_t4 *t4, const char *path, char *err, size_t errlen)
{
    char *text = cJSON_Print(t4->doc);
    if (!text) {
        mmb_errorf(err, errlen, "%s: out of host memory formatting the JSON", path);
        return -1;
    }
    size_t len = strlen(text);
    text[len] = '\n'; /* a text file ends with a newline; cJSON's NUL is not written */
    int rc = mmb_file_write_atomic(path, text, len + 1, err, errlen);
    cJSON_free(text);
    return rc;
}
