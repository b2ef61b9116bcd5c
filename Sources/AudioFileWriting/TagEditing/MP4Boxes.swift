import AudioFileStream

/// Reading and making ISO base media boxes (ISO/IEC 14496-12 §4.2) over bytes in memory, for edits of a movie.
enum MP4Boxes {
    struct Box {
        let type: String
        /// The whole box, header included.
        let range: Range<Int>
        let headerSize: Int
    }

    /// The boxes that fill `bytes` (a file's as they are mapped, or some in memory), one after another, as the
    /// parser walks them (`MP4Box.children`): a box structure it refuses is refused here for the same reason.
    /// - Throws: `TagEditError.damaged` when a size is too small or runs past the end.
    static func children<Bytes: RandomAccessCollection<UInt8>>(of bytes: Bytes) throws -> [Box] where Bytes.Index == Int {
        let base = bytes.startIndex
        return try bytes.withContiguousStorageIfAvailable { try boxes(in: UnsafeRawBufferPointer($0), at: base) }
            ?? Array(bytes).withUnsafeBytes { try boxes(in: $0, at: base) }
    }

    /// The boxes that fill `buffer`, whose first byte is at `base` of the bytes the caller counts in.
    private static func boxes(in buffer: UnsafeRawBufferPointer, at base: Int) throws -> [Box] {
        do {
            return try MP4Box.children(of: 0..<buffer.count, in: buffer, depth: 0).map { box in
                Box(type: String(buffer[box.start + 4..<box.start + 8].map { Character(Unicode.Scalar($0)) }),
                    range: base + box.start..<base + box.content.upperBound, headerSize: box.content.lowerBound - box.start)
            }
        } catch {
            throw TagEditError.damaged("the MP4 file's boxes cannot be read: \(error.reason)")
        }
    }

    /// A box of `type` around `body`, with a 32-bit size.
    static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
        [UInt8](bigEndian: UInt32(truncatingIfNeeded: 8 + body.count))
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
                    let count = movie.withUnsafeBytes { $0.bigEndianInteger(at: table - 4, count: 4) }
                    guard count <= (box.range.upperBound - table) / width else {
                        throw TagEditError.damaged("the \(box.type) table runs past its box")
                    }
                    for entry in stride(from: table, to: table + count * width, by: width) {
                        try move(&movie, at: entry, width: width, from: start, by: shift)
                    }
                default: continue
                }
            }
        }
        let movieBox = try children(of: movie[...])
        guard let first = movieBox.first else { return }
        try walk(first.headerSize..<first.range.upperBound)
    }

    /// Adds `shift` to a movie fragment's absolute offsets at or past `start`: each track fragment's base data
    /// offset (`traf/tfhd`, when its flags say one is there). Offsets relative to the fragment need nothing.
    /// - Throws: `TagEditError.damaged` when a box runs past its end.
    static func moveFragmentOffsets(in fragment: inout [UInt8], from start: Int64, by shift: Int64) throws {
        for traf in try children(of: fragment[8...]) where traf.type == "traf" {
            for tfhd in try children(of: fragment[traf.range.lowerBound + traf.headerSize..<traf.range.upperBound])
            where tfhd.type == "tfhd" {
                // A full box: version and flags, the track's id, then the base data offset if flag 0x1 is set.
                let body = tfhd.range.lowerBound + tfhd.headerSize
                guard body + 8 <= tfhd.range.upperBound else { throw TagEditError.damaged("the tfhd box is cut short") }
                guard fragment[body + 3] & 1 == 1 else { continue }
                guard body + 16 <= tfhd.range.upperBound else { throw TagEditError.damaged("the tfhd box is cut short") }
                try move(&fragment, at: body + 8, width: 8, from: start, by: shift)
            }
        }
    }

    /// Adds `shift` to the fragments' offsets at or past `start` in a fragment index (`mfra/tfra`).
    /// - Throws: `TagEditError.damaged` when a table runs past its box.
    static func moveFragmentIndex(in index: inout [UInt8], from start: Int64, by shift: Int64) throws {
        for tfra in try children(of: index[8...]) where tfra.type == "tfra" {
            // A full box: version and flags, the track's id, the widths of three numbers, the count, the entries.
            let body = tfra.range.lowerBound + tfra.headerSize
            guard body + 16 <= tfra.range.upperBound else { throw TagEditError.damaged("the tfra box is cut short") }
            let width = index[body] == 1 ? 8 : 4
            let lengths = Int(index[body + 11])
            let numbers = (lengths >> 4 & 3) + (lengths >> 2 & 3) + (lengths & 3) + 3
            let entrySize = 2 * width + numbers
            let count = index.withUnsafeBytes { $0.bigEndianInteger(at: body + 12, count: 4) }
            guard count <= (tfra.range.upperBound - body - 16) / entrySize else {
                throw TagEditError.damaged("the tfra table runs past its box")
            }
            for entry in stride(from: body + 16, to: body + 16 + count * entrySize, by: entrySize) {
                try move(&index, at: entry + width, width: width, from: start, by: shift)
            }
        }
    }

    /// Adds `shift` to the `width`-byte offset at `position` when it is at or past `start`.
    private static func move(_ bytes: inout [UInt8], at position: Int, width: Int, from start: Int64, by shift: Int64) throws {
        let offset = Int64(bitPattern: bytes.withUnsafeBytes { UInt64(truncatingIfNeeded: $0.bigEndianInteger(at: position, count: width)) })
        guard offset >= start else { return }
        let (moved, overflow) = offset.addingReportingOverflow(shift)
        guard !overflow, moved >= 0 else { throw TagEditError.damaged("an MP4 offset points outside the file") }
        guard width == 8 || moved <= UInt32.max else {
            throw TagEditError.unsupportedFile("the media data would move past the 4 GiB a 32-bit offset can point to")
        }
        bytes.replaceSubrange(position..<position + width, with: width == 4
            ? [UInt8](bigEndian: UInt32(moved)) : [UInt8](bigEndian: UInt64(moved)))
    }
}
