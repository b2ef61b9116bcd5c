import AudioFileStream

/// AC-3 and E-AC-3 as `.ac3` and `.eac3`: the syncframes as they are, with no tag (players read none there).
/// The files cannot state trims, so they partition the stream's frames.
public struct AC3FramesWriter: ContainerWriter {
    /// - Throws: `WriteError.unsupportedFormat` for another codec or a `leadingTrim` other than 0.
    public init(track: TrackFormat, tags: NormalizedTags, leadingTrim: Int64, to target: inout some WriteTarget) throws {
        guard [AudioFormatID.ac3, AudioFormatID.enhancedAC3].contains(track.format.formatID) else {
            throw WriteError.unsupportedFormat("AC-3 files cannot hold \(track.format.codecName) audio")
        }
        guard leadingTrim == 0 else { throw WriteError.unsupportedFormat("AC-3 files cannot trim frames at their start") }
    }

    /// - Throws: `WriteError.unsupportedFormat` when `packet` does not start with a syncframe's sync word.
    public mutating func append(_ packet: UnsafeRawBufferPointer, frames: Int64, to target: inout some WriteTarget) throws {
        guard packet.count >= 2, packet[0] == 0x0B, packet[1] == 0x77 else {
            throw WriteError.unsupportedFormat("a packet that is not an AC-3 syncframe")
        }
        try target.append(packet)
    }

    /// - Throws: `WriteError.unsupportedFormat` when `trailingTrim` is not 0.
    public mutating func finish(trailingTrim: Int64, to target: inout some WriteTarget) throws {
        guard trailingTrim == 0 else { throw WriteError.unsupportedFormat("AC-3 files cannot trim frames at their end") }
    }
}
