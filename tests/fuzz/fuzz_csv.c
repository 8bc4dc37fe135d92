/* fuzz_csv.c - libFuzzer target: the results CSV as the report reads it: the libcsv
 * reader and its cell parsers, then the whole report without gnuplot (loading,
 * grouping, selection of the best rows, every figure's data and script, the
 * findings, the README and tables.tex), written to a private folder; the same bytes as
 * a side file of launch times (results/csv_samples.h); and the writer opening the file
 * for appending, which rewrites an older header under this one (the migration). The
 * report's messages go to stderr, as a user would see them. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_common.h"
#include "report/report.h"
#include "results/csv.h"
#include "results/csv_samples.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int count_row(void *ctx, const struct mmb_row *row, const char *path, long line, char *err, size_t errlen)
{
    (*(size_t *)ctx)++;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[1024], out[200];
    /* the bytes as the side file of a results CSV */
    const char *csv = fuzz_file("side.csv", (const uint8_t *)"", 0);
    char side[200];
    struct mmb_samples_set *set = NULL;
    if (mmb_samples_path(csv, side, sizeof side) == 0) {
        fuzz_write(side, data, size);
        if (mmb_samples_load(csv, &set, err, sizeof err) == 0)
            mmb_samples_free(set);
    }
    /* the writer on them: a file of an older header is rewritten, anything else refused */
    const char *path = fuzz_file("append.csv", data, size);
    struct mmb_csv_writer *w = mmb_csv_writer_open(path, err, sizeof err);
    mmb_csv_writer_close(w);
    path = fuzz_file("results.csv", data, size);
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
