import AudioFileStream
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
    var position = 0
    var resumesAfterSkip = false
    while position < bytes.count {
        if let skip = skips.first(where: { $0.contains(position) }) {
            position = skip.upperBound
            resumesAfterSkip = true
            continue
        }
        let nextSkip = skips.map(\.lowerBound).filter { $0 > position }.min() ?? bytes.count
        let end = min(position + chunkSize, nextSkip)
        try stream.parse(Array(bytes[position..<end]), discontinuity: resumesAfterSkip,
                         offset: resumesAfterSkip ? Int64(position) : nil)
        resumesAfterSkip = false
        position = end
    }
    try stream.finish()
    return decoded
}
