/* panels.c - figures made of one panel per GPU: a GPU's own figure, and every
 * GPU side by side. */
#include "report/figures/panels.h"

#include <string.h>

#include "core/error.h"
#include "report/input/out.h"
#include "report/input/select.h"

/* <prefix>-<GPU slug>: GPU g's figure and data file. */
static void panel_name(const struct mmb_report *rep, const struct mmb_report_panels *p, size_t g, char *out,
                       size_t len)
{
    snprintf(out, len, "%s-%s", p->prefix, rep->data.gpus[g].slug);
}

int mmb_report_panels_data(struct mmb_report *rep, const struct mmb_report_panels *p, char *err, size_t errlen)
{
    for (size_t g = 0; g < rep->data.ngpus; g++) {
        if (!mmb_report_select_gpu_has(&rep->data, g, NULL))
            continue;
        char name[160];
        panel_name(rep, p, g, name, sizeof name);
        if (p->data(rep, g, name, &p->has[g], p->ctx, err, errlen) != 0)
            return -1;
    }
    return 0;
}

/* Registers the figure and opens its script. */
static struct mmb_report_figure *figure_open(struct mmb_report *rep, const char *name, enum mmb_report_group group,
                                             int gpu, struct mmb_report_out *o, char *err, size_t errlen)
{
    struct mmb_report_figure *fig = mmb_report_state_figure_add(rep, name, group, gpu);
    if (!fig) {
        mmb_errorf(err, errlen, "out of memory");
        return NULL;
    }
    return mmb_report_out_open(o, err, errlen) == 0 ? fig : NULL;
}

/* GPU g's own figure. */
static int gpu_figure_write(struct mmb_report *rep, const struct mmb_report_panels *p, size_t g, const char *what,
                            const char *caption, struct mmb_gp_canvas c, char *err, size_t errlen)
{
    char name[160], gpu[128], sel[64];
    panel_name(rep, p, g, name, sizeof name);
    struct mmb_report_out o;
    struct mmb_report_figure *fig = figure_open(rep, name, MMB_REPORT_GROUP_GPU, (int)g, &o, err, errlen);
    if (!fig)
        return -1;
    mmb_report_state_gpu_label(rep, g, gpu, sizeof gpu);
    mmb_report_state_selection(rep, (int)g, sel, sizeof sel);
    snprintf(fig->title, sizeof fig->title, "%s: %s (%s)", gpu, what, sel);
    snprintf(fig->caption, sizeof fig->caption, "%s", caption);
    mmb_gp_script_begin(o.f, rep, name, fig->title, c);
    p->panel(o.f, rep, g, name, fig->title, &mmb_gp_alone, p->ctx);
    mmb_gp_script_end(o.f);
    return mmb_gp_commit(rep, &o, name, "gp", err, errlen);
}

int mmb_report_panels_each(struct mmb_report *rep, const struct mmb_report_panels *p, const char *what,
                           const char *caption, struct mmb_gp_canvas c, char *err, size_t errlen)
{
    for (size_t g = 0; g < rep->data.ngpus; g++)
        if (p->has[g] && gpu_figure_write(rep, p, g, what, caption, c, err, errlen) != 0)
            return -1;
    return 0;
}

int mmb_report_panels_gpus(struct mmb_report *rep, const struct mmb_report_panels *p, const char *name,
                           const char *title, const char *caption, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    size_t panels = 0;
    for (size_t g = 0; g < d->ngpus; g++)
        panels += p->has[g];
    if (panels < 2)
        return 0;
    struct mmb_report_out o;
    struct mmb_report_figure *fig = figure_open(rep, name, MMB_REPORT_GROUP_GPUS, -1, &o, err, errlen);
    if (!fig)
        return -1;
    snprintf(fig->title, sizeof fig->title, "%s", title);
    snprintf(fig->caption, sizeof fig->caption, "%s", caption);
    struct mmb_gp_pos pos = mmb_gp_multi_pos(panels);
    mmb_gp_script_begin(o.f, rep, name, fig->title, pos.c);
    mmb_gp_multiplot_begin(o.f, fig->title);
    for (size_t g = 0; g < d->ngpus; g++) {
        if (!p->has[g])
            continue;
        char dat[160], gpu[128];
        panel_name(rep, p, g, dat, sizeof dat);
        mmb_report_state_gpu_label(rep, g, gpu, sizeof gpu);
        p->panel(o.f, rep, g, dat, gpu, &pos, p->ctx);
        pos.idx++;
    }
    p->legend(o.f, rep, &pos, p->ctx);
    fputs("    unset multiplot\n", o.f);
    mmb_gp_script_end(o.f);
    return mmb_gp_commit(rep, &o, name, "gp", err, errlen);
}
