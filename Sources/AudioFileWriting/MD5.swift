#if canImport(Glibc)
import Glibc
#endif

/// MD5 (RFC 1321), fed in pieces: what FLAC's STREAMINFO states of a stream's samples.
struct MD5 {
    private var state: (UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476)
    /// Bytes not yet making a whole 64-byte block.
    private var pending: [UInt8] = []
    private var byteCount: UInt64 = 0

    init() {
        pending.reserveCapacity(64)
    }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        byteCount &+= UInt64(bytes.count)
        var position = 0
        if !pending.isEmpty {
            let taken = min(64 - pending.count, bytes.count)
            pending += bytes[0..<taken]
            position = taken
            guard pending.count == 64 else { return }
            pending.withUnsafeBytes { compress($0, at: 0) }
            pending.removeAll(keepingCapacity: true)
        }
        while position + 64 <= bytes.count {
            compress(bytes, at: position)
            position += 64
        }
        pending += bytes[position...]
    }

    /// The digest of the bytes so far, in its 16 bytes.
    var digest: [UInt8] {
        var copy = self
        // §3.1–3.2: a 1 bit, zeros to 56 bytes mod 64, then the message's length in bits, little-endian.
        let bitCount = byteCount &* 8
        var padding: [UInt8] = [0x80] + [UInt8](repeating: 0, count: (119 - Int(byteCount % 64)) % 64)
        padding += withUnsafeBytes(of: bitCount.littleEndian, Array.init)
        padding.withUnsafeBytes { copy.update($0) }
        let (a, b, c, d) = copy.state
        return [a, b, c, d].flatMap { word in withUnsafeBytes(of: word.littleEndian, Array.init) }
    }

    /// §3.4: the four rounds over the block at `position`.
    private mutating func compress(_ bytes: UnsafeRawBufferPointer, at position: Int) {
        var (a, b, c, d) = state
        for index in 0..<64 {
            let (mixed, word): (UInt32, Int) = switch index >> 4 {
            case 0: (b & c | ~b & d, index)
            case 1: (d & b | ~d & c, (5 &* index &+ 1) & 15)
            case 2: (b ^ c ^ d, (3 &* index &+ 5) & 15)
            default: (c ^ (b | ~d), (7 &* index) & 15)
            }
            let message = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: position + 4 * word,
                                                                   as: UInt32.self))
            let sum = a &+ mixed &+ Self.sines[index] &+ message
            (a, d, c) = (d, c, b)
            b = b &+ (sum << Self.shifts[index] | sum >> (32 - Self.shifts[index]))
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
    }

    private static let shifts: [UInt32] = (0..<64).map { index in
        [[7, 12, 17, 22], [5, 9, 14, 20], [4, 11, 16, 23], [6, 10, 15, 21]][index >> 4][index & 3]
    }

    /// §3.4's table T: the integer part of 2^32 × |sin(i + 1)|.
    private static let sines: [UInt32] = (0..<64).map { index in
        UInt32((sin(Double(index + 1)).magnitude * 4_294_967_296).rounded(.down))
    }
}
