import AudioFileStream

/// Writes one file of one container from a stream's packets, without re-encoding them.
///
/// Trims are counted in frames of the decoded output of the file's own packets: `leadingTrim` frames at its
/// start and `trailingTrim` at its end are not the file's audio (the encoder's priming and padding, or packets
/// given only so that the decoder starts right). A container that can state trims (`Container.statesTrims`)
/// writes them where its decoders look (a LAME tag, an edit list, an Opus pre-skip, granule positions); one
/// that cannot is only ever given 0.
public protocol ContainerWriter {
    /// Starts a file of `track`'s packets carrying `tags`, and writes everything before the first packet.
    /// - Throws: `WriteError.unsupportedFormat` when the container cannot hold the track, or the target's error.
    init(track: TrackFormat, tags: NormalizedTags, leadingTrim: Int64, to target: inout some WriteTarget) throws

    /// Appends one packet, which the decoder turns into `frames` frames.
    mutating func append(_ packet: UnsafeRawBufferPointer, frames: Int64, to target: inout some WriteTarget) throws

    /// Ends the file: writes what follows the last packet and rewrites what only the end knows (counts,
    /// totals, sizes, the end trim).
    mutating func finish(trailingTrim: Int64, to target: inout some WriteTarget) throws

    /// Starts another run of packets with trims of its own, in a container that plays each run through an edit
    /// of its own (`Container.statesEdits`, M4A): the run under way ends `trailingTrim` frames early, the next
    /// starts `leadingTrim` frames late. Any other container holds one run and is never asked.
    mutating func startSegment(leadingTrim: Int64, endingTheLastWith trailingTrim: Int64)
}

extension ContainerWriter {
    public mutating func startSegment(leadingTrim: Int64, endingTheLastWith trailingTrim: Int64) {
        assertionFailure("\(Self.self) states no edits")
    }
}
