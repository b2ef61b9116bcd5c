/// The `free` boxes through which a piece cut short by a crash can be repaired: players skip them, and they
/// stay in the finished file.
///
/// - The header, after `ftyp`: `rhdr`, the timescale (32 bits), the leading trim (64), the sample entry (a box),
///   the length of the tag items (32) and the items.
/// - A chunk index before each `mdat`: `ridx`, the packet count (32 bits), each packet's size (32), the number of
///   frame runs (32) and the runs (packets and frames, 32 bits each).
///
/// An index goes before its chunk, so that every whole packet of a chunk cut short can be found again.
enum M4ARecoveryBoxes {
    static let headerMark = "rhdr"
    static let indexMark = "ridx"

    static func header(_ header: M4ATrackHeader) -> [UInt8] {
        var builder = MP4BoxBuilder()
        builder.box("free") {
            $0.fourCC(headerMark)
            $0.uint32(header.timescale)
            $0.uint64(UInt64(header.leadingTrim))
            $0.append(header.sampleEntry)
            $0.uint32(UInt32(header.tagItems.count))
            $0.append(header.tagItems)
        }
        return builder.bytes
    }

    static func chunkIndex(sizes: [UInt32], runs: [M4AFrameRun]) -> [UInt8] {
        var builder = MP4BoxBuilder()
        builder.box("free") {
            $0.fourCC(indexMark)
            $0.uint32(UInt32(sizes.count))
            for size in sizes { $0.uint32(size) }
            $0.uint32(UInt32(runs.count))
            for run in runs {
                $0.uint32(run.packets)
                $0.uint32(run.frames)
            }
        }
        return builder.bytes
    }

    /// The header a `free` box's body holds, or nil when it is not one.
    static func readHeader(_ body: [UInt8]) -> M4ATrackHeader? {
        var reader = BigEndianReader(body)
        guard reader.mark() == headerMark, let timescale = reader.uint32(), let trim = reader.uint64(),
              trim <= UInt64(Int64.max), let entrySize = reader.peekUInt32(), let entry = reader.bytes(Int(entrySize)),
              let itemsSize = reader.uint32(), let items = reader.bytes(Int(itemsSize)) else { return nil }
        return M4ATrackHeader(timescale: timescale, leadingTrim: Int64(trim), sampleEntry: entry, tagItems: items)
    }

    /// The sizes and frame counts of the packets a chunk index lists, or nil when the body is not one.
    static func readChunkIndex(_ body: [UInt8]) -> [(size: UInt32, frames: UInt32)]? {
        var reader = BigEndianReader(body)
        guard reader.mark() == indexMark, let count = reader.uint32() else { return nil }
        var sizes: [UInt32] = []
        for _ in 0..<count {
            guard let size = reader.uint32() else { return nil }
            sizes.append(size)
        }
        guard let runCount = reader.uint32() else { return nil }
        var packets: [(size: UInt32, frames: UInt32)] = []
        for _ in 0..<runCount {
            guard let runPackets = reader.uint32(), let frames = reader.uint32(),
                  Int(runPackets) <= sizes.count - packets.count else { return nil }
            for _ in 0..<runPackets { packets.append((sizes[packets.count], frames)) }
        }
        return packets.count == sizes.count ? packets : nil
    }
}

/// Reads big-endian fields from bytes, giving nil past their end.
private struct BigEndianReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func mark() -> String? {
        bytes(4).map { String(decoding: $0, as: UTF8.self) }
    }

    mutating func uint32() -> UInt32? {
        bytes(4).map { $0.reduce(0) { $0 << 8 | UInt32($1) } }
    }

    mutating func uint64() -> UInt64? {
        bytes(8).map { $0.reduce(0) { $0 << 8 | UInt64($1) } }
    }

    func peekUInt32() -> UInt32? {
        var copy = self
        return copy.uint32()
    }

    mutating func bytes(_ count: Int) -> [UInt8]? {
        guard count >= 0, count <= bytes.count - position else { return nil }
        defer { position += count }
        return Array(bytes[position..<position + count])
    }
}
