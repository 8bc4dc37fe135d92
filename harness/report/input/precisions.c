/* precisions.c - a precisions profile's rows on one GPU, as the Precisions section and
 * figure show them (precisions.h). */
#include "report/input/precisions.h"

#include <math.h>
#include <string.h>

#include "report/input/profiles.h"

static bool ok_at(const struct mmb_report_row *rr, size_t p, size_t g)
{
    return rr->profile == p && rr->gpu == g && rr->r.status == MMB_STATUS_OK && isfinite(rr->r.time_ms_median) &&
           rr->r.time_ms_median > 0 && !rr->published;
}

/* The reference size where the profile has ok rows on g, else its largest square size. */
static bool size_pick(const struct mmb_report_data *d, size_t p, size_t g, struct mmb_report_shape *s)
{
    bool ref = false, any = false;
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_report_row *rr = &d->rows[i];
        if (!ok_at(rr, p, g))
            continue;
        const struct mmb_row *r = &rr->r;
        if (d->ref >= 0 && r->m == d->shapes[d->ref].m && r->n == d->shapes[d->ref].n && r->k == d->shapes[d->ref].k)
            ref = true;
        if (r->m == r->n && r->n == r->k && (!any || r->m > s->m)) {
            *s = (struct mmb_report_shape){r->m, r->n, r->k};
            any = true;
        }
    }
    if (ref)
        *s = d->shapes[d->ref];
    return ref || any;
}

bool mmb_report_precisions_at(const struct mmb_report_data *d, size_t g, struct mmb_report_precisions *out)
{
    size_t ps[MMB_REPORT_PROFILES_MAX], np = mmb_report_profiles_of(d, MMB_REPORT_ROLE_PRECISIONS, ps);
    for (size_t j = 0; j < np; j++) {
        memset(out, 0, sizeof *out);
        out->p = ps[j];
        out->g = g;
        if (!size_pick(d, ps[j], g, &out->s))
            continue;
        size_t ks[MMB_REPORT_KERNELS_MAX], nk = mmb_report_profile_kernels(d, ps[j], ks);
        bool kernel_ok[MMB_REPORT_KERNELS_MAX] = {false};
        for (const struct mmb_dtype_info *t = mmb_dtype_table; t->text; t++) {
            const struct mmb_report_row **best = out->best[out->ndtypes];
            mmb_report_profile_best(d, ps[j], g, t->text, &out->s, best);
            bool any = false;
            for (size_t k = 0; k < nk; k++)
                if (best[ks[k]])
                    any = kernel_ok[ks[k]] = true;
            if (any)
                out->dtypes[out->ndtypes++] = t->text;
        }
        for (size_t k = 0; k < nk; k++)
            if (kernel_ok[ks[k]])
                out->kernels[out->nkernels++] = ks[k];
        if (out->ndtypes)
            return true;
    }
    return false;
}
