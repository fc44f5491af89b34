#ifndef RECORDLOG_MOVE_MAPPING_H
#define RECORDLOG_MOVE_MAPPING_H

#include <stddef.h>

/// Moves the pages of the anonymous mapping at `old` (`size` bytes) to `target`, replacing what
/// was mapped there, without copying them: the kernel moves their page-table entries (Linux
/// `mremap` with `MREMAP_MAYMOVE | MREMAP_FIXED`, which Swift cannot call: it is variadic).
/// Returns 0, or -1 with errno set, the mappings then unchanged; -1 where it does not exist.
int recordlog_move_mapping(void *old, size_t size, void *target);

#endif
