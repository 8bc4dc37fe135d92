/* objective.c - the tune objective: a numeric result column and whether the search
 * maximises or minimises it. The column table says which columns are results
 * (mmb_column_is_result) and which way each is better. */
#include "search/objective.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "results/columns.h"
#include "results/metrics.h"

/* The names a column goes by as an objective besides its own. */
static const struct {
    const char *alias, *column;
} aliases[] = {
    {"time", "time_ms_median"},
    {"energy", "energy_j"},
    {NULL, NULL},
};

/* One objective, "NAME" or "NAME:min|max", of the whole text given. */
static int parse_one(const char *part, const char *text, const struct mmb_column **column, bool *maximize, char *err,
                     size_t errlen)
{
    char name[64];
    snprintf(name, sizeof name, "%s", part);
    char *colon = strchr(name, ':');
    int direction = 0; /* -1 min, +1 max, 0 by column */
    if (colon) {
        *colon = '\0';
        if (!strcmp(colon + 1, "min"))
            direction = -1;
        else if (!strcmp(colon + 1, "max"))
            direction = 1;
        else {
            mmb_errorf(err, errlen, "objective '%s': expected ':min' or ':max' after the column, not ':%s'", text,
                       colon + 1);
            return -1;
        }
    }
    const char *col = name;
    for (int i = 0; aliases[i].alias; i++)
        if (!strcmp(name, aliases[i].alias))
            col = aliases[i].column;
    const struct mmb_column *c = mmb_column_find(col);
    if (!c || !mmb_column_is_result(c)) {
        char list[1200] = "";
        for (int i = 0; aliases[i].alias; i++)
            mmb_join_append(list, sizeof list, ", ", aliases[i].alias);
        for (const struct mmb_column *k = mmb_columns; k->name; k++)
            if (mmb_column_is_result(k))
                mmb_join_append(list, sizeof list, ", ", k->name);
        mmb_errorf(err, errlen, "objective '%s': '%s' is not a numeric result column; expected one of %s, "
                   "optionally followed by :min or :max, or two of them joined by a comma (time,energy)", text,
                   name, list);
        return -1;
    }
    *column = c;
    *maximize = direction ? direction > 0 : c->better == MMB_BETTER_HIGHER;
    return 0;
}

int mmb_objective_parse(const char *text, struct mmb_objective *obj, char *err, size_t errlen)
{
    memset(obj, 0, sizeof *obj);
    if (strlen(text) >= sizeof obj->text) {
        mmb_errorf(err, errlen, "objective '%s' is too long", text);
        return -1;
    }
    strcpy(obj->text, text);
    char first[64];
    strcpy(first, text);
    char *comma = strchr(first, ',');
    if (comma) {
        *comma = '\0';
        if (strchr(comma + 1, ',')) {
            mmb_errorf(err, errlen, "objective '%s': at most two objectives, such as time,energy", text);
            return -1;
        }
        if (parse_one(comma + 1, text, &obj->second, &obj->second_maximize, err, errlen) != 0)
            return -1;
    }
    if (parse_one(first, text, &obj->column, &obj->maximize, err, errlen) != 0)
        return -1;
    if (obj->second == obj->column) {
        mmb_errorf(err, errlen, "objective '%s': the two objectives are the same column %s", text, obj->column->name);
        return -1;
    }
    return 0;
}

static bool needs_counters(const struct mmb_column *c)
{
    return c && (mmb_metric_find(c->name) != NULL || !strcmp(c->name, "flop_counted") ||
                 !strcmp(c->name, "intensity"));
}

bool mmb_objective_needs_counters(const struct mmb_objective *obj)
{
    return needs_counters(obj->column) || needs_counters(obj->second);
}

bool mmb_objective_needs_energy(const struct mmb_objective *obj)
{
    return mmb_column_is_energy(obj->column) || mmb_column_is_energy(obj->second);
}

static const char *measurement_name(const struct mmb_column *c)
{
    return !strcmp(c->name, "time_ms_median") ? "time" : c->name;
}

void mmb_objective_names(const struct mmb_objective *obj, char *out, size_t len)
{
    if (obj->second)
        snprintf(out, len, "%s,%s", measurement_name(obj->column), measurement_name(obj->second));
    else
        snprintf(out, len, "%s", measurement_name(obj->column));
}

static double column_value(const struct mmb_column *c, const struct mmb_row *row)
{
    if (row->status != MMB_STATUS_OK)
        return NAN;
    const void *p = (const char *)row + c->offset;
    if (c->type == MMB_COL_INT) {
        long long v = *(const long long *)p;
        return v == MMB_INT_EMPTY ? NAN : (double)v;
    }
    return *(const double *)p;
}

static double column_score(const struct mmb_column *c, bool maximize, const struct mmb_row *row)
{
    double v = column_value(c, row);
    if (isnan(v))
        return INFINITY;
    return maximize ? -v : v;
}

double mmb_objective_value(const struct mmb_objective *obj, const struct mmb_row *row)
{
    return column_value(obj->column, row);
}

double mmb_objective_score(const struct mmb_objective *obj, const struct mmb_row *row)
{
    return column_score(obj->column, obj->maximize, row);
}

void mmb_objective_scores(const struct mmb_objective *obj, const struct mmb_row *row, double out[2])
{
    out[0] = column_score(obj->column, obj->maximize, row);
    out[1] = obj->second ? column_score(obj->second, obj->second_maximize, row) : 0.0;
}
