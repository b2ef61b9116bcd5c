/// What a stream reports, synchronously and in stream order, while it parses.
public enum AudioFileStreamEvent {
    /// A property became known or changed, with its new value.
    case property(AudioFileStreamPropertyID, AudioFileStreamPropertyValue)
    /// Whole packets, valid only during the callback.
    case packets(PacketBatch)
    /// A tag found in the stream.
    case metadata(MetadataEvent)
    /// Bytes were dropped: the input said so, or the parser skipped what was not audio.
    case discontinuity(Discontinuity)
    /// Something in the stream is wrong or left out without costing a byte of the audio followed.
    case warning(StreamWarning)
}

/// A tag and where it was found.
public struct MetadataEvent: Sendable {
    /// The absolute stream offset of the tag's first byte.
    public let offset: Int64
    public let metadata: Metadata
}

/// Bytes that were dropped from the stream.
public struct Discontinuity: Equatable, Sendable {
    /// Why bytes were dropped.
    public enum Reason: String, Sendable {
        /// The caller flagged the input as not following the previous bytes.
        case input
        /// The parser skipped bytes that were not a confirmed packet or tag.
        case resync
        /// The caller's source connected again: the bytes come from a new connection.
        case reconnect
        /// A whole frame that cannot be cut into packets of its format was left out (an ADTS frame of several
        /// raw data blocks: their boundaries are not in the stream).
        case unsupportedFrame
        /// The caller's composition went on to its next segment: a new file, or a time range of one, starts
        /// (`markNewFile(reason:)`), and the PacketTableInfo that follows says how to trim it.
        case newSegment
    }

    /// The absolute stream offset where parsing continues.
    public let offset: Int64
    /// How many bytes were dropped before `offset`.
    public let skippedBytes: Int64
    public let reason: Reason
}

/// A fault the parser noticed and worked around without dropping audio bytes: the packets stay as counted.
public struct StreamWarning: Equatable, Sendable {
    public enum Kind: String, Sendable {
        /// A container's position stamp (an Ogg granule position) disagrees with the frames the packets hold;
        /// the packets' count is kept.
        case positionMismatch
        /// Another multiplexed stream (an Ogg logical stream or an MP4 track other than the audio followed) is
        /// ignored; said once per stream.
        case otherStreamIgnored
        /// A header states sizes or totals the stream does not keep to (a FLAC STREAMINFO); the stream's own
        /// framing is followed.
        case headerMismatch
    }

    /// The absolute stream offset of what the warning is about.
    public let offset: Int64
    public let kind: Kind
    /// One line for a person: what was found and what was done.
    public let message: String

    public init(offset: Int64, kind: Kind, message: String) {
        self.offset = offset
        self.kind = kind
        self.message = message
    }
}
