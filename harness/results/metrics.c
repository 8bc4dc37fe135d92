/* metrics.c - the metric table and metric-set parsing with close-match suggestions. */
#include "results/metrics.h"

#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* CUPTI name, the row field (and CSV column) it fills, CUPTI's unit, scale, merge, sets. */
#define METRIC(cupti, field, cupti_unit, scale, merge, groups) \
    {cupti, #field, cupti_unit, scale, MMB_MERGE_##merge, groups, offsetof(struct mmb_row, field)}

const struct mmb_metric mmb_metrics[] = {
    /* the kernel's duration on the GPU: weighs merged ranges; checked against the
     * event timing and ncu */
    {"gpu__time_duration.sum", NULL, "nanosecond", 1.0, MMB_MERGE_SUM, 0, 0},
    METRIC("dram__bytes_read.sum", dram_read_bytes, "byte", 1.0, SUM, MMB_METRIC_MEMORY),
    METRIC("dram__bytes_write.sum", dram_write_bytes, "byte", 1.0, SUM, MMB_METRIC_MEMORY),
    METRIC("dram__bytes.sum.per_second", dram_gbps, "byte/second", 1e-9, TIME_AVG, MMB_METRIC_MEMORY),
    METRIC("dram__throughput.avg.pct_of_peak_sustained_elapsed", dram_util_pct, "percent", 1.0, TIME_AVG,
           MMB_METRIC_MEMORY),
    METRIC("sm__throughput.avg.pct_of_peak_sustained_elapsed", sm_util_pct, "percent", 1.0, TIME_AVG,
           MMB_METRIC_COMPUTE),
    METRIC("smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", ffma, "instruction", 1.0, SUM,
           MMB_METRIC_INSTRUCTIONS),
    METRIC("smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", fadd, "instruction", 1.0, SUM,
           MMB_METRIC_INSTRUCTIONS),
    METRIC("smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", fmul, "instruction", 1.0, SUM,
           MMB_METRIC_INSTRUCTIONS),
    METRIC("l1tex__t_sector_hit_rate.pct", l1_hit_pct, "percent", 1.0, TIME_AVG, MMB_METRIC_MEMORY),
    METRIC("lts__t_sector_hit_rate.pct", l2_hit_pct, "percent", 1.0, TIME_AVG, MMB_METRIC_MEMORY),
    METRIC("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", smem_bank_conflicts,
           "l1data_bank_conflict", 1.0, SUM, MMB_METRIC_COMPUTE),
    METRIC("sm__warps_active.avg.pct_of_peak_sustained_active", occupancy_pct, "percent", 1.0, TIME_AVG,
           MMB_METRIC_COMPUTE),
    /* ncu's Speed of Light: the memory levels' throughput (4-5 passes each on GH100,
     * so in `default` only) and the bytes each level moved */
    METRIC("l1tex__throughput.avg.pct_of_peak_sustained_active", l1_util_pct, "percent", 1.0, TIME_AVG, 0),
    METRIC("lts__throughput.avg.pct_of_peak_sustained_elapsed", l2_util_pct, "percent", 1.0, TIME_AVG, 0),
    METRIC("l1tex__t_bytes.sum", l1_bytes, "byte", 1.0, SUM, MMB_METRIC_MEMORY),
    METRIC("lts__t_bytes.sum", l2_bytes, "byte", 1.0, SUM, MMB_METRIC_MEMORY),
    /* the tensor cores: every tensor pipe's active cycles (on GH100 HMMA with HGMMA and
     * QGMMA, IMMA with IGMMA, and DMMA), as ncu's pipe utilisation counts them, and the
     * warp instructions they executed */
    METRIC("sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active", tensor_pct, "percent", 1.0, TIME_AVG,
           MMB_METRIC_COMPUTE | MMB_METRIC_TENSOR),
    METRIC("sm__inst_executed_pipe_tensor.sum", tensor_inst, "instruction", 1.0, SUM,
           MMB_METRIC_COMPUTE | MMB_METRIC_TENSOR),
    /* the limiter's other SM unit, ncu's Issue Slots Busy, and the shared-memory level of
     * the roofline (wavefronts x 128 bytes); both fit in default's passes */
    METRIC("sm__inst_issued.avg.pct_of_peak_sustained_active", issue_pct, "percent", 1.0, TIME_AVG,
           MMB_METRIC_COMPUTE),
    METRIC("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", smem_wavefronts, "l1tex_wavefront", 1.0, SUM,
           MMB_METRIC_COMPUTE),
    /* what holds the warps back: ncu's Warp State Statistics, warp cycles per issued
     * instruction in total and for the eight reasons that hold matrix kernels back (of
     * the nineteen, the rest are branches, instruction fetch, memory barriers, sleep,
     * textures and the tensor cores' own); 3 passes more on GH100 (10 to 13) */
    METRIC("smsp__average_warp_latency_per_inst_issued.ratio", warp_cycles_per_issue, "gpc_cycle", 1.0, TIME_AVG,
           MMB_METRIC_STALLS),
    METRIC("smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio", stall_long_scoreboard, "instruction", 1.0,
           TIME_AVG, MMB_METRIC_STALLS),
    METRIC("smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio", stall_short_scoreboard, "instruction", 1.0,
           TIME_AVG, MMB_METRIC_STALLS),
    METRIC("smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio", stall_mio_throttle, "instruction", 1.0,
           TIME_AVG, MMB_METRIC_STALLS),
    METRIC("smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio", stall_barrier, "instruction", 1.0,
           TIME_AVG, MMB_METRIC_STALLS),
    METRIC("smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio", stall_math_pipe_throttle, "instruction", 1.0,
           TIME_AVG, MMB_METRIC_STALLS),
    METRIC("smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio", stall_not_selected, "instruction", 1.0,
           TIME_AVG, MMB_METRIC_STALLS),
    METRIC("smsp__average_warps_issue_stalled_wait_per_issue_active.ratio", stall_wait, "instruction", 1.0,
           TIME_AVG, MMB_METRIC_STALLS),
    METRIC("smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio", stall_lg_throttle, "instruction", 1.0,
           TIME_AVG, MMB_METRIC_STALLS),
    {NULL, NULL, NULL, 0.0, MMB_MERGE_SUM, 0, 0},
};

/* Named sets; `none` is the empty set. */
static const struct {
    const char *name;
    unsigned groups; /* 0: every metric with a column */
    bool empty;
} set_names[] = {
    {"default", 0, false},
    {"memory", MMB_METRIC_MEMORY, false},
    {"compute", MMB_METRIC_COMPUTE, false},
    {"tensor", MMB_METRIC_TENSOR, false},
    {"stalls", MMB_METRIC_STALLS, false},
    {"instructions", MMB_METRIC_INSTRUCTIONS, false},
    {"none", 0, true},
};
#define SET_NAMES (sizeof set_names / sizeof set_names[0])

size_t mmb_metrics_count(void)
{
    size_t n = 0;
    while (mmb_metrics[n].cupti)
        n++;
    return n;
}

const struct mmb_metric *mmb_metric_find(const char *name)
{
    for (const struct mmb_metric *m = mmb_metrics; m->cupti; m++)
        if (strcmp(m->cupti, name) == 0 || (m->column && strcmp(m->column, name) == 0))
            return m;
    return NULL;
}

double *mmb_metric_field(struct mmb_row *row, const struct mmb_metric *metric)
{
    if (!metric->column)
        return NULL;
    return (double *)((char *)row + metric->offset);
}

bool mmb_metric_set_has(const struct mmb_metric_set *set, size_t index)
{
    for (size_t i = 0; i < set->count; i++)
        if (set->index[i] == index)
            return true;
    return false;
}

size_t mmb_metric_set_size(const struct mmb_metric_set *set)
{
    return set->count;
}

static void set_add(struct mmb_metric_set *set, size_t index)
{
    if (!mmb_metric_set_has(set, index) && set->count < MMB_METRIC_MAX)
        set->index[set->count++] = (unsigned char)index;
}

static void set_add_groups(struct mmb_metric_set *set, unsigned groups)
{
    for (size_t i = 0; mmb_metrics[i].cupti; i++)
        if (mmb_metrics[i].column && (groups == 0 || (mmb_metrics[i].groups & groups)))
            set_add(set, i);
}

/* Levenshtein distance, case-insensitive; long names are cut, they only rank. */
static size_t edit_distance(const char *a, const char *b)
{
    enum { CAP = 80 };
    size_t la = strnlen(a, CAP), lb = strnlen(b, CAP);
    size_t prev[CAP + 1], cur[CAP + 1];
    for (size_t j = 0; j <= lb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t sub = prev[j - 1] + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
            size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
            cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
        memcpy(prev, cur, (lb + 1) * sizeof prev[0]);
    }
    return prev[lb];
}

struct candidate {
    const char *name;
    size_t distance;
};

static void consider(struct candidate best[3], const char *name, size_t distance)
{
    for (int i = 0; i < 3; i++) {
        if (best[i].name && strcmp(best[i].name, name) == 0)
            return;
    }
    for (int i = 0; i < 3; i++) {
        if (!best[i].name || distance < best[i].distance) {
            for (int j = 2; j > i; j--)
                best[j] = best[j - 1];
            best[i] = (struct candidate){name, distance};
            return;
        }
    }
}

/* "unknown metric 'x'; did you mean a, b?" with names within a third of their length
 * (at least 2 edits) of x, or, when none is that close, what the names look like. */
static void report_unknown(const char *word, char *err, size_t errlen)
{
    struct candidate best[3] = {{NULL, 0}, {NULL, 0}, {NULL, 0}};
    for (size_t i = 0; i < SET_NAMES; i++)
        consider(best, set_names[i].name, edit_distance(word, set_names[i].name));
    for (const struct mmb_metric *m = mmb_metrics; m->cupti; m++) {
        consider(best, m->cupti, edit_distance(word, m->cupti));
        if (m->column)
            consider(best, m->column, edit_distance(word, m->column));
    }
    char list[256] = "";
    size_t used = 0;
    for (int i = 0; i < 3 && best[i].name; i++) {
        size_t len = strlen(best[i].name);
        size_t limit = len / 3 > 2 ? len / 3 : 2;
        if (best[i].distance > limit)
            break;
        int n = snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "", best[i].name);
        if (n < 0 || (size_t)n >= sizeof list - used)
            break;
        used += (size_t)n;
    }
    if (used)
        snprintf(err, errlen, "unknown metric '%s'; did you mean %s?", word, list);
    else
        snprintf(err, errlen,
                 "unknown metric '%s'; expected default, memory, compute, tensor, stalls, instructions, none, or a comma list "
                 "of CSV columns (dram_gbps, sm_util_pct, ...) or CUPTI names", word);
}

int mmb_metric_set_parse(const char *text, struct mmb_metric_set *set, char *err, size_t errlen)
{
    set->count = 0;
    if (!text)
        text = "default";
    const char *p = text;
    for (;;) {
        const char *end = strchr(p, ',');
        if (!end)
            end = p + strlen(p);
        while (p < end && isspace((unsigned char)*p))
            p++;
        const char *last = end;
        while (last > p && isspace((unsigned char)last[-1]))
            last--;
        char word[128];
        size_t len = (size_t)(last - p);
        if (len == 0) {
            snprintf(err, errlen, "metric set '%s': empty name (expected default, memory, compute, "
                     "tensor, stalls, instructions, none, or a comma list of metrics)", text);
            return -1;
        }
        if (len >= sizeof word)
            len = sizeof word - 1;
        memcpy(word, p, len);
        word[len] = '\0';

        bool found = false;
        for (size_t i = 0; i < SET_NAMES && !found; i++) {
            if (strcmp(word, set_names[i].name) == 0) {
                if (!set_names[i].empty)
                    set_add_groups(set, set_names[i].groups);
                found = true;
            }
        }
        if (!found) {
            const struct mmb_metric *m = mmb_metric_find(word);
            if (!m) {
                report_unknown(word, err, errlen);
                set->count = 0;
                return -1;
            }
            set_add(set, (size_t)(m - mmb_metrics));
        }
        if (*end == '\0')
            return 0;
        p = end + 1;
    }
}
