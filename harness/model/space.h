/* space.h - a kernel's parameter space: the cartesian product of its parameter
 * values, addressed by index (mixed radix, first parameter slowest), and the
 * restrictions and launch geometry evaluated for one configuration and size. */
#ifndef MMB_SPACE_H
#define MMB_SPACE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/profile.h"
#include "model/tma.h"

struct mmb_config {
    long long values[MMB_MAX_PARAMS]; /* in the kernel's parameter order */
};

struct mmb_geometry {
    long long block[3];
    long long grid[3];
    long long smem_bytes; /* dynamic */
    long long cluster[3]; /* blocks per thread-block cluster; 1x1x1: no cluster */
    bool grid_pending;    /* the grid names max_active_clusters: zero until mmb_space_grid */
};

/* Product of the value counts (1 for a kernel without parameters). */
size_t mmb_space_size(const struct mmb_kernel_spec *kernel);
void mmb_space_config_at(const struct mmb_kernel_spec *kernel, size_t index, struct mmb_config *cfg);

/* Returns 1 when every restriction holds, 0 when one fails (*failed = its index),
 * -1 when evaluating one fails (*failed = its index, err set: division by zero,
 * overflow). */
int mmb_space_allowed(const struct mmb_kernel_spec *kernel, const struct mmb_config *cfg,
                      const struct mmb_size *size, size_t elem_size, int *failed,
                      char *err, size_t errlen);

/* Evaluates every restriction of every kernel at every configuration, size and dtype
 * it runs: -1 with "FILE:LINE: ..." on the first that cannot be evaluated (division
 * by zero, overflow), so that such a profile is bad input before any GPU work. */
/* The int arguments of the kernel's call (args; a matrix argument gets 0 here):
 * -1 with err when one cannot be evaluated or does not fit an int. */
int mmb_space_int_args(const struct mmb_kernel_spec *kernel, const struct mmb_config *cfg,
                       const struct mmb_size *size, size_t elem_size, int *values, char *err, size_t errlen);
/* The values of the kernel's defines (define.NAME) at this configuration and size. */
int mmb_space_define_values(const struct mmb_kernel_spec *kernel, const struct mmb_config *cfg,
                            const struct mmb_size *size, size_t elem_size, long long *values, char *err,
                            size_t errlen);

int mmb_space_check_restrictions(const struct mmb_profile *p, char *err, size_t errlen);

/* Launch geometry for cfg at size on a device of sm_count multiprocessors (the value of
 * `sm_count` in grid_x, grid_y and grid_z; 0 where none is known, which makes such a grid
 * an error). Returns 0 or -1 with err (e.g. a zero divisor, a grid that is not a whole
 * number of clusters). A grid that names max_active_clusters, which only the loaded
 * kernel tells, is left pending (geo->grid_pending, the grid zero): the rest is
 * known and checked, and mmb_space_grid completes it. */
int mmb_space_geometry(const struct mmb_kernel_spec *kernel, const struct mmb_config *cfg,
                       const struct mmb_size *size, size_t elem_size, int sm_count,
                       struct mmb_geometry *geo, char *err, size_t errlen);
/* The grid of geo (from mmb_space_geometry) with max_active_clusters known: the
 * clusters of this configuration that are resident on the device at once (its
 * blocks, without a cluster). Returns 0 or -1 with err. */
int mmb_space_grid(const struct mmb_kernel_spec *kernel, const struct mmb_config *cfg, const struct mmb_size *size,
                   size_t elem_size, int sm_count, long long max_active_clusters, struct mmb_geometry *geo, char *err,
                   size_t errlen);

/* The box and swizzle of the kernel's argument arg (a tma(...) item) at cfg and
 * size, unchecked (model/tma.h checks them). Returns 0 or -1 with err. */
int mmb_space_tma_box(const struct mmb_kernel_spec *kernel, int arg, const struct mmb_config *cfg,
                      const struct mmb_size *size, size_t elem_size, struct mmb_tma_box *box, char *err, size_t errlen);

/* "block_size_x=16;block_size_y=16"; "" without parameters. */
void mmb_space_format_params(const struct mmb_kernel_spec *kernel, const struct mmb_config *cfg,
                             char *buf, size_t len);

/* Parses the params text back into cfg; returns -1 when a name or value is not in
 * the space (resume and tune caches use this). */
int mmb_space_parse_params(const struct mmb_kernel_spec *kernel, const char *text,
                           struct mmb_config *cfg, size_t *index);

#endif
