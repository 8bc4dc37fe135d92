/* csv_to_jsonl.c - for tests/test_reader.py: the rows of the CSVs named, each as the
 * JSON line `mmbench run --format jsonl` prints (results/columns_json.h), on stdout:
 * the rows a GPU run would print, without a GPU. */
#include <stdio.h>
#include <stdlib.h>

#include "results/columns_json.h"
#include "results/csv.h"

static int print_row(void *ctx, const struct mmb_row *row, const char *path, long line, char *err, size_t errlen)
{
    char *text = mmb_columns_json_line(row);
    if (!text) {
        snprintf(err, errlen, "%s:%ld: out of memory", path, line);
        return -1;
    }
    fputs(text, stdout);
    free(text);
    return 0;
}

int main(int argc, char **argv)
{
    char err[1024];
    for (int i = 1; i < argc; i++)
        if (mmb_csv_read(argv[i], print_row, NULL, err, sizeof err) != 0) {
            fprintf(stderr, "csv_to_jsonl: %s\n", err);
            return 2;
        }
    return fflush(stdout) == 0 ? 0 : 1;
}
