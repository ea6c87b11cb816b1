#ifndef STORESYNC_CLIBPQ_SHIM_H
#define STORESYNC_CLIBPQ_SHIM_H

// The include path comes from pkg-config (libpq.pc); no header path is hard-coded.
#include <libpq-fe.h>

// PG_DIAG_* are char macros in postgres_ext.h that Swift does not import.
static const int CLibPQ_PG_DIAG_SEVERITY = 'S';
static const int CLibPQ_PG_DIAG_SQLSTATE = 'C';
static const int CLibPQ_PG_DIAG_MESSAGE_PRIMARY = 'M';
static const int CLibPQ_PG_DIAG_MESSAGE_DETAIL = 'D';
static const int CLibPQ_PG_DIAG_MESSAGE_HINT = 'H';
static const int CLibPQ_PG_DIAG_CONSTRAINT_NAME = 'n';
static const int CLibPQ_PG_DIAG_TABLE_NAME = 't';
static const int CLibPQ_PG_DIAG_COLUMN_NAME = 'c';

#endif
