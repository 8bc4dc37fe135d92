/* fuzz_csv.c - libFuzzer target: the results CSV as the report reads it: the libcsv
 * reader and its cell parsers, then the whole report without gnuplot (loading,
 * grouping, selection of the best rows, every figure's data and script, the
 * findings, the README and tables.tex), written to a private folder. The report's
 * messages go to stderr, as a user would see them. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_common.h"
#include "report/report.h"
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
    char err[1024], out[200];
    size_t rows = 0;
    if (mmb_csv_read(path, count_row, &rows, err, sizeof err) != 0)
        return 0; /* the report would stop at the same error */
    snprintf(out, sizeof out, "%s/report", fuzz_dir);
    char *inputs[] = {(char *)path};
    struct mmb_report_options opt = {
        .root = fuzz_dir,
        .out = out,
        .formats = {MMB_REPORT_PNG},
        .nformats = 1,
        .no_plots = true,
        .inputs = inputs,
        .ninputs = 1,
    };
    struct mmb_report_result res;
    mmb_report_write(&opt, &res, err, sizeof err);
    return 0;
}
