/* export.c - `mmbench export --best`: the CSVs read as report reads them
 * (report/input/inputs.h), the best configurations found and written
 * (report/export.h) to stdout or, whole or not at all, to a file; and `mmbench
 * columns`, the column table as JSON (results/columns_json.h). */
#include "cmd/export.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/common.h"
#include "cmd/options.h"
#include "core/file.h"
#include "report/export.h"
#include "report/input/inputs.h"
#include "results/columns_json.h"

/* The text of the export: the header or the JSON, malloc'ed. */
static char *export_text(const struct mmb_cmd_settings *s, const struct mmb_report_data *d,
                         const struct mmb_report_export_options *o, const struct mmb_report_export_entry *e,
                         size_t n, size_t *len)
{
    if (s->format == MMB_FORMAT_JSON) {
        char *text = mmb_report_export_json(d, o, e, n);
        *len = text ? strlen(text) : 0;
        return text;
    }
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    if (!f)
        return NULL;
    int rc = mmb_report_export_header(f, d, o, e, n);
    if (fclose(f) != 0 || rc != 0) {
        free(text);
        return NULL;
    }
    return text;
}

int mmb_cmd_export(int argc, char **argv)
{
    struct mmb_cmd_settings s;
    int rc = mmb_cmd_options_parse(MMB_CMD_EXPORT, argc, argv, &s);
    if (rc)
        return rc > 0 ? 0 : MMB_EXIT_BAD_INPUT;
    const char *env = getenv("MMB_SOURCE_ROOT");
    const char *root = env && env[0] ? env : ".";
    char writer[128];
    snprintf(writer, sizeof writer, "mmbench %s, commit %s", MMB_VERSION, mmb_cmd_commit);
    struct mmb_report_export_options o = {.profile = s.export.profile, .gpu = s.export.gpu,
                                          .kernels = s.export.kernels, .writer = writer};
    struct mmb_report_data *d = calloc(1, sizeof *d);
    struct mmb_report_export_entry *e = NULL;
    size_t n = 0, len = 0;
    char err[4608];
    char *text = NULL;
    rc = MMB_EXIT_BAD_INPUT;
    if (!d) {
        fprintf(stderr, "mmbench export: out of memory\n");
        return MMB_EXIT_FAILED;
    }
    if (mmb_report_inputs_read(s.args, s.nargs, root, d, err, sizeof err) != 0 ||
        mmb_report_export_find(d, &o, &e, &n, err, sizeof err) != 0) {
        fprintf(stderr, "mmbench export: %s\n", err);
        goto out;
    }
    rc = MMB_EXIT_FAILED;
    if (!(text = export_text(&s, d, &o, e, n, &len))) {
        fprintf(stderr, "mmbench export: out of memory\n");
        goto out;
    }
    if (s.export.output) {
        if (mmb_file_write_atomic(s.export.output, text, len, err, sizeof err) != 0) {
            fprintf(stderr, "mmbench export: %s\n", err);
            goto out;
        }
        fprintf(stderr, "mmbench export: %zu configuration%s from %zu CSV file%s -> %s\n", n, n == 1 ? "" : "s",
                d->nfiles, d->nfiles == 1 ? "" : "s", s.export.output);
    } else if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0) {
        perror("mmbench export: stdout");
        goto out;
    }
    rc = MMB_EXIT_OK;
out:
    free(text);
    free(e);
    mmb_report_data_free(d);
    free(d);
    return rc;
}

int mmb_cmd_columns(int argc, char **argv)
{
    struct mmb_cmd_settings s;
    int rc = mmb_cmd_options_parse(MMB_CMD_COLUMNS, argc, argv, &s);
    if (rc)
        return rc > 0 ? 0 : MMB_EXIT_BAD_INPUT;
    cJSON *table = mmb_columns_json_table();
    char *text = table ? cJSON_Print(table) : NULL;
    cJSON_Delete(table);
    if (!text) {
        fprintf(stderr, "mmbench columns: out of memory\n");
        return MMB_EXIT_FAILED;
    }
    rc = printf("%s\n", text) < 0 || fflush(stdout) != 0 ? MMB_EXIT_FAILED : MMB_EXIT_OK;
    if (rc)
        perror("mmbench columns: stdout");
    free(text);
    return rc;
}
