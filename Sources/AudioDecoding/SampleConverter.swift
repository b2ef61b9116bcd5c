/// Converts decoded or stored samples to the output's interleaved encoding exactly as libswresample does, so
/// the output matches `ffmpeg -f s16le` and `-f f32le`: integers scale by their width to floats in [-1, 1);
/// floats round to the nearest 16-bit integer (ties to even) and clip; wider integers keep their top 16 bits.
struct SampleConverter {
    let sampleFormat: PCMSampleFormat
    /// The converted samples, reused from one call to the next.
    private var storage: [UInt8] = []

    init(sampleFormat: PCMSampleFormat) {
        self.sampleFormat = sampleFormat
    }

    /// Converts integer samples, each given left-aligned in 32 bits (a 16-bit sample in the top half, an
    /// unsigned 8-bit one made signed in the top byte), and gives `body` the interleaved result.
    mutating func convertIntegers(
        frames: Int, channels: Int, _ sample: (_ frame: Int, _ channel: Int) -> Int32,
        body: (UnsafeRawBufferPointer) -> Void
    ) {
        switch sampleFormat {
        case .int16:
            write(frames: frames, channels: channels, body: body) { Int16(truncatingIfNeeded: sample($0, $1) >> 16) }
        case .float32:
            write(frames: frames, channels: channels, body: body) { Float(sample($0, $1)) * (1 / 2_147_483_648) }
        }
    }

    /// Converts float samples and gives `body` the interleaved result.
    mutating func convertFloats<Sample: BinaryFloatingPoint>(
        frames: Int, channels: Int, _ sample: (_ frame: Int, _ channel: Int) -> Sample,
        body: (UnsafeRawBufferPointer) -> Void
    ) {
        switch sampleFormat {
        case .int16:
            write(frames: frames, channels: channels, body: body) { Self.int16(sample($0, $1)) }
        case .float32:
            write(frames: frames, channels: channels, body: body) { Float(sample($0, $1)) }
        }
    }

    /// libswresample's float to 16-bit conversion: scaled in the sample's own precision, rounded like
    /// `lrint`, clipped.
    private static func int16<Sample: BinaryFloatingPoint>(_ sample: Sample) -> Int16 {
        let scaled = (sample * 32768).rounded(.toNearestOrEven)
        if scaled.isNaN { return 0 }
        return Int16(Swift.max(-32768, Swift.min(32767, scaled)))
    }

    private mutating func write<Output>(
        frames: Int, channels: Int, body: (UnsafeRawBufferPointer) -> Void,
        _ converted: (_ frame: Int, _ channel: Int) -> Output
    ) {
        let byteCount = frames * channels * MemoryLayout<Output>.stride
        if storage.count < byteCount { storage += repeatElement(0, count: byteCount - storage.count) }
        storage.withUnsafeMutableBytes { raw in
            let samples = raw.bindMemory(to: Output.self)
            var index = 0
            for frame in 0..<frames {
                for channel in 0..<channels {
                    samples[index] = converted(frame, channel)
                    index += 1
                }
            }
            body(UnsafeRawBufferPointer(rebasing: raw[..<byteCount]))
        }
    }
}
