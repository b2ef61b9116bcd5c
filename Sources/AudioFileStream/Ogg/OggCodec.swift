/// What a header packet did for a codec's mapping.
enum OggHeaderStep: Equatable {
    /// Taken; more header packets follow.
    case needsMore
    /// Taken, and it was the last: audio packets follow.
    case complete
    /// Not a header but the first audio packet (a mapping that does not count its headers).
    case audio
    /// Not a header this codec can read: the logical stream cannot be decoded.
    case invalid
}

/// One codec's Ogg mapping: what its header packets say and how many PCM frames each audio packet holds. The
/// granule position of every mapping here counts PCM frames at the stream's rate, so it checks the counts.
protocol OggCodec {
    /// Reads the identification header, the first packet of a logical stream; nil when it is not this codec's.
    init?(identification packet: UnsafeRawBufferPointer)

    /// Takes the next header packet, in stream order, after the identification header.
    mutating func take(header packet: UnsafeRawBufferPointer) -> OggHeaderStep

    /// The tags a header packet holds (comments, a picture), within `limits`, as metadata of source `vorbis`;
    /// nil for other headers.
    func metadata(in header: UnsafeRawBufferPointer, limits: MetadataLimits) -> Metadata?

    /// The packets' format, known from the identification header.
    var format: AudioStreamBasicDescription { get }
    /// What a decoder needs besides the packets (FFmpeg's extradata), once every header is taken.
    var magicCookie: [UInt8] { get }
    /// Frames the decoder drops at the stream's start (Opus pre-skip).
    var primingFrames: Int { get }

    /// The frames an audio packet decodes to, or nil when it is not a valid audio packet of this stream.
    mutating func frames(ofAudio packet: UnsafeRawBufferPointer) -> Int?

    /// The packets that follow do not follow the previous ones.
    mutating func resetForDiscontinuity()
}

/// The codecs Ogg streams are read for, tried in turn on a logical stream's first packet.
enum OggCodecs {
    static func codec(identifiedBy packet: UnsafeRawBufferPointer) -> (any OggCodec)? {
        if let opus = OpusCodec(identification: packet) { return opus }
        if let vorbis = VorbisCodec(identification: packet) { return vorbis }
        if let flac = OggFLACCodec(identification: packet) { return flac }
        return nil
    }

    /// A name for the codec of an ignored logical stream, from its first packet's signature.
    static func name(identifiedBy packet: UnsafeRawBufferPointer) -> String {
        let signatures: [(StaticString, Int, String)] = [
            ("theora", 1, "Theora video"), ("fishead", 0, "Skeleton"), ("Speex", 0, "Speex"), ("OpusHead", 0, "Opus"),
            ("vorbis", 1, "Vorbis"), ("FLAC", 1, "FLAC"), ("CELT", 0, "CELT"), ("daala", 1, "Daala video"),
        ]
        return signatures.first { packet.matches($0.0, at: $0.1) }?.2 ?? "unknown"
    }
}
