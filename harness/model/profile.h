/* profile.h - a sweep or tuning profile (INI, read with libinih): sizes, dtypes,
 * timing, metrics and one section per kernel. The grammar is in docs/profiles.md. */
#ifndef MMB_PROFILE_H
#define MMB_PROFILE_H

#include <limits.h>
#include <stdbool.h>

#include "core/cache.h"
#include "core/converge.h"
#include "core/counters.h"
#include "core/dtype.h"
#include "core/expr.h"
#include "model/library.h"
#include "model/sizes.h"

#define MMB_MAX_PARAMS 16
#define MMB_MAX_VALUES 64
#define MMB_MAX_RESTRICTIONS 16
#define MMB_MAX_ARGS 16
#define MMB_MAX_DEFINES 16
#define MMB_MAX_SIZES 256
#define MMB_MAX_TARGETS 8
#define MMB_MAX_KERNELS 32
#define MMB_PATH_MAX 1024
/* The params text of a row ("name=value;..."), with its zero: a kernel whose longest
 * configuration would not fit is refused, so that the text always names its configuration. */
#define MMB_PARAMS_LEN 256
/* Configurations per kernel unless [profile] max_configurations says otherwise. */
#define MMB_DEFAULT_MAX_CONFIGS 1000000
/* Under a noise target, unless [profile] or the command line say otherwise. */
#define MMB_DEFAULT_MIN_SAMPLES 10
#define MMB_DEFAULT_MAX_SECONDS 1.0

struct mmb_param {
    char name[32];
    long long values[MMB_MAX_VALUES];
    int nvalues;
    int line;
};

struct mmb_restriction {
    struct mmb_expr *expr; /* non-zero means allowed */
    int line;
};

/* One argument of the kernel's call: a matrix by its role, an int expression, or a
 * TMA tensor map of a matrix (docs/profiles.md "Tensor maps"). */
enum mmb_arg_kind { MMB_ARG_A, MMB_ARG_B, MMB_ARG_C, MMB_ARG_INT, MMB_ARG_TMA };

struct mmb_kernel_arg {
    enum mmb_arg_kind kind;
    struct mmb_expr *expr;    /* MMB_ARG_INT: over the parameters, M, N, K, elem_size */
    /* MMB_ARG_TMA: tma(matrix, box_inner, box_outer, swizzle), the matrix MMB_ARG_A, B
     * or C, the box in elements along its contiguous (inner) and its row (outer)
     * dimension, the swizzle in bytes; expressions as an int argument's. */
    enum mmb_arg_kind matrix;
    struct mmb_expr *box_inner, *box_outer, *swizzle;
};

/* A -D macro whose value comes from the problem or the configuration: WIDTH = N. */
struct mmb_kernel_define {
    char name[32];
    struct mmb_expr *expr;
    int line;
};

/* An item of a kernel's `target`: sm_90a (specific: compute capability 9.0 only,
 * compiled for its arch-specific variant) or sm_90 (9.0 or newer, compiled for the
 * device's own sm_XY). */
struct mmb_target {
    int arch;                 /* 90 for sm_90 and sm_90a */
    bool specific;
};

/* What NVRTC lacks of what nvcc makes visible without an #include. */
enum mmb_prelude {
    MMB_PRELUDE_NONE,
    MMB_PRELUDE_STDINT,       /* the fixed-width integer types (uint8_t, ...) as <cstdint> has them */
};

/* What a profile is for in the report (`role =`): its story, a ladder of kernels,
 * a tuning run, kernels as their documents print them, a precision sweep; NONE: not
 * declared (the report falls back on the profile's name, for profiles written before
 * the key). One table (profile.c) maps each to its text. */
enum mmb_profile_role {
    MMB_PROFILE_ROLE_NONE,
    MMB_PROFILE_ROLE_STORY,
    MMB_PROFILE_ROLE_LADDER,
    MMB_PROFILE_ROLE_TUNING,
    MMB_PROFILE_ROLE_AS_WRITTEN,
    MMB_PROFILE_ROLE_PRECISIONS,
    MMB_PROFILE_ROLE_OTHER,
    MMB_PROFILE_ROLE_COUNT,
};

/* "ladder" for MMB_PROFILE_ROLE_LADDER; NULL for NONE and out of range. */
const char *mmb_profile_role_text(enum mmb_profile_role role);
/* The names of the roles, quoted and joined ("'story', 'ladder', ..."), for messages. */
void mmb_profile_role_names(char *buf, size_t len);

struct mmb_kernel_spec {
    char name[64];            /* from the section header [kernel NAME] */
    /* For the report's worklog (docs/profiles.md "Report keys"): what this kernel
     * changes from the one before (`summary`), and the counter column that motivated
     * the change (`motivation`, a column name checked against the column table by
     * mmb_profile_check_motivations, results/profile_columns.h); "" when not given. */
    char summary[200];
    char motivation[48];
    int motivation_line;
    int line;                 /* of the section header */
    enum mmb_kernel_kind kind;/* MMB_KERNEL_SOURCE, or a library's (model/library.h) */
    char source[MMB_PATH_MAX];/* resolved against the profile's folder */
    char function[128];       /* the __global__ function: a C name, a C++ name, or a template
                               * instance such as mat_mat_mul<elem_t> (elem_t: the dtype's type) */
    unsigned dtypes;          /* bit (1u << enum mmb_dtype); 0 = all of the profile's */
    struct mmb_param params[MMB_MAX_PARAMS];
    int nparams;
    struct mmb_restriction restrictions[MMB_MAX_RESTRICTIONS];
    int nrestrictions;
    /* Launch geometry; names: the parameters, M, N, K, elem_size. Defaults:
     * block_x = block_size_x (or 1 when not a parameter), likewise y and z;
     * grid_div_x = block_x, grid_div_y = block_y. grid = ceil(N / div_x) x ceil(M / div_y). */
    struct mmb_expr *block_x, *block_y, *block_z;
    struct mmb_expr *grid_div_x, *grid_div_y;
    struct mmb_expr *smem;    /* dynamic shared memory bytes; default 0 */
    /* After a successful mmb_profile_load none of the six expressions is NULL. */
    struct mmb_expr *grid_x, *grid_y, *grid_z; /* blocks per direction; NULL: from grid_div */
    /* Thread-block cluster in blocks per direction; NULL: 1. A cluster of more than one
     * block launches through cudaLaunchKernelEx with a cluster dimension. */
    struct mmb_expr *cluster_x, *cluster_y, *cluster_z;
    /* target: the architectures the kernel is written for, in the profile's order;
     * none: any, compiled for the device's own sm_XY. A device that none of them
     * admits does not run the kernel (mmb_kernel_target). */
    struct mmb_target targets[MMB_MAX_TARGETS];
    int ntargets;
    /* The call (docs/profiles.md "Kernels as written"): args, default the mmbench ABI
     * (C, A, B, M, N, K); defines from the problem and the parameters; a prelude. */
    struct mmb_kernel_arg args[MMB_MAX_ARGS];
    int nargs;
    int args_line;            /* of `args`; 0: the default ABI */
    struct mmb_kernel_define defines[MMB_MAX_DEFINES];
    int ndefines;
    bool defines_use_size;    /* a define names M, N or K: compiled per problem size */
    enum mmb_prelude prelude;
    char nvrtc_options[256];  /* extra options, space-separated */
};

/* Room for any value a profile line can carry (libinih reads lines of up to 200
 * bytes), so that search/ checks [tune] text exactly as it was written. */
#define MMB_TUNE_TEXT_MAX 256

/* [tune]: how `mmbench tune` searches (docs/profiles.md); its options override.
 * mmb_profile_load reads strategy and objective as text; mmb_tune_spec_check
 * (search/tune_spec.h) checks them against the strategy table and the columns. */
struct mmb_tune_spec {
    int line;                 /* of [tune]; 0 when the profile has none */
    char strategy[MMB_TUNE_TEXT_MAX];  /* a name from the strategy table; default brute_force */
    int strategy_line;        /* 0: the default */
    char objective[MMB_TUNE_TEXT_MAX]; /* time, gflops, or a numeric column[:min|:max]; default time */
    int objective_line;       /* 0: the default */
    long long max_fevals;     /* 0: no limit */
    double time_limit;        /* seconds per tune invocation; 0: none */
    unsigned long long seed;  /* of the search (not of the inputs); default 1 */
    char kernels[MMB_MAX_KERNELS][64]; /* source kernels to tune; none listed: all */
    int nkernels;
    int kernels_line;
    struct mmb_size sizes[MMB_MAX_SIZES]; /* none listed: the profile's sizes */
    int nsizes;
    bool record_restricted;   /* rows with status restricted for removed configurations */
};

/* The energy phase's defaults (docs/energy.md says why these). */
#define MMB_ENERGY_SECONDS_DEFAULT 0.2
#define MMB_THROTTLE_RETRIES_DEFAULT 1
#define MMB_THROTTLE_THRESHOLD_DEFAULT 90.0

struct mmb_profile {
    char path[MMB_PATH_MAX];
    char name[64];            /* [profile] name, default: file name without .ini */
    char description[256];
    enum mmb_profile_role role; /* `role =`; NONE when not declared */
    struct mmb_size sizes[MMB_MAX_SIZES];
    int nsizes;
    unsigned dtypes;          /* bit (1u << enum mmb_dtype); default f32 */
    int repeats;              /* timed launches per configuration, default 20; unused with noise */
    double noise;             /* the median's relative precision to time to; 0: none (repeats) */
    int min_samples;          /* with noise: timed launches at least; 0: MMB_DEFAULT_MIN_SAMPLES */
    double max_seconds;       /* with noise: cap on timed launching; 0: MMB_DEFAULT_MAX_SECONDS */
    int warmup;               /* untimed launches first, default 2 */
    enum mmb_cache_mode cache;/* default cold */
    char metrics[256];        /* metric set text, default "default" */
    int metrics_line;         /* where it is set; 0: the default */
    enum mmb_counters counters; /* which rows get counters (`counters =`) */
    int counters_line;        /* where it is set; 0: not set, the command's default (mmb_profile_counters) */
    double tolerance[MMB_DTYPE_COUNT]; /* tolerance.DTYPE; NaN: the dtype's rule (mmb_dtype_tolerance_for) */
    unsigned long long seed;  /* input generator seed, default 1 */
    double timeout;           /* seconds one configuration may take, default 120 */
    long long max_configs;    /* configurations one kernel may have, default MMB_DEFAULT_MAX_CONFIGS */
    /* clocks, power, energy (model/profile_energy.h) */
    enum mmb_energy_mode energy; /* energy = best|all|off: which rows get the energy phase */
    int energy_line;          /* where it is set; 0: not set, the command's default (mmb_profile_energy) */
    double energy_seconds;    /* its window at least, default MMB_ENERGY_SECONDS_DEFAULT */
    int throttle_retries;     /* a throttled row measured again at most, default MMB_THROTTLE_RETRIES_DEFAULT */
    double throttle_threshold; /* % of the maximum SM clock below which a throttled row is measured again,
                                * default MMB_THROTTLE_THRESHOLD_DEFAULT; 100: every throttled row */
    struct mmb_kernel_spec kernels[MMB_MAX_KERNELS];
    int nkernels;
    struct mmb_tune_spec tune;
};

/* Reads and validates path. Returns 0, or -1 with err "path:line: what was expected".
 * Validation covers unknown sections and keys, values, sizes, duplicate parameters,
 * restrictions and geometry expressions that name something unknown. [tune]'s
 * strategy and objective are only read: mmb_tune_spec_check (search/tune_spec.h)
 * checks them, and every command calls it next. On failure nothing is left to
 * free; mmb_profile_free is safe either way. */
int mmb_profile_load(const char *path, struct mmb_profile *profile, char *err, size_t errlen);
void mmb_profile_free(struct mmb_profile *profile);

/* What the command line asks of timing (run and tune options); 0 where it asks nothing. */
struct mmb_timing_request {
    int repeats;              /* --repeats: a fixed count */
    double noise;             /* --noise: a target, a fraction */
    int min_samples;          /* --min-samples */
    double max_seconds;       /* --max-seconds */
};

/* How run and tune time each configuration (profile_timing.c): a fixed count
 * (--repeats, else the profile's repeats unless it sets noise) or a noise target
 * (--noise, else the profile's), its min_samples and max_seconds from the command
 * line, else the profile, else the defaults. Returns 0, or -1 with err when the
 * command line mixes --repeats with the target's options, or gives --min-samples or
 * --max-seconds with no target anywhere. */
int mmb_profile_timing(const struct mmb_profile *p, const struct mmb_timing_request *cli,
                       struct mmb_converge_spec *out, char *err, size_t errlen);

/* Which rows get counters: the command line's mode when given (cli_set), else the
 * profile's `counters`, else the command's own default (run: best, tune: all); none
 * whatever was asked when the profile's metric set is empty (`metrics = none`). */
enum mmb_counters mmb_profile_counters(const struct mmb_profile *p, bool cli_set, enum mmb_counters cli,
                                       enum mmb_counters command_default, bool no_metrics);

/* The dtypes kernel supports: its own `dtypes`, or the profile's when it has none
 * (bits 1u << enum mmb_dtype). */
unsigned mmb_kernel_dtypes(const struct mmb_profile *profile, const struct mmb_kernel_spec *kernel);
/* True when run and tune measure kernel at dtype: the kernel supports it and the
 * profile's `dtypes` lists it. */
bool mmb_kernel_runs_dtype(const struct mmb_profile *profile, const struct mmb_kernel_spec *kernel,
                           enum mmb_dtype dtype);

/* What kernel compiles for on a device of compute capability arch (90 for 9.0): the
 * arch-specific variant sm_90a when its `target` lists sm_90a (*specific true); else
 * the device's own sm_90 (*specific false) when it has no `target` or one that lists
 * sm_XY with XY <= arch. Returns false, with why ("kernel 'k' is built for sm_90a
 * (compute capability 9.0 only), its target, and not for sm_80"), when no item admits
 * arch: the device cannot run it. */
bool mmb_kernel_target(const struct mmb_kernel_spec *kernel, int arch, bool *specific, char *why, size_t whylen);
/* "sm_90a, sm_100": the kernel's targets as the profile writes them ("" without). */
void mmb_kernel_targets_text(const struct mmb_kernel_spec *kernel, char *buf, size_t len);

#endif
