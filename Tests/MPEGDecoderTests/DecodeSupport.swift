import AudioFileStream
import FixtureSupport
import MPEGDecoder

/// What decoding a whole input gave.
struct Decoded {
    var pcm: [UInt8] = []
    var formats: [PCMFormat] = []
    var errors: [DecodeError] = []

    var frames: Int { formats.last.map { pcm.count / $0.bytesPerFrame } ?? 0 }
}

/// Parses `bytes` in `chunkSize` chunks (leaving out `skips`, fed again as discontinuities) and decodes every
/// packet.
func decode(_ bytes: [UInt8], sampleFormat: PCMSampleFormat = .int16, chunkSize: Int = 4096,
            skips: [Range<Int>] = []) throws -> Decoded {
    var decoded = Decoded()
    let decoder = try MPEGDecoder(sampleFormat: sampleFormat) { event in
        switch event {
        case .format(let format): decoded.formats.append(format)
        case .pcm(let buffer): decoded.pcm.append(contentsOf: buffer.bytes)
        case .error(let error): decoded.errors.append(error)
        }
    }
    let stream = try AudioFileStream(handler: decoder.consume)
    try feed(bytes, to: stream, chunking: .fixed(chunkSize), skips: skips)
    return decoded
}
