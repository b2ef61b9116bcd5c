/// A file made from another with its tags edited: new bytes where the tags were, the rest taken from the input
/// as it is, so that its audio is byte for byte the input's.
public struct EditedFile: Equatable, Sendable {
    enum Piece: Equatable, Sendable {
        case bytes([UInt8])
        /// Input bytes as they are.
        case copy(Range<Int>)
        /// Input bytes holding Ogg pages, whose pages of `serial` get their sequence numbers shifted by `shift`
        /// (the header pages before them grew or shrank); anything else is copied as it is.
        case oggPages(Range<Int>, serial: UInt32, shift: UInt32)
    }

    var pieces: [Piece]

    /// Writes the file made from `input` to `target`, calling `progress` between pieces of at most 1 MiB (to
    /// stop when asked).
    public func write(from input: UnsafeRawBufferPointer, to target: inout some WriteTarget,
                      progress: () throws -> Void = {}) throws {
        for piece in pieces {
            switch piece {
            case .bytes(let bytes):
                try target.append(bytes)
            case .copy(let range):
                for start in stride(from: range.lowerBound, to: range.upperBound, by: 1 << 20) {
                    try target.append(UnsafeRawBufferPointer(rebasing: input[start..<min(start + 1 << 20, range.upperBound)]))
                    try progress()
                }
            case .oggPages(let range, let serial, let shift):
                try OggPageRenumbering.write(input[range], serial: serial, shift: shift, to: &target)
            }
            try progress()
        }
    }
}
