/* fuzz_csv.c - libFuzzer target: the results CSV as the report reads it: the libcsv
 * reader and its cell parsers, then the report's loading, grouping and selection of
 * the best row per GPU, kernel and shape. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_common.h"
#include "report/data.h"
#include "results/csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int count_row(void *ctx, const struct mmb_row *row, const char *path, long line, char *err, size_t errlen)
{
    (*(size_t *)ctx)++;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file("results.csv", data, size);
    char err[1024];
    size_t rows = 0;
    mmb_csv_read(path, count_row, &rows, err, sizeof err);
    struct mmb_report_data d = {0};
    if (mmb_report_data_add_csv(&d, path, "results.csv", err, sizeof err) == 0)
        mmb_report_data_select(&d, NULL, NULL, NULL, err, sizeof err);
    mmb_report_data_free(&d);
    return 0;
}
