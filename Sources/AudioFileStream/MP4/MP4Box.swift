/// A box read whole from a buffer: its type and where its content lies in that buffer.
package struct MP4Box {
    package let type: FourCharCode
    /// The header's position in the buffer the box was read from.
    package let start: Int
    /// The content, after the header, as positions in the buffer the box was read from.
    package let content: Range<Int>

    /// Boxes nested deeper than this (the file's top level is depth 0) make the file invalid: real files nest
    /// about 9 deep (moov, udta, meta, ilst, an item, data), and a bound keeps hand-made nesting from recursing
    /// without end.
    static let maximumDepth = 16

    /// The boxes filling `range` of `bytes`, in order, at nesting `depth`. A box of size 0 runs to the range's
    /// end.
    /// - Throws: `MP4Invalid` when a size is smaller than its header or runs past the range, or `depth` is past
    ///   `maximumDepth`.
    package static func children(of range: Range<Int>, in bytes: UnsafeRawBufferPointer,
                         depth: Int) throws(MP4Invalid) -> [MP4Box] {
        guard depth <= maximumDepth else {
            throw MP4Invalid("boxes are nested more than \(maximumDepth) deep")
        }
        var boxes: [MP4Box] = []
        var position = range.lowerBound
        // Some writers pad a container with a few zero bytes: fewer than a header are not a box.
        while range.upperBound - position >= 8 {
            let window = UnsafeRawBufferPointer(rebasing: bytes[..<range.upperBound])
            switch MP4BoxHeader.read(window, at: position) {
            case .header(let header):
                let end = header.size.map { Int64(position) + $0 } ?? Int64(range.upperBound)
                guard end <= Int64(range.upperBound) else {
                    throw MP4Invalid("box '\(header.type)' of \(header.size ?? 0) bytes runs past the box that holds it")
                }
                boxes.append(MP4Box(type: header.type, start: position, content: position + header.headerLength..<Int(end)))
                position = Int(end)
            case .needMore:
                throw MP4Invalid("a box header is cut by the end of the box that holds it")
            case .invalid(let reason):
                throw MP4Invalid(reason)
            }
        }
        return boxes
    }
}

/// A box structure that cannot be read: the file is invalid, for the reason given.
package struct MP4Invalid: Error {
    package let reason: String

    init(_ reason: String) {
        self.reason = reason
    }
}
