#ifndef RECORDLOG_BENCH_CLZ4_SHIM_H
#define RECORDLOG_BENCH_CLZ4_SHIM_H
#include <lz4frame.h>
#endif
