/// What the movie box says of one track: its kind, its time base, its format when it is audio this library
/// reads, its sample table and its edit list.
struct MP4Track {
    var id = 0
    /// The media handler: `soun` for audio, `vide`, `text`, `subt`, `meta` …
    var handler: FourCharCode = "    "
    /// Ticks a second of the media's durations (mdhd).
    var timescale = 0
    /// The first sample entry's codec, as written.
    var codecName = "unknown"
    var format: MP4AudioFormat?
    var table = MP4SampleTable()
    /// Why the sample table cannot place the samples, when one of its boxes is cut short or its counts lie: the
    /// format and length the other boxes state still hold, as mutagen and AVAsset read them.
    var tableDamage: MP4Invalid?
    var editList: MP4EditList?

    /// True for an audio track this library frames.
    var isReadableAudio: Bool { handler == "soun" && format != nil && timescale > 0 }

    /// Reads one of a track's leaf boxes; others are left alone. A sample table box that is cut short or whose
    /// counts lie is kept as `tableDamage`.
    /// - Throws: `MP4Invalid` when another box is cut short or its counts lie.
    mutating func read(_ box: MP4Box, in bytes: UnsafeRawBufferPointer, depth: Int) throws(MP4Invalid) {
        var fields = MP4FieldReader(box, in: bytes)
        switch box.type {
        case "tkhd":
            // Creation and modification times (32 or 64 bits each), then the track id.
            let version = try fields.versionAndFlags().version
            try fields.skip(version == 1 ? 16 : 8)
            id = Int(try fields.uint32())
        case "mdhd":
            let version = try fields.versionAndFlags().version
            try fields.skip(version == 1 ? 16 : 8)
            timescale = Int(try fields.uint32())
        case "hdlr":
            _ = try fields.versionAndFlags()
            // ISO's pre_defined 0, or QuickTime's component type: the media handler (mhlr), not the data
            // handler (dhlr) QuickTime puts in minf as well.
            let component = try fields.uint32()
            let type = FourCharCode(rawValue: try fields.uint32())
            if component == 0 || component == FourCharCode("mhlr").rawValue { handler = type }
        case "stsd":
            codecName = MP4AudioFormat.codecName(ofDescriptions: box, in: bytes)
            // Other media's sample entries are laid out otherwise (the handler comes first, in mdia).
            if handler == "soun" { format = try MP4AudioFormat(descriptions: box, in: bytes, depth: depth) }
        case "elst":
            editList = try MP4EditList(box, in: bytes)
        default:
            do {
                try table.read(box, in: bytes)
            } catch {
                tableDamage = tableDamage ?? error
            }
        }
    }
}
