/* throttle.h - why the GPU's clocks were held back while a row was measured, as
 * words: one table maps NVML's clock event reason bits (and its violation
 * counters) to the words of the CSV's throttle column, and says which of them lower
 * the clock below what the GPU's settings ask (power and thermal limits) and which
 * do not (an idle GPU, clocks set by the applications-clock or display setting).
 * The measuring side (cuda/clock_watch.c) and the readers (report/, the tuner) use
 * the same table, so a word is spelt once. */
#ifndef MMB_CORE_THROTTLE_H
#define MMB_CORE_THROTTLE_H

#include <stdbool.h>
#include <stddef.h>

struct mmb_throttle_info {
    const char *text;                 /* the word in the throttle column */
    unsigned long long nvml_reason;   /* its bit of nvmlDeviceGetCurrentClocksEventReasons; 0: none */
    int nvml_violation;               /* its nvmlPerfPolicyType_t (nvmlDeviceGetViolationStatus); -1: none */
    bool throttles;                   /* a limit held the clock down (power, thermal): the row is
                                       * measured again and flagged */
    const char *meaning;
};

/* Rows in the order the column writes them, ending with a NULL text. A set of words
 * is a mask with bit i for row i. */
extern const struct mmb_throttle_info mmb_throttle_table[];

/* The cell's room: every word joined by '+', with its zero. */
#define MMB_THROTTLE_TEXT_LEN 160
/* The cell of a measured row where no reason was seen. */
#define MMB_THROTTLE_NONE "none"

/* The words of NVML reason bits; bits no row knows are left out. */
unsigned mmb_throttle_of_reasons(unsigned long long reasons);
/* The word of an NVML violation counter (perf policy); 0 when no row has it. */
unsigned mmb_throttle_of_violation(int policy);
/* The cell: the mask's words in table order, joined by '+'; "none" for 0. */
void mmb_throttle_format(unsigned mask, char *out, size_t len);
/* Parses a cell: "none", or words of the table joined by '+', each once. "" is not a
 * cell this writes (the reader keeps it as not measured). false on anything else. */
bool mmb_throttle_parse(const char *text, unsigned *mask);
/* Whether the mask holds a word that throttles. */
bool mmb_throttle_mask_throttled(unsigned mask);
/* Whether a row measured with these words and this lowest SM clock is measured
 * again: it throttled, and its clock fell below threshold_pct of max_mhz, or
 * threshold_pct is 100 or more, or either clock is unknown (NaN, 0). A power cap
 * that a kernel reaches on its own holds it at its clock whatever the retry (on an
 * H100, FP32 GEMMs at 8192 ran at 91 to 99% of the maximum every time); a retry
 * helps where a deeper drop came from before it (heat, another load). nvbench's
 * throttle_threshold, 75% of the default clock, draws the same line. */
bool mmb_throttle_retry_wanted(unsigned mask, double min_mhz, double max_mhz, double threshold_pct);
/* Whether a cell names a word that throttles; false for "", "none" and bad text. */
bool mmb_throttle_text_throttled(const char *text);
/* "gpu_idle, applications_clocks, ...": every word, for messages. */
void mmb_throttle_words(char *out, size_t len);

#endif
