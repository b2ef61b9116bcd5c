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

/// Whole packets in one stretch of the stream. The memory is the parser's or the caller's and is valid only
/// during the callback.
public struct PacketBatch {
    /// The bytes from the first packet's start to the last packet's end; framing between packets (such as ADTS
    /// headers) lies outside every description.
    public let bytes: UnsafeRawBufferPointer
    /// The format of these packets: the DataFormat announced last.
    public let format: AudioStreamBasicDescription
    /// One description per packet, offsets relative to `bytes`; nil only for constant-size packets (PCM).
    public let descriptions: UnsafeBufferPointer<AudioStreamPacketDescription>?
    /// The absolute stream offset of `bytes[0]`.
    public let streamOffset: Int64
    /// The index of the first packet in the batch, counted from the first packet of the stream.
    public let firstPacketIndex: Int64
    /// True when these packets do not follow the previous batch (input discontinuity, skipped junk or a dropped frame).
    public let followsDiscontinuity: Bool
    /// True for a batch of one packet that its container spread over the stream in pieces (an Ogg packet
    /// continued across pages): `bytes` are the packet assembled, a copy, and `streamOffset` is where its first
    /// piece starts; the bytes at that offset hold only that piece.
    public let isAssembled: Bool

    /// A batch over `bytes` as the parser makes them, or as a copy of one rebuilt by its receiver.
    public init(bytes: UnsafeRawBufferPointer, format: AudioStreamBasicDescription,
                descriptions: UnsafeBufferPointer<AudioStreamPacketDescription>?, streamOffset: Int64,
                firstPacketIndex: Int64, followsDiscontinuity: Bool, isAssembled: Bool) {
        self.bytes = bytes
        self.format = format
        self.descriptions = descriptions
        self.streamOffset = streamOffset
        self.firstPacketIndex = firstPacketIndex
        self.followsDiscontinuity = followsDiscontinuity
        self.isAssembled = isAssembled
    }

    /// The PCM frames the batch holds: the format's count per packet, or each packet's own where it varies.
    public var frameCount: Int64 {
        guard let descriptions else {
            return format.bytesPerPacket == 0 ? 0
                : Int64(bytes.count) / Int64(format.bytesPerPacket) * Int64(format.framesPerPacket)
        }
        // A format with a frame count gives it to every packet.
        if format.framesPerPacket != 0 { return Int64(descriptions.count) * Int64(format.framesPerPacket) }
        var frames: Int64 = 0
        for description in descriptions {
            frames += Int64(description.variableFramesInPacket > 0
                ? description.variableFramesInPacket : format.framesPerPacket)
        }
        return frames
    }
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
