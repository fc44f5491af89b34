#ifndef RECORDLOG_BENCH_CLMDB_SHIM_H
#define RECORDLOG_BENCH_CLMDB_SHIM_H
#include <lmdb.h>
#endif
