// CSchedAffinity: a thread's CPU affinity and scheduling class on Linux (sched_getaffinity,
// sched_setaffinity, sched_getscheduler and sched_setscheduler through syscall(2), by thread
// id: glibc declares the affinity calls, gettid and SCHED_BATCH only under _GNU_SOURCE, which
// Swift's Glibc module is not built with). Only StoreSyncServer's CoreSpread and
// ThreadScheduling import it; elsewhere than Linux it declares nothing.
#ifndef STORESYNC_CSCHEDAFFINITY_SHIM_H
#define STORESYNC_CSCHEDAFFINITY_SHIM_H

#if defined(__linux__)
#include <sched.h>
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

/// Linux's scheduling classes by number: SCHED_OTHER, the default, and SCHED_BATCH, whose
/// threads never preempt a running thread when they wake.
static const int storesync_sched_normal = 0;
static const int storesync_sched_batch = 3;

/// Thread `thread`'s scheduling class (``storesync_sched_normal`` …), or -1.
static inline long storesync_get_thread_policy(long thread) {
    return syscall(SYS_sched_getscheduler, thread);
}

/// Puts thread `thread` in scheduling class `policy` at priority 0 (what the non-real-time
/// classes take). Answers 0, or -1 with errno set.
static inline long storesync_set_thread_policy(long thread, int policy) {
    struct sched_param parameters = {0};
    return syscall(SYS_sched_setscheduler, thread, policy, &parameters);
}
#endif

#endif
