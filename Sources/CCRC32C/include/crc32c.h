#ifndef RECORDLOG_CRC32C_H
#define RECORDLOG_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/// Extends a CRC-32C (Castagnoli, reflected polynomial 0x82F63B78) over `length` bytes.
/// `crc` is a finished CRC of the preceding bytes (0 to start); the result is finished too,
/// so crc32c_extend(crc32c_extend(0, a), b) == crc32c_extend(0, a ++ b).
/// Uses the SSE4.2 instruction when the CPU has it, else slicing-by-8.
uint32_t recordlog_crc32c_extend(uint32_t crc, const void *data, size_t length);

/// The portable slicing-by-8 implementation, always available (for tests and comparison).
uint32_t recordlog_crc32c_extend_portable(uint32_t crc, const void *data, size_t length);

/// 1 when recordlog_crc32c_extend uses a hardware instruction on this CPU, else 0.
int recordlog_crc32c_is_hardware_accelerated(void);

#endif
