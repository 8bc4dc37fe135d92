/* state.c - the report's state: output paths, the figure, omission and note
 * lists, and the labels every writer gives a GPU and the selection. */
#include "report/input/state.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/error.h"

int mmb_report_state_path(const struct mmb_report *rep, char *out, size_t len, const char *sub, const char *name,
                          char *err, size_t errlen)
{
    int w = sub ? snprintf(out, len, "%s/%s/%s", rep->out, sub, name) : snprintf(out, len, "%s/%s", rep->out, name);
    if (w < 0 || (size_t)w >= len) {
        mmb_errorf(err, errlen, "%s/%s: path too long", rep->out, name);
        return -1;
    }
    return 0;
}

struct mmb_report_figure *mmb_report_state_figure_add(struct mmb_report *rep, const char *name,
                                                      enum mmb_report_group group, int gpu)
{
    struct mmb_report_figure *figs = realloc(rep->figs, (rep->nfigs + 1) * sizeof *figs);
    if (!figs)
        return NULL;
    rep->figs = figs;
    struct mmb_report_figure *f = &figs[rep->nfigs++];
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", name);
    f->group = group;
    f->gpu = gpu;
    return f;
}

int mmb_report_state_note_add(struct mmb_report *rep, const char *fmt, ...)
{
    char (*notes)[512] = realloc(rep->notes, (rep->nnotes + 1) * sizeof *notes);
    if (!notes)
        return -1;
    rep->notes = notes;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(notes[rep->nnotes++], sizeof notes[0], fmt, ap);
    va_end(ap);
    return 0;
}

int mmb_report_state_omit_add(struct mmb_report *rep, int gpu, const char *what, const char *why)
{
    struct mmb_report_omit *omits = realloc(rep->omits, (rep->nomits + 1) * sizeof *omits);
    if (!omits)
        return -1;
    rep->omits = omits;
    struct mmb_report_omit *o = &omits[rep->nomits++];
    o->gpu = gpu;
    snprintf(o->what, sizeof o->what, "%s", what);
    snprintf(o->why, sizeof o->why, "%s", why);
    return 0;
}

void mmb_report_state_figures_check(struct mmb_report *rep)
{
    for (size_t i = 0; i < rep->nfigs; i++) {
        struct mmb_report_figure *f = &rep->figs[i];
        f->drawn = rep->nformats > 0;
        for (size_t j = 0; j < rep->nformats && f->drawn; j++) {
            char name[256], path[4352];
            struct stat st;
            snprintf(name, sizeof name, "%s.%s", f->name, mmb_report_format_info(rep->formats[j])->name);
            f->drawn = mmb_report_state_path(rep, path, sizeof path, "figures", name, NULL, 0) == 0 &&
                       stat(path, &st) == 0 && st.st_size > 0;
        }
    }
}

void mmb_report_state_selection(const struct mmb_report *rep, int gpu, char *out, size_t len)
{
    const struct mmb_report_data *d = &rep->data;
    bool cache = d->cache[0] && !(gpu >= 0 && d->gpus[gpu].all_published);
    snprintf(out, len, "%s%s%s%s", d->dtype, cache ? ", " : "", cache ? d->cache : "", cache ? " L2" : "");
}

void mmb_report_state_gpu_label(const struct mmb_report *rep, size_t gpu, char *out, size_t len)
{
    const struct mmb_report_gpu *g = &rep->data.gpus[gpu];
    snprintf(out, len, "%s%s", g->name, g->all_published ? " (published)" : "");
}
