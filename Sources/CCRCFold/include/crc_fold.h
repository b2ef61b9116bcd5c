#ifndef CRC_FOLD_H
#define CRC_FOLD_H

#include <stddef.h>
#include <stdint.h>

/// Whether this CPU multiplies without carries (x86-64 PCLMULQDQ, with SSSE3 for the byte shuffle).
int crc_fold_available(void);

/// Folds `length` bytes of `data` (a multiple of 16, at least 16) for a CRC of up to 32 bits that is not
/// reflected, whose register holds `initial` before them (left-aligned to bit 31: a 16-bit CRC shifted by 16),
/// into 16 bytes written to `out` that leave the same register as all of `data`, for a CRC run over them from 0.
/// `k192` and `k128` are x^192 and x^128 modulo the polynomial. Only to be called when `crc_fold_available()`.
void crc_fold(const uint8_t *data, size_t length, uint32_t initial, uint64_t k192, uint64_t k128, uint8_t out[16]);

#endif
