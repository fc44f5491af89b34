#ifndef RECORDLOG_BENCH_CROCKSDB_SHIM_H
#define RECORDLOG_BENCH_CROCKSDB_SHIM_H
#include <rocksdb/c.h>
#endif
