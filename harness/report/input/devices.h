/* devices.h - what the report knows of each GPU beyond its rows: the line that
 * `mmbench devices` printed for it (data/<gpu>/bench/devices.txt: SMs, clocks, bus,
 * memory, L2, peaks), the L1, shared-memory, L2 and DRAM roofs that Nsight Compute
 * measured (the "roof" lines of data/<gpu>/bench/ncu-stalls.txt, written by
 * scripts/gpu/ncu-stalls.sh, else of ncu-compare.txt, by scripts/ncu-compare.sh), and
 * from the rows the driver, CUDA version and the SM clock read while timing. */
#ifndef MMB_REPORT_DEVICES_H
#define MMB_REPORT_DEVICES_H

#include <stdbool.h>
#include <stddef.h>

#include "report/input/data.h"

struct mmb_report_device {
    bool listed;             /* devices.txt has its line */
    char cc[8];
    double sms, sm_mhz, mem_mhz, bus_bits, mem_gib, l2_mib, peak_gbps, peak_gflops; /* NaN unknown */
    double roof_l1, roof_smem, roof_l2, roof_dram; /* GB/s; NaN when no roof line gives it */
    char roof_file[64];      /* where the roofs were read: "ncu-stalls.txt"; "" none */
    char driver[16], cuda[16]; /* of its first measured row, "" when none */
    double clock_mhz;        /* median SM clock of its selected rows; NaN when none */
};

/* One per GPU of d (after mmb_report_select), from the files under
 * <root>/data/<GPU slug>/bench/; NULL without memory. Free it. */
struct mmb_report_device *mmb_report_devices_read(const char *root, const struct mmb_report_data *d);

/* The side N of the square problem whose A, B and C (3 N^2 elements of size bytes)
 * just fill an L2 of l2_mib: where a square sweep leaves L2 for DRAM. NaN unknown. */
double mmb_report_device_l2_edge(double l2_mib, double size);

#endif
