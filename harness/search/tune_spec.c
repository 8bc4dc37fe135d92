/* tune_spec.c - checks a loaded profile's [tune] strategy and objective, the two
 * values whose meaning lives in search/ (the strategy table, the objective's
 * columns). Messages are those of a bad key in the loader: "path:line: ...". */
#include "search/tune_spec.h"

#include <stdbool.h>
#include <stdio.h>

#include "core/error.h"
#include "search/objective.h"
#include "search/strategy.h"

/* As long as the loader's buffer for one key's message, so that a long message is
 * cut where it was before the check moved here. */
#define MSG_MAX 768

int mmb_tune_spec_check(const struct mmb_profile *p, char *err, size_t errlen)
{
    const struct mmb_tune_spec *t = &p->tune;
    char strategy_msg[MSG_MAX], objective_msg[MSG_MAX];
    bool bad_strategy = !mmb_strategy_find(t->strategy);
    if (bad_strategy) {
        char names[128];
        mmb_strategy_list(names, sizeof names);
        snprintf(strategy_msg, sizeof strategy_msg, "unknown strategy '%s'; expected one of %s", t->strategy,
                 names);
    }
    struct mmb_objective o;
    bool bad_objective = mmb_objective_parse(t->objective, &o, objective_msg, sizeof objective_msg) != 0;
    if (!bad_strategy && !bad_objective)
        return 0;
    /* The loader stops at the first bad line; so does this. */
    bool strategy_first = bad_strategy && (!bad_objective || t->strategy_line <= t->objective_line);
    int line = strategy_first ? t->strategy_line : t->objective_line;
    return mmb_failf(err, errlen, "%s:%d: %s", p->path, line ? line : 1,
                     strategy_first ? strategy_msg : objective_msg);
}
