// CRC-32C (Castagnoli). Slicing-by-8 tables are built once at load time; on x86-64 the
// SSE4.2 crc32 instruction is used, on three streams at once, when the CPU reports it.
#include "crc32c.h"

#include <string.h>

#define POLY 0x82F63B78u

static uint32_t table[8][256];
static int hardware;  // set once at load time, read-only afterwards
#if defined(__x86_64__)
static void build_shift_tables(void);
#endif

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
    if (hardware) build_shift_tables();
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

// The crc32 instruction takes 3 cycles but can start one every cycle: three streams over three
// adjacent blocks keep it busy, and their CRCs are combined by "shifting" the first ones over
// the zeros that the later blocks stand for (after Mark Adler's crc32c.c). A shift by a fixed
// length is a linear operator on the 32 bits, applied with four 256-entry tables.
#define LONG_BLOCK 8192
#define SHORT_BLOCK 256

static uint32_t shift_long[4][256];
static uint32_t shift_short[4][256];

static uint32_t gf2_matrix_times(const uint32_t *matrix, uint32_t vector) {
    uint32_t sum = 0;
    while (vector) {
        if (vector & 1) sum ^= *matrix;
        vector >>= 1;
        matrix++;
    }
    return sum;
}

static void gf2_matrix_square(uint32_t *square, const uint32_t *matrix) {
    for (int n = 0; n < 32; n++) square[n] = gf2_matrix_times(matrix, matrix[n]);
}

// The operator that appends `length` zero bytes (a power of two) to a CRC's register.
static void zeros_operator(uint32_t *even, size_t length) {
    uint32_t odd[32];
    odd[0] = POLY;  // one zero bit
    uint32_t row = 1;
    for (int n = 1; n < 32; n++) {
        odd[n] = row;
        row <<= 1;
    }
    gf2_matrix_square(even, odd);  // two zero bits
    gf2_matrix_square(odd, even);  // four
    // The next square gives one zero byte, the one after two, and so on.
    do {
        gf2_matrix_square(even, odd);
        length >>= 1;
        if (length == 0) return;
        gf2_matrix_square(odd, even);
        length >>= 1;
    } while (length);
    for (int n = 0; n < 32; n++) even[n] = odd[n];
}

static void build_shift_table(uint32_t table[4][256], size_t length) {
    uint32_t op[32];
    zeros_operator(op, length);
    for (uint32_t n = 0; n < 256; n++) {
        table[0][n] = gf2_matrix_times(op, n);
        table[1][n] = gf2_matrix_times(op, n << 8);
        table[2][n] = gf2_matrix_times(op, n << 16);
        table[3][n] = gf2_matrix_times(op, n << 24);
    }
}

static void build_shift_tables(void) {
    build_shift_table(shift_long, LONG_BLOCK);
    build_shift_table(shift_short, SHORT_BLOCK);
}

static inline uint32_t shift(uint32_t table[4][256], uint32_t crc) {
    return table[0][crc & 0xFF] ^ table[1][(crc >> 8) & 0xFF] ^ table[2][(crc >> 16) & 0xFF] ^ table[3][crc >> 24];
}

static inline uint64_t load64(const uint8_t *p) {
    uint64_t word;
    memcpy(&word, p, 8);
    return word;
}

// Three streams over `block`-byte thirds of each 3 × `block` bytes while they last.
#define THREE_STREAMS(block, table)                                          \
    while (length >= 3 * (block)) {                                          \
        uint64_t c1 = 0, c2 = 0;                                             \
        const uint8_t *end = p + (block);                                    \
        do {                                                                 \
            c = _mm_crc32_u64(c, load64(p));                                 \
            c1 = _mm_crc32_u64(c1, load64(p + (block)));                     \
            c2 = _mm_crc32_u64(c2, load64(p + 2 * (block)));                 \
            p += 8;                                                          \
        } while (p < end);                                                   \
        c = shift(table, (uint32_t)c) ^ (uint32_t)c1;                        \
        c = shift(table, (uint32_t)c) ^ (uint32_t)c2;                        \
        p += 2 * (block);                                                    \
        length -= 3 * (block);                                               \
    }

__attribute__((target("sse4.2"))) static uint32_t crc32c_sse42(uint32_t crc, const void *data,
                                                               size_t length) {
    const uint8_t *p = (const uint8_t *)data;
    uint64_t c = (uint32_t)~crc;
    while (length && ((uintptr_t)p & 7)) {
        c = _mm_crc32_u8((uint32_t)c, *p++);
        length--;
    }
    THREE_STREAMS(LONG_BLOCK, shift_long)
    THREE_STREAMS(SHORT_BLOCK, shift_short)
    while (length >= 8) {
        c = _mm_crc32_u64(c, load64(p));
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
