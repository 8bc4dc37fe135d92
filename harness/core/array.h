/* array.h - the number of elements of an array. */
#ifndef MMB_CORE_ARRAY_H
#define MMB_CORE_ARRAY_H

/* The number of elements of an array (not of a pointer). */
#define MMB_COUNT(a) (sizeof(a) / sizeof((a)[0]))

#endif
