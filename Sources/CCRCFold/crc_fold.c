// CRC folding by carry-less multiplication (Intel, "Fast CRC Computation for Generic Polynomials Using
// PCLMULQDQ Instruction", 2009), for CRCs that are not reflected, such as Ogg's CRC-32 and FLAC's CRC-16: each
// 16-byte block A is carried 128 bits on as A_hi * (x^192 mod P) + A_lo * (x^128 mod P), which is congruent to it
// and fits in 96 bits, and added to the next block. The last block is left for the caller's table to finish.
#include "crc_fold.h"

#if defined(__x86_64__)
#include <immintrin.h>

int crc_fold_available(void) {
    return __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("ssse3");
}

__attribute__((target("pclmul,ssse3")))
void crc_fold(const uint8_t *data, size_t length, uint32_t initial, uint64_t k192, uint64_t k128, uint8_t out[16]) {
    // Bytes reversed, so that the message's first bit is the register's top bit (x^127).
    const __m128i reverse = _mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    const __m128i constants = _mm_set_epi64x((long long)k192, (long long)k128);
    __m128i block = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)data), reverse);
    block = _mm_xor_si128(block, _mm_set_epi32((int)initial, 0, 0, 0));
    for (size_t offset = 16; offset < length; offset += 16) {
        __m128i next = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + offset)), reverse);
        __m128i high = _mm_clmulepi64_si128(block, constants, 0x11);
        __m128i low = _mm_clmulepi64_si128(block, constants, 0x00);
        block = _mm_xor_si128(_mm_xor_si128(high, low), next);
    }
    _mm_storeu_si128((__m128i *)out, _mm_shuffle_epi8(block, reverse));
}

#else

int crc_fold_available(void) {
    return 0;
}

void crc_fold(const uint8_t *data, size_t length, uint32_t initial, uint64_t k192, uint64_t k128, uint8_t out[16]) {
    (void)data; (void)length; (void)initial; (void)k192; (void)k128; (void)out;
}

#endif
