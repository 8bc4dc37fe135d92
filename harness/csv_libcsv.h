/* csv_libcsv.h - reaches libcsv's <csv.h>, which this folder's csv.h hides (the
 * harness folder comes first on the include path). Include it as <csv_libcsv.h>
 * so that it is found through that path and #include_next continues after it. */
#ifndef MMB_CSV_LIBCSV_H
#define MMB_CSV_LIBCSV_H

/* #include_next is a GCC/Clang extension: keep -Wpedantic quiet about it here. */
#pragma GCC system_header
#include_next <csv.h>

#ifndef LIBCSV_H__
#error "libcsv's csv.h was not found after the harness folder on the include path"
#endif

#endif
