#ifndef STORESYNC_CLIBPQ_SHIM_H
#define STORESYNC_CLIBPQ_SHIM_H

// The include path comes from pkg-config (libpq.pc); no header path is hard-coded.
#include <libpq-fe.h>
#include <poll.h>

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

#endif
