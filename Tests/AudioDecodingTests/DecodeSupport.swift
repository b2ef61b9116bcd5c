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

/// Decodes with the decoder that picks a codec per DataFormat; `onPCM` sees each buffer as it comes.
func decodeAny(_ bytes: [UInt8], sampleFormat: PCMSampleFormat = .int16, chunkSize: Int = 4096,
               skips: [Range<Int>] = [], onPCM: @escaping (PCMBuffer) -> Void = { _ in }) throws -> Decoded {
    try decode(bytes, sampleFormat: sampleFormat, chunkSize: chunkSize, skips: skips) { sampleFormat, handler in
        StreamDecoder(sampleFormat: sampleFormat) { event in
            if case .pcm(let buffer) = event { onPCM(buffer) }
            handler(event)
        }
    }
}

/// Decodes to floats and converts the PCM to `target` with a resampler; `formats` lists the output's formats, each
/// where it first appears.
func decodeResampled(_ bytes: [UInt8], to target: PCMTarget) throws -> Decoded {
    var resampled = Decoded()
    let resampler = PCMResampler(target: target)
    let write = { (buffer: PCMBuffer) in
        if resampled.formats.last?.isLaidOut(as: buffer.format) != true { resampled.formats.append(buffer.format) }
        resampled.record(.pcm(buffer))
    }
    var failure: Error?
    let decoded = try decodeAny(bytes, sampleFormat: .float32, chunkSize: 1000, onPCM: { buffer in
        do { try resampler.convert(buffer, body: write) } catch { failure = failure ?? error }
    })
    resampler.finish(body: write)
    if let failure { throw failure }
    resampled.errors = decoded.errors
    resampled.unsupportedFormats = decoded.unsupportedFormats
    return resampled
}
