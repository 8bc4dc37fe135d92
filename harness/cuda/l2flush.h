/* l2flush.h - puts L2 into the state a cold launch starts from, one way for both the
 * timed launches (timer.c) and the counter passes (cupti.c): the session opens one
 * flush and hands it to both, so that a cold row's time and its counters describe the
 * same launch.
 *
 * The default method reads a buffer eight times the L2 size, which writes back the
 * dirty lines of earlier work, then discards the buffer's lines (PTX
 * discard.global.L2, sm_80 and later), leaving L2 without data of the kernel under
 * test and without dirty lines to write back during it. MMB_L2_SWEEP=METHOD[:F[:keep]]
 * (read by cmd/, passed to mmb_l2_flush_open) picks another method, F times L2
 * (1..64), and `keep` skips the discard; the methods are compared with ncu by
 * scripts/l2-state.sh. */
#ifndef MMB_L2FLUSH_H
#define MMB_L2FLUSH_H

#include <stddef.h>

#include "core/status.h"

struct mmb_l2_flush;

/* For the current device: allocates the buffer and compiles the kernels (NVRTC).
 * method is an MMB_L2_SWEEP value; NULL or "" is the default, read:8.
 * MMB_STATUS_PROFILING_DENIED when method cannot be parsed (err says why). */
enum mmb_status mmb_l2_flush_open(struct mmb_l2_flush **out, int device, const char *method, char *err,
                                  size_t errlen);

/* Enqueues the flush on stream (NULL: the legacy default stream); asynchronous. */
enum mmb_status mmb_l2_flush_enqueue(struct mmb_l2_flush *f, void *stream, char *err, size_t errlen);

/* The kernels one flush launches, all named mmb_l2_* (a memset step may add the
 * driver's own). */
int mmb_l2_flush_kernels(const struct mmb_l2_flush *f);

/* "read:8", as MMB_L2_SWEEP would name it. */
const char *mmb_l2_flush_method(const struct mmb_l2_flush *f);

/* NULL is fine. */
void mmb_l2_flush_close(struct mmb_l2_flush *f);

/* Checks an MMB_L2_SWEEP value without a GPU: 0 with its canonical form in canon
 * ("read" -> "read:8"), or -1 with err naming the methods. */
#define MMB_L2_FLUSH_METHOD_LEN 32
int mmb_l2_flush_check_method(const char *how, char *canon, size_t canonlen, char *err, size_t errlen);

/* The kernels' CUDA source (NVRTC), for the tests. */
extern const char mmb_l2_flush_source[];

#endif
