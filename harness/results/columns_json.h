/* columns_json.h - the column table and result rows as JSON (cJSON), for programs:
 * `mmbench columns` prints the table, and `run`/`tune --format jsonl` print each row
 * as one object whose keys are the CSV's columns, in the CSV's order, with the CSV's
 * cell text as the value (a number for an int or real column, a string otherwise,
 * null for an empty cell, the string "inf" where a real cell says inf). */
#ifndef MMB_COLUMNS_JSON_H
#define MMB_COLUMNS_JSON_H

#include <cjson/cJSON.h>

#include "results/columns.h"
#include "results/row.h"

/* The names of a column's type, role, requirement, better direction and domain, as
 * the JSON of the table writes them ("int", "key", ...). */
const char *mmb_columns_json_type(enum mmb_col_type type);
const char *mmb_columns_json_role(enum mmb_col_role role);
const char *mmb_columns_json_domain(enum mmb_col_domain domain);

/* {"columns": [{"name", "type", "role", "required", "better", "domain", "values"
 * (the names a name domain allows; absent for the others), "unit", "description"},
 * ...]}, in CSV order. NULL when out of memory. */
cJSON *mmb_columns_json_table(void);

/* The row as one object (see above). NULL when out of memory. */
cJSON *mmb_columns_json_row(const struct mmb_row *row);
/* The same as one line of text with its newline, malloc'ed; NULL when out of memory. */
char *mmb_columns_json_line(const struct mmb_row *row);

#endif
