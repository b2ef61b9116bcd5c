import AudioFileStream

/// Decodes a whole stream, whatever codecs it holds: a `PacketDecoder` that picks the decoder for each
/// DataFormat (libmpg123 for MPEG audio, libavcodec for the other codecs, sample conversion for PCM
/// containers). When a chained or spliced stream changes to a codec of another decoder, the old one outputs
/// what it holds and the new one takes over from that DataFormat. Packets of a format no decoder reads are
/// reported once (`.unsupportedFormat`) and left out.
public final class StreamDecoder: PacketDecoder {
    public let sampleFormat: PCMSampleFormat
    private let handler: (DecoderEvent) -> Void
    /// The decoder of the current DataFormat, and which kind it is.
    private var current: (decoder: any PacketDecoder, kind: Kind)?

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
        current?.decoder.consume(event)
    }

    public func finish() {
        current?.decoder.finish()
    }

    /// Keeps the decoder when it reads `format` too, else ends it and starts the one that does (none, when no
    /// decoder reads it).
    private func switchDecoder(to format: AudioStreamBasicDescription) throws {
        let kind = Kind(format.formatID)
        guard kind != current?.kind else { return }
        current?.decoder.finish()
        current = nil
        switch kind {
        case .mpeg: current = (try MPEGDecoder(sampleFormat: sampleFormat, handler: handler), .mpeg)
        case .codec: current = (CodecDecoder(sampleFormat: sampleFormat, handler: handler), .codec)
        case .pcm: current = (PCMDecoder(sampleFormat: sampleFormat, handler: handler), .pcm)
        case nil: handler(.unsupportedFormat(format.formatID))
        }
    }
}
