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

int mmb_objective_parse(const char *text, struct mmb_objective *obj, char *err, size_t errlen)
{
    char name[64];
    memset(obj, 0, sizeof *obj);
    if (strlen(text) >= sizeof obj->text) {
        mmb_errorf(err, errlen, "objective '%s' is too long", text);
        return -1;
    }
    strcpy(obj->text, text);
    strcpy(name, text);
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
    const char *column = !strcmp(name, "time") ? "time_ms_median" : name;
    const struct mmb_column *c = mmb_column_find(column);
    if (!c || !mmb_column_is_result(c)) {
        char list[1024] = "";
        mmb_join_append(list, sizeof list, ", ", "time");
        for (const struct mmb_column *k = mmb_columns; k->name; k++)
            if (mmb_column_is_result(k))
                mmb_join_append(list, sizeof list, ", ", k->name);
        mmb_errorf(err, errlen, "objective '%s' is not a numeric result column; expected one of %s, "
                   "optionally followed by :min or :max", text, list);
        return -1;
    }
    obj->column = c;
    obj->maximize = direction ? direction > 0 : c->better == MMB_BETTER_HIGHER;
    return 0;
}

bool mmb_objective_needs_counters(const struct mmb_objective *obj)
{
    const char *name = obj->column->name;
    return mmb_metric_find(name) != NULL || !strcmp(name, "flop_counted") || !strcmp(name, "intensity");
}

double mmb_objective_value(const struct mmb_objective *obj, const struct mmb_row *row)
{
    if (row->status != MMB_STATUS_OK)
        return NAN;
    const void *p = (const char *)row + obj->column->offset;
    if (obj->column->type == MMB_COL_INT) {
        long long v = *(const long long *)p;
        return v == MMB_INT_EMPTY ? NAN : (double)v;
    }
    return *(const double *)p;
}

double mmb_objective_score(const struct mmb_objective *obj, const struct mmb_row *row)
{
    double v = mmb_objective_value(obj, row);
    if (isnan(v))
        return INFINITY;
    return obj->maximize ? -v : v;
}
