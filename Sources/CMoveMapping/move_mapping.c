#define _GNU_SOURCE
#include <errno.h>
#include <sys/mman.h>
#include "move_mapping.h"

int recordlog_move_mapping(void *old, size_t size, void *target) {
#if defined(__linux__) && defined(MREMAP_FIXED)
    return mremap(old, size, size, MREMAP_MAYMOVE | MREMAP_FIXED, target) == MAP_FAILED ? -1 : 0;
#else
    (void)old; (void)size; (void)target;
    errno = ENOSYS;
    return -1;
#endif
}
