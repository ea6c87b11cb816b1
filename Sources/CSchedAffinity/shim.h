// CSchedAffinity: a thread's CPU affinity on Linux (sched_getaffinity and sched_setaffinity
// through syscall(2), by thread id: glibc declares them, and gettid, only under _GNU_SOURCE,
// which Swift's Glibc module is not built with). Only StoreSyncServer's CoreSpread imports it;
// elsewhere than Linux it declares nothing.
#ifndef STORESYNC_CSCHEDAFFINITY_SHIM_H
#define STORESYNC_CSCHEDAFFINITY_SHIM_H

#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>

/// The calling thread's id (0 names the calling thread in the calls below as well).
static inline long storesync_thread_id(void) {
    return syscall(SYS_gettid);
}

/// Reads thread `thread`'s affinity mask into `mask` (`bytes` long, a multiple of 8): answers
/// the bytes the kernel wrote, or -1.
static inline long storesync_get_thread_affinity(long thread, unsigned long *mask, unsigned long bytes) {
    return syscall(SYS_sched_getaffinity, thread, bytes, mask);
}

/// Sets thread `thread`'s affinity mask; when it is the calling thread and runs on a CPU the
/// mask leaves out, the kernel moves it before answering. Answers 0, or -1.
static inline long storesync_set_thread_affinity(long thread, const unsigned long *mask, unsigned long bytes) {
    return syscall(SYS_sched_setaffinity, thread, bytes, mask);
}

/// The CPU the calling thread is running on at this moment, or -1.
static inline int storesync_current_cpu(void) {
    unsigned int cpu = 0;
    return syscall(SYS_getcpu, &cpu, (void *)0, (void *)0) == 0 ? (int)cpu : -1;
}
#endif

#endif
