/// The header of an ISO base media file box (ISO/IEC 14496-12 §4.2): a 32-bit size and a type, a 64-bit size
/// when the 32-bit one is 1, and a size of 0 for a box that runs to the end of the file.
package struct MP4BoxHeader: Equatable {
    package let type: FourCharCode
    /// 8, or 16 with a 64-bit size.
    package let headerLength: Int
    /// The whole box's bytes, header included; nil for a box that runs to the end of the file.
    package let size: Int64?

    /// The largest size believed (2^62 bytes).
    static let largestSize: Int64 = 1 << 62

    /// What the bytes at a position hold.
    package enum Reading: Equatable {
        case header(MP4BoxHeader)
        /// The header needs this many bytes from the position.
        case needMore(Int)
        /// A size smaller than the header, or one no file can have.
        case invalid(String)
    }

    /// Reads the header at `position` of `bytes`.
    package static func read(_ bytes: UnsafeRawBufferPointer, at position: Int) -> Reading {
        guard bytes.count - position >= 8 else { return .needMore(8) }
        let size32 = bytes.bigEndianUInt32(at: position)
        let type = FourCharCode(rawValue: bytes.bigEndianUInt32(at: position + 4))
        switch size32 {
        case 0:
            return .header(MP4BoxHeader(type: type, headerLength: 8, size: nil))
        case 1:
            guard bytes.count - position >= 16 else { return .needMore(16) }
            let size = UInt64(bytes.bigEndianUInt32(at: position + 8)) << 32 | UInt64(bytes.bigEndianUInt32(at: position + 12))
            guard size >= 16 else {
                return .invalid("box '\(type)' has a 64-bit size of \(size) bytes, less than its 16-byte header")
            }
            // No stream is 4 EiB long; the bound keeps offsets plus sizes from overflowing.
            guard size < UInt64(Self.largestSize) else {
                return .invalid("box '\(type)' has a 64-bit size of \(size) bytes, more than any stream holds")
            }
            return .header(MP4BoxHeader(type: type, headerLength: 16, size: Int64(size)))
        case 2..<8:
            return .invalid("box '\(type)' has a size of \(size32) bytes, less than its 8-byte header")
        default:
            return .header(MP4BoxHeader(type: type, headerLength: 8, size: Int64(size32)))
        }
    }
}
