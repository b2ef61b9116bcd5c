import AudioFileStream

/// Decodes a whole stream, whatever codecs it holds: a `PacketDecoder` that picks the decoder for each
/// DataFormat (libmpg123 for MPEG audio, libavcodec for the other codecs, sample conversion for PCM
/// containers). When a chained or spliced stream changes to a codec of another decoder, the old one outputs
/// what it holds and the new one takes over from that DataFormat. Packets of a format no decoder reads are
/// reported once (`.unsupportedFormat`) and left out.
public final class StreamDecoder: PacketDecoder {
    public let sampleFormat: PCMSampleFormat
    private let handler: (DecoderEvent) -> Void
    private var state = State.awaitingFormat

    /// What the packets of the current DataFormat go to.
    private enum State {
        case awaitingFormat
        case decoding(any PacketDecoder, Kind)
        /// No decoder reads this format.
        case undecodable(FourCharCode)
    }

    /// The decoders, one per family of formats.
    private enum Kind {
        case mpeg, codec, pcm

        init?(_ formatID: FourCharCode) {
            if MPEGDecoder.decodes(formatID) {
                self = .mpeg
            } else if CodecDecoder.decodes(formatID) {
                self = .codec
            } else if PCMDecoder.decodes(formatID) {
                self = .pcm
            } else {
                return nil
            }
        }
    }

    /// Whether some decoder reads packets of `formatID`.
    public static func decodes(_ formatID: FourCharCode) -> Bool {
        Kind(formatID) != nil
    }

    public init(sampleFormat: PCMSampleFormat = .float32, handler: @escaping (DecoderEvent) -> Void) {
        self.sampleFormat = sampleFormat
        self.handler = handler
    }

    public func consume(_ event: AudioFileStreamEvent) {
        if case .property(.dataFormat, .format(let format)) = event {
            do {
                try switchDecoder(to: format)
            } catch {
                handler(.error(error as? DecodeError ?? DecodeError("\(error)")))
            }
        }
        if case .decoding(let decoder, _) = state { decoder.consume(event) }
    }

    public func finish() {
        if case .decoding(let decoder, _) = state { decoder.finish() }
    }

    /// Keeps the decoder when it reads `format` too, else ends it and starts the one that does, or reports once
    /// that none does.
    private func switchDecoder(to format: AudioStreamBasicDescription) throws {
        let kind = Kind(format.formatID)
        switch (state, kind) {
        case (.decoding(_, let current), let kind?) where kind == current: return
        case (.undecodable(let formatID), nil) where formatID == format.formatID: return
        case (.decoding(let decoder, _), _): decoder.finish()
        default: break
        }
        state = .undecodable(format.formatID)
        switch kind {
        case .mpeg: state = .decoding(try MPEGDecoder(sampleFormat: sampleFormat, handler: handler), .mpeg)
        case .codec: state = .decoding(CodecDecoder(sampleFormat: sampleFormat, handler: handler), .codec)
        case .pcm: state = .decoding(PCMDecoder(sampleFormat: sampleFormat, handler: handler), .pcm)
        case nil: handler(.unsupportedFormat(format.formatID))
        }
    }
}
