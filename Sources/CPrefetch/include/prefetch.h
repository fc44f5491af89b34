#ifndef RECORDLOG_PREFETCH_H
#define RECORDLOG_PREFETCH_H

/// Asks the CPU to load the cache line holding `address` for reading, without waiting for it:
/// a table looked up at random starts the misses of many lookups at once, then does the lookups.
/// A hint only: it never faults, whatever the address.
static inline void recordlog_prefetch(const void *address) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(address, 0, 3);
#else
    (void)address;
#endif
}

#endif
