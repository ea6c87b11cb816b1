// CLibPQ: libpq and the few POSIX calls PostgresLibPQ needs, as a system library module.
// It owns nothing but this header: no Swift code, no logic. Only PostgresLibPQ imports it, with
// `internal import`, so no C type reaches a public signature.
#ifndef STORESYNC_CLIBPQ_SHIM_H
#define STORESYNC_CLIBPQ_SHIM_H

// The include path comes from pkg-config (libpq.pc); no header path is hard-coded.
#include <libpq-fe.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

// PG_DIAG_* are char macros in postgres_ext.h that Swift does not import.
static const int CLibPQ_PG_DIAG_SEVERITY = 'S';
static const int CLibPQ_PG_DIAG_SQLSTATE = 'C';
static const int CLibPQ_PG_DIAG_MESSAGE_PRIMARY = 'M';
static const int CLibPQ_PG_DIAG_MESSAGE_DETAIL = 'D';
static const int CLibPQ_PG_DIAG_MESSAGE_HINT = 'H';
static const int CLibPQ_PG_DIAG_SCHEMA_NAME = 's';
static const int CLibPQ_PG_DIAG_CONSTRAINT_NAME = 'n';
static const int CLibPQ_PG_DIAG_TABLE_NAME = 't';
static const int CLibPQ_PG_DIAG_COLUMN_NAME = 'c';

/// Drops server notices (NOTICE, WARNING of `CREATE ... IF NOT EXISTS` and friends): libpq's
/// default prints them to stderr, which no server should do behind its logger's back.
static inline void CLibPQ_discardNotice(void *argument, const char *message) {
    (void)argument;
    (void)message;
}

/// Whether `socket` has input (or EOF, or an error) waiting, without blocking.
///
/// An idle connection the server closed (pg_terminate_backend, shutdown) has its
/// final error message and EOF waiting here; a healthy idle connection has nothing.
static inline int CLibPQ_socketHasPendingInput(int socket) {
    struct pollfd descriptor;
    descriptor.fd = socket;
    descriptor.events = POLLIN;
    descriptor.revents = 0;
    int ready = poll(&descriptor, 1, 0);
    if (ready < 0) {
        return 1;
    }
    return ready > 0 && (descriptor.revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL)) != 0;
}

/// Waits up to `milliseconds` for input on `socket`: 1 when there is input (or EOF or an
/// error), 0 on timeout. A listener waits here so that it can notice a stop request.
static inline int CLibPQ_waitForInput(int socket, int milliseconds) {
    struct pollfd descriptor;
    descriptor.fd = socket;
    descriptor.events = POLLIN;
    descriptor.revents = 0;
    int ready = poll(&descriptor, 1, milliseconds);
    if (ready < 0) {
        return errno == EINTR ? 0 : 1;
    }
    return ready > 0 ? 1 : 0;
}

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 29))
// A GNU extension that spawn.h declares only under _GNU_SOURCE; defining that here would
// change glibc's structs in this module and clash with every other module that sees them.
extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *actions, const char *path);
#define CLIBPQ_HAS_ADDCHDIR 1
#elif defined(__APPLE__)
#define CLIBPQ_HAS_ADDCHDIR 1
#endif

/// Starts `path` with stdin from /dev/null and stdout and stderr into `outputFD`, in `directory`.
///
/// Written in C because Foundation's Process cannot notice the exit of a command whose
/// daemon child (pg_ctl's postmaster) keeps the inherited descriptors open, and because the
/// wait-status macros and the chdir file action are not visible to Swift. Returns 0 or an errno value.
///
/// The child starts with no signal blocked and every signal at its default, as from a shell: the
/// spawning thread's mask (Swift's and NIO's threads block most signals) would otherwise stay
/// with a daemon that does not reset it (PgBouncer), which then never hears SIGTERM.
///
/// On Linux a child of a thread in the batch class (a server that yields its cores to
/// PostgreSQL, StoreSyncServer's ThreadScheduling) starts in the default class: the postmaster
/// and its backends are what the server's threads yield to.
static inline int CLibPQ_spawn(const char *path, char *const argv[], char *const envp[],
                               const char *directory, int outputFD, pid_t *pid) {
    posix_spawnattr_t attributes;
    int status = posix_spawnattr_init(&attributes);
    if (status != 0) {
        return status;
    }
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    status = posix_spawnattr_setsigmask(&attributes, &none);
    if (status == 0) status = posix_spawnattr_setsigdefault(&attributes, &all);
    short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
#if defined(__linux__)
    // 3 is SCHED_BATCH, which <sched.h> names only under _GNU_SOURCE.
    if (status == 0 && sched_getscheduler(0) == 3) {
        struct sched_param parameters = {0};
        status = posix_spawnattr_setschedpolicy(&attributes, SCHED_OTHER);
        if (status == 0) status = posix_spawnattr_setschedparam(&attributes, &parameters);
        flags |= POSIX_SPAWN_SETSCHEDULER;
    }
#endif
    if (status == 0) status = posix_spawnattr_setflags(&attributes, flags);
    if (status != 0) {
        posix_spawnattr_destroy(&attributes);
        return status;
    }
    posix_spawn_file_actions_t actions;
    status = posix_spawn_file_actions_init(&actions);
    if (status != 0) {
        posix_spawnattr_destroy(&attributes);
        return status;
    }
    status = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    if (status == 0) status = posix_spawn_file_actions_adddup2(&actions, outputFD, 1);
    if (status == 0) status = posix_spawn_file_actions_adddup2(&actions, outputFD, 2);
#ifdef CLIBPQ_HAS_ADDCHDIR
    if (status == 0 && directory != NULL) status = posix_spawn_file_actions_addchdir_np(&actions, directory);
#endif
    if (status == 0) status = posix_spawn(pid, path, &actions, &attributes, argv, envp);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    return status;
}

/// Waits for `pid` to exit; returns its exit status, 128 + the signal that killed it, or -1.
static inline int CLibPQ_waitForExit(pid_t pid) {
    int status = 0;
    pid_t result;
    do {
        result = waitpid(pid, &status, 0);
    } while (result < 0 && errno == EINTR);
    if (result < 0) {
        return -1;
    }
    if (WIFEXITED(status)) {
        return WEXITSTATUS(status);
    }
    if (WIFSIGNALED(status)) {
        return 128 + WTERMSIG(status);
    }
    return -1;
}

#endif
