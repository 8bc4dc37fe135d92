/* export.h - `mmbench export --best`: from rows read as the report reads them, the
 * fastest ok configuration of each GPU, kernel, size, dtype and cache mode, written for
 * a program that compiles the tuned kernel: the #defines of a C header, or JSON. */
#ifndef MMB_REPORT_EXPORT_H
#define MMB_REPORT_EXPORT_H

#include <stddef.h>
#include <stdio.h>

#include "report/input/data.h"

/* Which rows count; NULL: all. */
struct mmb_report_export_options {
    const char *profile;  /* the CSV's profile column */
    const char *gpu;      /* a GPU's name as the CSV has it, or its data folder (mmb_gpu_slug) */
    const char *kernels;  /* kernel names, comma-separated */
    const char *writer;   /* who wrote it, for the header's comment and the JSON ("mmbench 0.1.0 ...") */
};

/* One exported configuration. */
struct mmb_report_export_entry {
    const struct mmb_report_row *best;   /* the ok row of the lowest median time (then the lowest min) */
    const struct mmb_report_row *cublas; /* the fastest ok cuBLAS row of its problem on its GPU; NULL */
    size_t configurations;               /* ok rows it was chosen from */
    char prefix[256];                    /* its macros' start: MMB_BEST_<KERNEL>_<M>X<N>X<K>_<DTYPE>_<CACHE>_<GPU> */
};

/* The entries of d's rows, by GPU, kernel, dtype, cache and size (malloc'ed into
 * *out, *n of them). Only ok rows with parameters count (cuBLAS has none; published
 * rows were not measured by mmbench). Returns 0, or -1 with err: a filter that names
 * nothing in the data (with what the data has), nothing to export, a params cell that
 * is not name=integer pairs or a parameter name that is not a C identifier
 * ("file:line: ..."), or two entries whose macros would have one name. */
int mmb_report_export_find(const struct mmb_report_data *d, const struct mmb_report_export_options *o,
                           struct mmb_report_export_entry **out, size_t *n, char *err, size_t errlen);

/* The C header of the entries. Returns 0, or -1 when writing to f fails. */
int mmb_report_export_header(FILE *f, const struct mmb_report_data *d, const struct mmb_report_export_options *o,
                             const struct mmb_report_export_entry *e, size_t n);

/* The JSON of the entries, malloc'ed, ending in a newline; NULL when out of memory. */
char *mmb_report_export_json(const struct mmb_report_data *d, const struct mmb_report_export_options *o,
                             const struct mmb_report_export_entry *e, size_t n);

#endif
