import AudioFileStream

/// AAC as `.aac`: an ID3v2.4 tag, then each access unit behind an ADTS header, as broadcast. ADTS cannot state
/// trims, so files partition the stream's units.
public struct ADTSWriter: ContainerWriter {
    private var header: ADTSHeader

    /// - Throws: `WriteError.unsupportedFormat` when ADTS cannot say the format (see `ADTSHeader`) or
    ///   `leadingTrim` is not 0; the target's error.
    public init(track: TrackFormat, tags: NormalizedTags, leadingTrim: Int64, to target: inout some WriteTarget) throws {
        guard track.format.formatID == AudioFormatID.mpeg4AAC, let header = ADTSHeader(format: track.format) else {
            throw WriteError.unsupportedFormat("ADTS cannot carry this \(track.format.codecName) format")
        }
        guard leadingTrim == 0 else { throw WriteError.unsupportedFormat("ADTS cannot trim frames at its start") }
        self.header = header
        try target.append(ID3v2TagWriter().tag(for: tags))
    }

    /// - Throws: `WriteError.unsupportedFormat` for a unit longer than an ADTS frame holds; the target's error.
    public mutating func append(_ packet: UnsafeRawBufferPointer, frames: Int64, to target: inout some WriteTarget) throws {
        guard header.describe(unitLength: packet.count) else {
            throw WriteError.unsupportedFormat("an access unit of \(packet.count) bytes is longer than ADTS frames")
        }
        try target.append(header.bytes)
        try target.append(packet)
    }

    /// Nothing follows the last frame.
    /// - Throws: `WriteError.unsupportedFormat` when `trailingTrim` is not 0.
    public mutating func finish(trailingTrim: Int64, to target: inout some WriteTarget) throws {
        guard trailingTrim == 0 else { throw WriteError.unsupportedFormat("ADTS cannot trim frames at its end") }
    }
}
