// CMalloc: glibc's allocator controls (mallopt, malloc_trim), which its Swift module leaves
// out. Only StoreSyncServer's HeapMemory imports it; elsewhere than glibc it declares nothing.
#ifndef STORESYNC_CMALLOC_SHIM_H
#define STORESYNC_CMALLOC_SHIM_H

#if defined(__linux__)
#include <features.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#endif

#endif
