// CSchedAffinity: the calling thread's CPU affinity on Linux (sched_getaffinity and
// sched_setaffinity through syscall(2): glibc declares them only under _GNU_SOURCE, which
// Swift's Glibc module is not built with). Only StoreSyncServer's CoreSpread imports it;
// elsewhere than Linux it declares nothing.
#ifndef STORESYNC_CSCHEDAFFINITY_SHIM_H
#define STORESYNC_CSCHEDAFFINITY_SHIM_H

#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>

/// Reads the calling thread's affinity mask into `mask` (`bytes` long, a multiple of 8):
/// answers the bytes the kernel wrote, or -1.
static inline long storesync_get_thread_affinity(unsigned long *mask, unsigned long bytes) {
    return syscall(SYS_sched_getaffinity, 0, bytes, mask);
}

/// Sets the calling thread's affinity mask; the kernel moves the thread before it answers
/// when it is running on a CPU the mask leaves out. Answers 0, or -1.
static inline long storesync_set_thread_affinity(const unsigned long *mask, unsigned long bytes) {
    return syscall(SYS_sched_setaffinity, 0, bytes, mask);
}
#endif

#endif
