/// What a movie box (`moov`) says: its tracks, the defaults of their fragments when the file is fragmented
/// (`mvex`), and its tags. Read from the whole box in one buffer.
struct MP4Movie {
    /// A fragmented track's defaults (`trex`, ISO/IEC 14496-12 §8.8.3), which each fragment may override.
    struct TrackDefaults: Equatable {
        var duration = 0
        var size = 0
    }

    /// Ticks a second of the movie's durations (mvhd), which edit lists use.
    private(set) var timescale = 0
    private(set) var tracks: [MP4Track] = []
    /// By track id; present when the file is fragmented.
    private(set) var fragmentDefaults: [Int: TrackDefaults] = [:]
    private(set) var isFragmented = false
    /// Each key space's tags and the position of the box holding them, in the order found.
    private(set) var metadata: [(position: Int, metadata: Metadata)] = []
    private let limits: MetadataLimits

    /// Reads the content of a `moov` box.
    /// - Throws: `MP4Invalid` when a box in it is cut short, lies about its size or counts, or nests too deep.
    init(_ moov: MP4Box, in bytes: UnsafeRawBufferPointer, limits: MetadataLimits) throws(MP4Invalid) {
        self.limits = limits
        var track: MP4Track?
        try visit(MP4Box.children(of: moov.content, in: bytes, depth: 1), in: bytes, depth: 1, track: &track)
    }

    /// The first audio track this library reads.
    var audioTrack: MP4Track? { tracks.first { $0.isReadableAudio } }

    /// Reads `boxes`, found at `depth`, into the movie, or into `track` inside a `trak`. Containers are
    /// entered wherever they are, so nesting is bounded by `MP4Box.maximumDepth` alone.
    private mutating func visit(_ boxes: [MP4Box], in bytes: UnsafeRawBufferPointer, depth: Int,
                                track: inout MP4Track?) throws(MP4Invalid) {
        for box in boxes {
            switch box.type {
            case "trak":
                var inner: MP4Track? = MP4Track()
                try visit(MP4Box.children(of: box.content, in: bytes, depth: depth + 1), in: bytes, depth: depth + 1,
                          track: &inner)
                if let inner { tracks.append(inner) }
            case "mdia", "minf", "stbl", "edts", "mvex":
                isFragmented = isFragmented || box.type == "mvex"
                try visit(MP4Box.children(of: box.content, in: bytes, depth: depth + 1), in: bytes, depth: depth + 1,
                          track: &track)
            case "mvhd":
                var fields = MP4FieldReader(box, in: bytes)
                let version = try fields.versionAndFlags().version
                try fields.skip(version == 1 ? 16 : 8)
                timescale = Int(try fields.uint32())
            case "trex":
                var fields = MP4FieldReader(box, in: bytes)
                _ = try fields.versionAndFlags()
                let id = Int(try fields.uint32())
                try fields.skip(4)  // default_sample_description_index
                let duration = Int(try fields.uint32())
                fragmentDefaults[id] = TrackDefaults(duration: duration, size: Int(try fields.uint32()))
            case "udta" where track == nil:
                try readUserData(box, in: bytes, depth: depth)
            case "meta" where track == nil:
                try readMeta(box, in: bytes, depth: depth, source: nil)
            default:
                try track?.read(box, in: bytes, depth: depth)
            }
        }
    }

    /// QuickTime user data: ©-atoms of text, and an iTunes `meta` box.
    private mutating func readUserData(_ udta: MP4Box, in bytes: UnsafeRawBufferPointer,
                                       depth: Int) throws(MP4Invalid) {
        let boxes = try MP4Box.children(of: udta.content, in: bytes, depth: depth + 1)
        let fields = QuickTimeUserData.fields(boxes, in: bytes, limits: limits)
        if !fields.isEmpty {
            metadata.append((udta.start, Metadata(source: .quicktimeUserData,
                                                  tags: MetadataNormalizer.tags(from: fields), raw: fields)))
        }
        for meta in boxes where meta.type == "meta" {
            try readMeta(meta, in: bytes, depth: depth + 1, source: .itunes)
        }
    }

    /// A `meta` box: iTunes items (handler `mdir`) or QuickTime metadata keyed by `keys` (handler `mdta`).
    private mutating func readMeta(_ meta: MP4Box, in bytes: UnsafeRawBufferPointer, depth: Int,
                                   source: MetadataFormat?) throws(MP4Invalid) {
        // ISO's meta is a full box; QuickTime's is not. The first four bytes tell: a version and flags of 0,
        // or a child box's size.
        var start = meta.content.lowerBound
        if meta.content.count >= 4, bytes.bigEndianUInt32(at: start) == 0 { start += 4 }
        let boxes = try MP4Box.children(of: start..<meta.content.upperBound, in: bytes, depth: depth + 1)
        var handler: FourCharCode?
        var keys: [String]?
        for box in boxes {
            switch box.type {
            case "hdlr":
                var fields = MP4FieldReader(box, in: bytes)
                _ = try fields.versionAndFlags()
                try fields.skip(4)
                handler = FourCharCode(rawValue: try fields.uint32())
            case "keys":
                keys = try ITunesMetadata.keys(box, in: bytes)
            case "ilst":
                let isQuickTime = handler == "mdta"
                let items = try MP4Box.children(of: box.content, in: bytes, depth: depth + 2)
                let fields = try ITunesMetadata.fields(items, in: bytes, depth: depth + 2,
                                                       keys: isQuickTime ? keys ?? [] : nil, limits: limits)
                guard !fields.isEmpty else { continue }
                let space = isQuickTime ? MetadataFormat.quicktimeMetadata : source ?? .itunes
                metadata.append((meta.start, Metadata(source: space, tags: MetadataNormalizer.tags(from: fields),
                                                      raw: fields)))
            default:
                break
            }
        }
    }

    /// The gapless segments of `track`, each a run of samples with its packet table: iTunes' gapless comment
    /// when there is one, else one segment per edit of the track's edit list. Empty when nothing states trims.
    func segments(of track: MP4Track) -> [MP4EditSegment] {
        let comment = metadata.lazy.map(\.metadata).filter { $0.source == .itunes }.flatMap(\.raw)
            .first { $0.key == ITunesGaplessInfo.key }
        if case .text(let values)? = comment?.value, let table = values.first.flatMap(ITunesGaplessInfo.packetTable) {
            return [MP4EditSegment(firstSample: 0, table: table)]
        }
        guard let format = track.format else { return [] }
        // Constant frames a packet are counted by the sample sizes, at the format's rate; the durations tell the
        // frames otherwise, and when the sizes are lost (a damaged table), in the track's timescale.
        let countsPackets = format.hasConstantFrames && track.table.sampleCount > 0
        let samples: [(count: Int, frames: Int64)] = countsPackets
            ? [(track.table.sampleCount, Int64(format.format.framesPerPacket))]
            : track.table.durationRuns.map { ($0.count, Int64($0.duration)) }
        let rate = countsPackets ? Int(format.format.sampleRate) : track.timescale
        if let editList = track.editList {
            return editList.segments(samples: samples, sampleRate: rate, movieTimescale: timescale,
                                     mediaTimescale: track.timescale) ?? []
        }
        // Without an edit list, packets of varying frames (ALAC) state the length in their durations alone: it is
        // the stream's length even when the media is cut short, as AVAsset's duration is.
        let frames = track.table.totalDuration
        guard !format.hasConstantFrames, track.timescale > 0, frames > 0 else { return [] }
        let (scaled, overflows) = frames.multipliedReportingOverflow(by: Int64(format.format.sampleRate))
        guard !overflows else { return [] }
        return [MP4EditSegment(firstSample: 0, table: PacketTableInfo(
            validFrames: scaled / Int64(track.timescale), primingFrames: 0, remainderFrames: 0))]
    }
}
