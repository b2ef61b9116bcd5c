import AudioFileStream
import FixtureSupport
import AudioDecoding

/// What decoding a whole input gave.
struct Decoded {
    var pcm: [UInt8] = []
    var formats: [PCMFormat] = []
    var errors: [DecodeError] = []
    var unsupportedFormats: [FourCharCode] = []
    /// Frames of every format decoded.
    var frames = 0

    /// Keeps what a decoder reported.
    mutating func record(_ event: DecoderEvent) {
        switch event {
        case .format(let format): formats.append(format)
        case .pcm(let buffer):
            pcm.append(contentsOf: buffer.bytes)
            frames += buffer.frames
        case .error(let error): errors.append(error)
        case .unsupportedFormat(let formatID): unsupportedFormats.append(formatID)
        }
    }
}

/// Makes the decoder under test, handing its events to the handler.
typealias DecoderMaker = (PCMSampleFormat, @escaping (DecoderEvent) -> Void) throws -> any PacketDecoder

/// Parses `bytes` in `chunkSize` chunks (leaving out `skips`, fed again as discontinuities) and decodes every
/// packet with the decoder `makeDecoder` gives (libmpg123's unless told).
func decode(_ bytes: [UInt8], sampleFormat: PCMSampleFormat = .int16, chunkSize: Int = 4096,
            skips: [Range<Int>] = [], hint: AudioFileType? = nil,
            makeDecoder: DecoderMaker = { try MPEGDecoder(sampleFormat: $0, handler: $1) }) throws -> Decoded {
    var decoded = Decoded()
    let decoder = try makeDecoder(sampleFormat) { decoded.record($0) }
    let stream = try AudioFileStream(fileTypeHint: hint, handler: decoder.consume)
    try feed(bytes, to: stream, chunking: .fixed(chunkSize), skips: skips)
    decoder.finish()
    return decoded
}

/// Decodes with the decoder that picks a codec per DataFormat.
func decodeAny(_ bytes: [UInt8], sampleFormat: PCMSampleFormat = .int16, chunkSize: Int = 4096,
               skips: [Range<Int>] = []) throws -> Decoded {
    try decode(bytes, sampleFormat: sampleFormat, chunkSize: chunkSize, skips: skips) {
        StreamDecoder(sampleFormat: $0, handler: $1)
    }
}
