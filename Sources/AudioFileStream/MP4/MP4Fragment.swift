/// A movie fragment box (`moof`, ISO/IEC 14496-12 §8.8) read for one track: the samples its track runs place in
/// the media data that follows, in a sample table of one chunk a run.
///
/// Each track fragment (`traf`) starts its data at the `tfhd` base data offset, else at the `moof` itself for the
/// first track fragment or when `default-base-is-moof` is set, else where the previous track fragment's data
/// ended; each run (`trun`) starts at its data offset from there, else where the previous run ended. Sizes and
/// durations come from the run, else the `tfhd` defaults, else the movie's `trex` defaults.
enum MP4Fragment {
    /// The most samples one fragment may place (25 minutes of AAC; real fragments hold seconds): a bound on
    /// what its tables hold and the work a small `moof` can ask for, whatever its counts claim.
    static let largestSampleCount = 1 << 16

    /// Fills `table` with the samples of track `trackID` placed by the `moof` whose content is `moof` in
    /// `bytes`, the box starting at stream offset `moofOffset` in a file starting at stream offset `fileStart`
    /// (from which a `tfhd` base data offset counts).
    /// - Throws: `MP4Invalid` when a box is cut short or its counts lie.
    static func read(_ moof: MP4Box, in bytes: UnsafeRawBufferPointer, at moofOffset: Int64, fileStart: Int64,
                     trackID: Int, defaults: [Int: MP4Movie.TrackDefaults],
                     into table: inout MP4SampleTable) throws(MP4Invalid) {
        table.removeAll()
        var previousEnd = moofOffset
        var isFirst = true
        for traf in try MP4Box.children(of: moof.content, in: bytes, depth: 1) where traf.type == "traf" {
            let boxes = try MP4Box.children(of: traf.content, in: bytes, depth: 2)
            guard let tfhd = boxes.first(where: { $0.type == "tfhd" }) else {
                throw MP4Invalid("a track fragment has no 'tfhd' box")
            }
            var header = try TrackFragmentHeader(tfhd, in: bytes)
            let movieDefaults = defaults[header.trackID] ?? MP4Movie.TrackDefaults()
            header.duration = header.duration ?? movieDefaults.duration
            header.size = header.size ?? movieDefaults.size
            var dataEnd = header.baseOffset.map { fileStart + $0 }
                ?? (isFirst || header.isBasedOnMoof ? moofOffset : previousEnd)
            let base = dataEnd
            for trun in boxes where trun.type == "trun" {
                dataEnd = try readRun(trun, in: bytes, base: base, follows: dataEnd, header: header,
                                      keeping: header.trackID == trackID, into: &table)
            }
            previousEnd = dataEnd
            isFirst = false
        }
    }

    /// The fields of a `tfhd` box.
    private struct TrackFragmentHeader {
        let trackID: Int
        let baseOffset: Int64?
        let isBasedOnMoof: Bool
        var duration: Int?
        var size: Int?

        init(_ box: MP4Box, in bytes: UnsafeRawBufferPointer) throws(MP4Invalid) {
            var fields = MP4FieldReader(box, in: bytes)
            let flags = try fields.versionAndFlags().flags
            trackID = Int(try fields.uint32())
            let base = flags & 0x01 != 0 ? try fields.uint64() : nil
            guard (base ?? 0) < UInt64(MP4SampleTable.largestOffset) else {
                throw MP4Invalid("a track fragment's base data offset of \(base ?? 0) is past any stream")
            }
            baseOffset = base.map(Int64.init)
            if flags & 0x02 != 0 { try fields.skip(4) }  // sample_description_index
            duration = flags & 0x08 != 0 ? Int(try fields.uint32()) : nil
            size = flags & 0x10 != 0 ? Int(try fields.uint32()) : nil
            isBasedOnMoof = flags & 0x2_0000 != 0
        }
    }

    /// Reads a `trun` whose data offset counts from `base` (else its data follows `previousEnd`), adding its
    /// samples to `table` when `keeping` them; returns where its data ends.
    private static func readRun(_ trun: MP4Box, in bytes: UnsafeRawBufferPointer, base: Int64, follows previousEnd: Int64,
                                header: TrackFragmentHeader, keeping: Bool,
                                into table: inout MP4SampleTable) throws(MP4Invalid) -> Int64 {
        var fields = MP4FieldReader(trun, in: bytes)
        let flags = try fields.versionAndFlags().flags
        let count = Int(try fields.uint32())
        let dataOffset = flags & 0x01 != 0 ? Int64(Int32(bitPattern: try fields.uint32())) : nil
        if flags & 0x04 != 0 { try fields.skip(4) }  // first_sample_flags
        let hasDuration = flags & 0x100 != 0, hasSize = flags & 0x200 != 0
        // Each sample's optional fields: duration, size, flags, composition time offset.
        let entrySize = 4 * [0x100, 0x200, 0x400, 0x800].filter { flags & UInt32($0) != 0 }.count
        if entrySize > 0 { try fields.requireEntries(UInt32(count), of: entrySize) }
        guard count <= largestSampleCount - (keeping ? table.sampleCount : 0) else {
            throw MP4Invalid("a movie fragment places more than \(largestSampleCount) samples")
        }
        let start = dataOffset.map { base + $0 } ?? previousEnd
        guard start >= 0, start < MP4SampleTable.largestOffset else {
            throw MP4Invalid("a track run's data starts at \(start), outside any stream")
        }
        guard keeping || hasSize else { return start + Int64(count) * Int64(header.size ?? 0) }
        if keeping {
            table.chunkOffsets.append(start)
            table.chunkRuns.append(.init(firstChunk: table.chunkOffsets.count - 1, samplesPerChunk: count))
            table.sampleCount += count
        }
        var end = start
        for _ in 0..<count {
            let duration = hasDuration ? Int(try fields.uint32()) : header.duration ?? 0
            let size = hasSize ? Int(try fields.uint32()) : header.size ?? 0
            try fields.skip(entrySize - (hasDuration ? 4 : 0) - (hasSize ? 4 : 0))
            end += Int64(size)
            guard keeping else { continue }
            table.sizes.append(UInt32(size))
            if table.durationRuns.last?.duration == duration {
                table.durationRuns[table.durationRuns.count - 1].count += 1
            } else {
                table.durationRuns.append(.init(count: 1, duration: duration))
            }
        }
        return end
    }
}
