/* csv_samples.h - every timed launch's time, in a side file beside the results CSV:
 * course.csv keeps its rows, course.samples.csv one line per row measured, with the
 * row's key, its time stamp and its times in launch order:
 *
 *   gpu_uuid,kernel,params,dtype,m,n,k,cache,timestamp,samples_ms
 *   GPU-39..,tiled,block_size_x=32;block_size_y=32,f32,4096,4096,4096,cold,2026-11-26T05:00:00Z,15.24 15.23 ...
 *
 * The times are the CUDA events' (single precision, in ms), each written as the
 * shortest decimal that reads back as the same float, separated by blanks. A row's
 * samples are written before the row, so a row in the CSV has its line (unless the
 * side file was removed); a line whose row never came (a killed run) matches no row
 * and is ignored. A row finds its line by key (mmb_row_key with the device) and time
 * stamp, the last such line, and takes it only when its count is the row's repeats
 * and its median the row's median: a line that does not belong is never used.
 * docs/profiles.md ("Raw samples") says why a side file and not a column. */
#ifndef MMB_CSV_SAMPLES_H
#define MMB_CSV_SAMPLES_H

#include <stdbool.h>
#include <stddef.h>

#include "results/row.h"

/* The side file of a results CSV: x.csv -> x.samples.csv (any other name: name +
 * ".samples.csv"). -1 when it does not fit out. */
int mmb_samples_path(const char *csv_path, char *out, size_t len);
/* Whether path names a side file of samples (ends with ".samples.csv"): readers of
 * every *.csv of a folder pass over it. */
bool mmb_samples_path_is(const char *path);

struct mmb_samples_writer;

/* Opens csv_path's side file for appending, creating it with its header; a last line
 * without its newline (a killed run) is cut off; a file with another header is
 * refused (-1 with err naming it). */
struct mmb_samples_writer *mmb_samples_writer_open(const char *csv_path, char *err, size_t errlen);
/* Appends the line of row (its key and time stamp) with its n times ms[0..n), in
 * launch order, with one write under a lock (GPUs of one model share the file). */
int mmb_samples_append(struct mmb_samples_writer *w, const struct mmb_row *row, const double *ms, size_t n,
                       char *err, size_t errlen);
void mmb_samples_writer_close(struct mmb_samples_writer *w);

/* The samples of one results CSV, read from its side file. */
struct mmb_samples_set;

/* Reads csv_path's side file into *out; no side file is an empty set. A line that is
 * not one of samples is an error "path:line: ..." (exit 2 for the commands); a last
 * line without its newline is left out (a run may be appending). */
int mmb_samples_load(const char *csv_path, struct mmb_samples_set **out, char *err, size_t errlen);
/* The times of row (launch order, *n of them), NULL when its side file has none that
 * belong to it (see above). Valid until the set is freed. */
const double *mmb_samples_find(const struct mmb_samples_set *s, const struct mmb_row *row, size_t *n);
/* Lines read; lines that no row has asked for are not counted apart. */
size_t mmb_samples_count(const struct mmb_samples_set *s);
void mmb_samples_free(struct mmb_samples_set *s);

#endif
