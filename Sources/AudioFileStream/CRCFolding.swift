import CCRCFold

/// A CRC that is not reflected (Ogg's CRC-32, FLAC's CRC-16), carried over long runs of bytes by carry-less
/// multiplication where the CPU has it (`CCRCFold`), some ten times faster than any table, and by the caller's
/// table for the rest.
struct CRCFolding: Sendable {
    /// Runs shorter than this are left to the table: folding pays off over a few blocks.
    static let shortestRun = 64
    static let isAvailable = crc_fold_available() != 0

    private let width: Int
    private let k192: UInt64
    private let k128: UInt64

    /// `polynomial` without its top bit, of `width` bits (at most 32).
    init(polynomial: UInt32, width: Int) {
        self.width = width
        func power(_ exponent: Int) -> UInt64 {
            let top = UInt64(1) << width
            var remainder: UInt64 = 1
            for _ in 0..<exponent {
                remainder <<= 1
                if remainder & top != 0 { remainder ^= top | UInt64(polynomial) }
            }
            return remainder
        }
        k192 = power(192)
        k128 = power(128)
    }

    /// The register after `bytes`, from `crc`: the bytes folded into 16 with the same register, and those and the
    /// rest run through `table` (the caller's byte-wise update, from a register value over some bytes).
    func update(_ crc: UInt32, with bytes: UnsafeRawBufferPointer,
                table: (UInt32, UnsafeRawBufferPointer) -> UInt32) -> UInt32 {
        guard Self.isAvailable, bytes.count >= Self.shortestRun else { return table(crc, bytes) }
        let folded = bytes.count & ~15
        var block: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &block) { out in
            crc_fold(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), folded, crc << (32 - width), k192, k128,
                     out.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
        let register = withUnsafeBytes(of: &block) { table(0, $0) }
        return table(register, UnsafeRawBufferPointer(rebasing: bytes[folded...]))
    }
}
