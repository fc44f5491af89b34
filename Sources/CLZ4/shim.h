#ifndef RECORDLOG_CLZ4_SHIM_H
#define RECORDLOG_CLZ4_SHIM_H
#include <lz4.h>
#include <lz4frame.h>
#endif
