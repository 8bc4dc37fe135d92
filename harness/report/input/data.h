/* data.h - what the report reads and selects: every row of every CSV, the
 * GPUs, kernels and shapes found, the best configuration per (GPU, kernel, shape)
 * of the selected dtype and cache mode. */
#ifndef MMB_REPORT_DATA_H
#define MMB_REPORT_DATA_H

#include <stdbool.h>
#include <stddef.h>

#include "report/input/shape.h"
#include "report/input/story.h"
#include "results/csv_samples.h"
#include "results/row.h"

#define MMB_REPORT_NAME_MAX 64

/* What one report reads at most: rows, and the GPUs, kernels and matrix shapes that its
 * figures can tell apart. More is an error naming the row where the limit was passed,
 * not a silently truncated figure.
 * Memory: a row takes sizeof(struct mmb_report_row), 2,120 bytes with the columns of now
 * (the precision columns pipe, pipe_pct, tensor_pct and tensor_inst,
 * theoretical_occupancy_pct, the issue, shared-memory and warp-stall counters, the
 * origin's three text cells, 544 bytes, and the clock, throttle, power and energy
 * columns among them) and at most MMB_REPORT_ROW_BYTES (checked when built), in an array
 * that grows by a quarter (tests/test_report.c checks it); while a CSV is read, its whole
 * text is held too, one CSV at a time, each at most 256 MiB. Measured before the issue,
 * stall, clock and energy columns (with 1,832-byte rows; not measured again since) peak
 * resident memory of a report built without CUDA (with it, add the ~250 MB its libraries
 * take), `report -n` of one CSV of course.csv's ok rows repeated (each copy a parameter of
 * its own), with the precision, occupancy and origin columns filled (protocol and
 * compile_options texts of the harness's form): 2.63 and 2.62 KiB a row for 100,000 and
 * 300,000 rows (a row's text is 0.84 kB). At the limit, 1,000,000 rows, by the row size
 * alone: 2.12 GB of rows and the text of the CSV being read (up to 256 MiB), about
 * 2.4 GB. */
#define MMB_REPORT_ROWS_MAX 1000000
#define MMB_REPORT_ROW_BYTES 2304
#define MMB_REPORT_GPUS_MAX 32
#define MMB_REPORT_KERNELS_MAX 64
#define MMB_REPORT_SHAPES_MAX 1024
#define MMB_REPORT_PROFILES_MAX 64

/* What a profile's INI says of one of its kernels, for the worklog: what it changes
 * and the counter that motivated it (profile keys summary and motivation), and its
 * source file as the profile resolves it ("" for a library kernel). */
struct mmb_report_kernel_doc {
    char name[64];
    char summary[200];
    char motivation[48];
    char source[1024];
};

struct mmb_report_profile {
    char name[MMB_REPORT_NAME_MAX]; /* the CSV's profile cell; "" for rows without one */
    /* from <root>/profiles/<name>.ini when it loads: its `role =` (declared false when
     * the INI has none or is not there: the name decides) and its kernels in order */
    bool declared;
    enum mmb_report_role declared_role;
    /* its [tune] objective includes an energy column (time,energy): a search for the
     * time/energy front, which the Energy efficiency section shows, not the Tuning one */
    bool energy_objective;
    struct mmb_report_kernel_doc *docs;
    size_t ndocs;
    size_t rows, ok, published;     /* ok: ok rows with a time, published ones not counted */
    size_t ndtypes;                 /* element types among its ok rows */
    enum mmb_report_role role;
    /* [kernel]: its place among the profile INI's [kernel] sections, MMB_REPORT_UNRANKED
     * when the INI does not name it (or is not there) */
    unsigned char rank[MMB_REPORT_KERNELS_MAX];
};
#define MMB_REPORT_UNRANKED 255

struct mmb_report_file {
    char *path;   /* as opened */
    char *shown;  /* relative to the source root when under it */
    char *note;   /* the text of a sidecar <name>.md next to the CSV, or NULL */
    size_t rows, published;
    size_t by_status[MMB_STATUS_COUNT];
    size_t superseded; /* rows left out: a later row of their configuration counts (results/resume.h) */
    struct mmb_samples_set *samples; /* its side file's launch times (empty without one) */
};

struct mmb_report_gpu {
    char name[MMB_REPORT_NAME_MAX];
    char slug[MMB_REPORT_NAME_MAX];
    double peak_gbps, peak_gflops; /* NaN when no row names them */
    size_t rows, selected, published, l2_low;
    size_t plotted, with_counters;  /* best rows (the plotted ones), and of them those with counters */
    size_t by_status[MMB_STATUS_COUNT];
    bool all_published;
};

struct mmb_report_row {
    struct mmb_row r;
    size_t file, gpu, kernel, profile;
    long line;
    int shape;        /* index into shapes, -1 when not selected */
    bool published;   /* reason starts with "published" */
    bool story;       /* of the main profile, or published: what the story may draw */
    bool apart;       /* of a profile whose own section lists every kernel's status and reason */
    bool selected;    /* a story row, ok, timed, of the selected dtype and cache mode */
    bool l2_low;      /* DRAM writes under half the output: the output stayed in L2 */
};

/* The best row of one (GPU, kernel, shape): data.c keeps them sorted by the three. */
struct mmb_report_best {
    size_t gpu, kernel, shape, row;
};

struct mmb_report_data {
    const char *root;                     /* source root: profiles/<name>.ini are read there; NULL: none */
    struct mmb_report_row *rows;
    size_t nrows, caprows;
    struct mmb_report_file *files;
    size_t nfiles;
    /* filled by mmb_report_select */
    struct mmb_report_profile *profiles;  /* in the order the data names them */
    size_t nprofiles;
    int main;                             /* the story's profile; -1 without rows */
    const char *main_rule;                /* how it was chosen, as the README says it */
    int dtypes;                           /* the element-type table's profile; -1 none */
    struct mmb_report_gpu *gpus;          /* oldest first: by FP32 peak, unknown last */
    size_t ngpus;
    /* the story's kernels first, in the main profile's order (then kernels only
     * published rows name), cuBLAS last of them: kernels[0..nstory); then the other
     * profiles' kernels by first appearance (cuBLAS last when the story has none) */
    char (*kernels)[MMB_REPORT_NAME_MAX];
    size_t nkernels, nstory;
    int cublas;                           /* kernel index of "cublas", -1 when absent */
    struct mmb_report_shape *shapes;      /* selected shapes by FLOP count */
    size_t nshapes;
    int ref;                              /* shape of tables, bars and heatmaps; -1 if none */
    char dtype[8], cache[8];
    size_t other_dtype, other_cache;      /* ok story rows left out by the selection */
    size_t other_profile;                 /* ok rows of the other profiles */
    struct mmb_report_best *best;         /* one per (gpu, kernel, shape) with a selected row */
    size_t nbest;
    char warnings[2048];                  /* what was read without: a note behind a link to nothing; "" */
};

/* Reads one CSV and appends the rows that count (of a configuration measured more than
 * once on one GPU for one profile, the row results/resume.h says counts; the others are counted as
 * superseded), and its side file of launch times. shown is the path the report
 * prints. Every ok row must carry its median time (min <= median <= max when all are
 * there). */
int mmb_report_data_add_csv(struct mmb_report_data *d, const char *path, const char *shown, char *err,
                            size_t errlen);

void mmb_report_data_free(struct mmb_report_data *d);

/* A kernel's note from a CSV's note (x.md beside x.csv): the last cell of the row of
 * a Markdown table whose first cell names the kernel (`name` or name), trimmed, into
 * out. False when no row names it. */
bool mmb_report_data_note_kernel(const char *note, const char *kernel, char *out, size_t len);

#endif
