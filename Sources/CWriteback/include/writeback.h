#ifndef RECORDLOG_WRITEBACK_H
#define RECORDLOG_WRITEBACK_H

#include <stdint.h>

/// Starts writing a file range's dirty pages to the disk and returns without waiting
/// (Linux `sync_file_range(SYNC_FILE_RANGE_WRITE)`, which Swift's Glibc module does not
/// export). Returns 0, or -1 with errno set; a no-op returning 0 where it does not exist.
int recordlog_start_writeback(int fd, int64_t offset, int64_t count);

#endif
