// CRC-32C (Castagnoli). Slicing-by-8 tables are built once at load time; on x86-64 the
// SSE4.2 crc32 instruction is used when the CPU reports it.
#include "crc32c.h"

#include <string.h>

#define POLY 0x82F63B78u

static uint32_t table[8][256];
static int hardware;  // set once at load time, read-only afterwards

__attribute__((constructor)) static void build_tables(void) {
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ POLY : c >> 1;
        table[0][n] = c;
    }
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = table[0][n];
        for (int t = 1; t < 8; t++) {
            c = table[0][c & 0xFF] ^ (c >> 8);
            table[t][n] = c;
        }
    }
#if defined(__x86_64__)
    __builtin_cpu_init();
    hardware = __builtin_cpu_supports("sse4.2") ? 1 : 0;
#endif
}

uint32_t recordlog_crc32c_extend_portable(uint32_t crc, const void *data, size_t length) {
    const uint8_t *p = (const uint8_t *)data;
    uint32_t c = ~crc;
    while (length && ((uintptr_t)p & 7)) {
        c = table[0][(c ^ *p++) & 0xFF] ^ (c >> 8);
        length--;
    }
    while (length >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        word = __builtin_bswap64(word);
#endif
        uint32_t lo = (uint32_t)word ^ c;
        uint32_t hi = (uint32_t)(word >> 32);
        c = table[7][lo & 0xFF] ^ table[6][(lo >> 8) & 0xFF] ^ table[5][(lo >> 16) & 0xFF] ^
            table[4][lo >> 24] ^ table[3][hi & 0xFF] ^ table[2][(hi >> 8) & 0xFF] ^
            table[1][(hi >> 16) & 0xFF] ^ table[0][hi >> 24];
        p += 8;
        length -= 8;
    }
    while (length--) c = table[0][(c ^ *p++) & 0xFF] ^ (c >> 8);
    return ~c;
}

#if defined(__x86_64__)
#include <nmmintrin.h>

__attribute__((target("sse4.2"))) static uint32_t crc32c_sse42(uint32_t crc, const void *data,
                                                               size_t length) {
    const uint8_t *p = (const uint8_t *)data;
    uint64_t c = (uint32_t)~crc;
    while (length && ((uintptr_t)p & 7)) {
        c = _mm_crc32_u8((uint32_t)c, *p++);
        length--;
    }
    while (length >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        c = _mm_crc32_u64(c, word);
        p += 8;
        length -= 8;
    }
    while (length--) c = _mm_crc32_u8((uint32_t)c, *p++);
    return ~(uint32_t)c;
}

uint32_t recordlog_crc32c_extend(uint32_t crc, const void *data, size_t length) {
    if (hardware) return crc32c_sse42(crc, data, length);
    return recordlog_crc32c_extend_portable(crc, data, length);
}

int recordlog_crc32c_is_hardware_accelerated(void) { return hardware; }
#else
uint32_t recordlog_crc32c_extend(uint32_t crc, const void *data, size_t length) {
    return recordlog_crc32c_extend_portable(crc, data, length);
}

int recordlog_crc32c_is_hardware_accelerated(void) { return hardware; }
#endif
