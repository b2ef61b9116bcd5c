extension MP4SampleTable {
    /// The largest chunk offset believed (2^62): offsets and sizes are then added without overflow.
    static let largestOffset: Int64 = 1 << 62

    /// Reads one of the sample table's boxes (stsz, stz2, stsc, stco, co64, stts) into the table; other boxes are
    /// left alone. Each count is checked against the bytes the box holds before anything is stored.
    /// - Throws: `MP4Invalid` when a box is shorter than its count says.
    mutating func read(_ box: MP4Box, in bytes: UnsafeRawBufferPointer) throws(MP4Invalid) {
        var fields = MP4FieldReader(box, in: bytes)
        switch box.type {
        case "stsz":
            try readSampleSizes(&fields, in: bytes)
        case "stz2":
            try readCompactSampleSizes(&fields, in: bytes)
        case "stsc":
            _ = try fields.versionAndFlags()
            chunkRuns = try Self.entries(of: &fields, size: 12) { fields throws(MP4Invalid) in
                let firstChunk = Int(try fields.uint32())
                let samplesPerChunk = Int(try fields.uint32())
                try fields.skip(4)  // sample_description_index: the one description is read
                guard firstChunk > 0 else { throw MP4Invalid("box 'stsc' names chunk 0; chunks count from 1") }
                return ChunkRun(firstChunk: firstChunk - 1, samplesPerChunk: samplesPerChunk)
            }
        case "stco", "co64":
            _ = try fields.versionAndFlags()
            let isLong = box.type == "co64"
            chunkOffsets = try Self.entries(of: &fields, size: isLong ? 8 : 4) { fields throws(MP4Invalid) in
                let offset = isLong ? try fields.uint64() : UInt64(try fields.uint32())
                guard offset < UInt64(Self.largestOffset) else {
                    throw MP4Invalid("a chunk offset of \(offset) is past any stream")
                }
                return Int64(offset)
            }
        case "stts":
            _ = try fields.versionAndFlags()
            durationRuns = try Self.entries(of: &fields, size: 8) { fields throws(MP4Invalid) in
                let samples = Int(try fields.uint32())
                return DurationRun(count: samples, duration: Int(try fields.uint32()))
            }
        default:
            break
        }
    }

    /// `stsz`: one size for every sample, or a 32-bit size each.
    private mutating func readSampleSizes(_ fields: inout MP4FieldReader, in bytes: UnsafeRawBufferPointer)
        throws(MP4Invalid)
    {
        _ = try fields.versionAndFlags()
        constantSize = Int(try fields.uint32())
        let count = try fields.uint32()
        if constantSize == 0 {
            try fields.requireEntries(count, of: 4)
            let start = fields.position
            // The largest table of the moov: read four bytes at a time, its bounds checked once above.
            sizes = (0..<Int(count)).map {
                UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: start + 4 * $0, as: UInt32.self))
            }
        }
        sampleCount = Int(count)
    }

    /// `stz2`: a size of 4, 8 or 16 bits each.
    private mutating func readCompactSampleSizes(_ fields: inout MP4FieldReader, in bytes: UnsafeRawBufferPointer)
        throws(MP4Invalid)
    {
        _ = try fields.versionAndFlags()
        try fields.skip(3)
        let fieldSize = Int(try fields.uint8())
        let count = try fields.uint32()
        guard [4, 8, 16].contains(fieldSize) else {
            throw MP4Invalid("box 'stz2' has a field size of \(fieldSize) bits, not 4, 8 or 16")
        }
        // Entries of 4 bits come two a byte.
        let needed = (Int(count) * fieldSize + 7) / 8
        try fields.require(needed)
        let start = fields.position
        sizes = (0..<Int(count)).map { sample in
            switch fieldSize {
            case 4: UInt32(bytes[start + sample / 2] >> (sample % 2 == 0 ? 4 : 0) & 0x0F)
            case 8: UInt32(bytes[start + sample])
            default: UInt32(bytes.bigEndianUInt16(at: start + 2 * sample))
            }
        }
        sampleCount = Int(count)
    }

    /// The entries of a table box after its version and flags: a 32-bit count, then that many entries of `size`
    /// bytes, each read by `entry`; the count is checked against the box's bytes before anything is stored.
    private static func entries<Entry>(
        of fields: inout MP4FieldReader, size: Int, _ entry: (inout MP4FieldReader) throws(MP4Invalid) -> Entry
    ) throws(MP4Invalid) -> [Entry] {
        let count = try fields.uint32()
        try fields.requireEntries(count, of: size)
        var entries: [Entry] = []
        entries.reserveCapacity(Int(count))
        for _ in 0..<count { entries.append(try entry(&fields)) }
        return entries
    }
}
