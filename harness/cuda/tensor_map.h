/* tensor_map.h - TMA tensor maps of the matrices (args = tma(...)), encoded with the
 * driver's cuTensorMapEncodeTiled, reached through cudaGetDriverEntryPointByVersion
 * so that mmbench does not link libcuda. A kernel receives each map by value, as
 * `const __grid_constant__ struct tma_desc` with
 * `struct __align__(64) tma_desc { unsigned long long opaque[16]; };`. */
#ifndef MMB_TENSOR_MAP_H
#define MMB_TENSOR_MAP_H

#include <cuda.h>
#include <stddef.h>

#include "core/dtype.h"
#include "core/status.h"
#include "model/sizes.h"
#include "model/tma.h"

/* The map of box (checked with mmb_tma_check_box) over the matrix box->matrix at
 * base, of type elements, at size: 2-D row-major, its columns the inner dimension,
 * no interleave, out-of-bounds elements read as zeros, L2 promotion of 256 bytes.
 * MMB_STATUS_INVALID_CONFIG with err when the matrix cannot have a map (a row pitch
 * or a base address that is not a multiple of 16 bytes, a type without TMA) or the
 * driver refuses its values; another status, with the call and the driver's error
 * name, when the driver or its entry point fails. */
enum mmb_status mmb_tensor_map_encode(CUtensorMap *map, const struct mmb_tma_box *box, enum mmb_tma_type type,
                                      void *base, const struct mmb_size *size, char *err, size_t errlen);

#endif
