/// Reading and making ISO base media boxes (ISO/IEC 14496-12 §4.2) over bytes in memory, for edits of a movie.
enum MP4Boxes {
    struct Box {
        let type: String
        /// The whole box, header included.
        let range: Range<Int>
        let headerSize: Int
    }

    /// The boxes that fill `bytes` (a file's as they are mapped, or some in memory), one after another.
    /// - Throws: `TagEditError.damaged` when a size is too small or runs past the end.
    static func children<Bytes: RandomAccessCollection<UInt8>>(of bytes: Bytes) throws -> [Box] where Bytes.Index == Int {
        var boxes: [Box] = []
        var offset = bytes.startIndex
        while offset + 8 <= bytes.endIndex {
            var size = Int(bigEndian(bytes, at: offset, count: 4))
            var headerSize = 8
            if size == 1 {
                guard offset + 16 <= bytes.endIndex else { throw TagEditError.damaged("an MP4 box header is cut short") }
                let large = bigEndian(bytes, at: offset + 8, count: 8)
                guard large <= UInt64(Int.max) else { throw TagEditError.damaged("an MP4 box's size is too large") }
                size = Int(large)
                headerSize = 16
            } else if size == 0 {
                size = bytes.endIndex - offset
            }
            let type = String(bytes[offset + 4..<offset + 8].map { Character(Unicode.Scalar($0)) })
            guard size >= headerSize, size <= bytes.endIndex - offset else {
                throw TagEditError.damaged("the MP4 box '\(type)' at \(offset) runs past its end")
            }
            boxes.append(Box(type: type, range: offset..<offset + size, headerSize: headerSize))
            offset += size
        }
        return boxes
    }

    /// A box of `type` around `body`, with a 32-bit size.
    static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
        MP4BoxBuilder.bigEndian(UInt32(truncatingIfNeeded: 8 + body.count))
            + type.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) } + body
    }

    /// Adds `shift` to every chunk offset (`stco`, `co64` in `trak/mdia/minf/stbl`) of `movie` at or past
    /// `start`: the media data moved by what the movie before it grew.
    /// - Throws: `TagEditError` when an offset no longer fits in `stco`'s 32 bits, or a table runs past its box.
    static func moveChunkOffsets(in movie: inout [UInt8], from start: Int64, by shift: Int64) throws {
        func walk(_ range: Range<Int>) throws {
            for box in try children(of: movie[range]) {
                switch box.type {
                case "trak", "mdia", "minf", "stbl": try walk(box.range.lowerBound + box.headerSize..<box.range.upperBound)
                case "stco", "co64":
                    let width = box.type == "stco" ? 4 : 8
                    let table = box.range.lowerBound + box.headerSize + 8
                    guard table <= box.range.upperBound else { throw TagEditError.damaged("the \(box.type) box is cut short") }
                    let count = Int(bigEndian(movie[...], at: table - 4, count: 4))
                    guard count <= (box.range.upperBound - table) / width else {
                        throw TagEditError.damaged("the \(box.type) table runs past its box")
                    }
                    for entry in stride(from: table, to: table + count * width, by: width) {
                        let offset = Int64(bigEndian(movie[...], at: entry, count: width))
                        guard offset >= start else { continue }
                        let moved = offset + shift
                        guard width == 8 || moved <= UInt32.max else {
                            throw TagEditError.unsupportedFile("the media data would move past the 4 GiB stco can point to")
                        }
                        movie.replaceSubrange(entry..<entry + width, with: width == 4
                            ? MP4BoxBuilder.bigEndian(UInt32(moved)) : MP4BoxBuilder.bigEndian(UInt64(moved)))
                    }
                default: continue
                }
            }
        }
        let movieBox = try children(of: movie[...])
        guard let first = movieBox.first else { return }
        try walk(first.headerSize..<first.range.upperBound)
    }

    /// Whether the boxes of `bytes` from `start` state file offsets, which a movie before them that grew would
    /// leave wrong: a movie fragment's `tfhd` with a base data offset (ISO/IEC 14496-12 §8.8.7), or a fragment
    /// random access box (`mfra`).
    static func fragmentsStateOffsets(in bytes: UnsafeRawBufferPointer, from start: Int) throws -> Bool {
        func statesOffsets(_ range: Range<Int>) throws -> Bool {
            try children(of: bytes[range]).contains { box in
                let body = box.range.lowerBound + box.headerSize..<box.range.upperBound
                switch box.type {
                case "mfra": return true
                case "moof", "traf": return try statesOffsets(body)
                // A full box: tf_flags' lowest bit is base-data-offset-present.
                case "tfhd": return body.count >= 4 && bytes[body.lowerBound + 3] & 1 != 0
                default: return false
                }
            }
        }
        return try statesOffsets(start..<bytes.count)
    }

    private static func bigEndian<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, at offset: Int, count: Int) -> UInt64
        where Bytes.Index == Int {
        bytes[offset..<offset + count].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
