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
    mutating func convertFloats<Sample: FloatSample>(
        frames: Int, channels: Int, _ sample: (_ frame: Int, _ channel: Int) -> Sample,
        body: (UnsafeRawBufferPointer) -> Void
    ) {
        switch sampleFormat {
        case .int16:
            write(frames: frames, channels: channels, body: body) { Self.int16(sample($0, $1)) }
        case .float32:
            write(frames: frames, channels: channels, body: body) { sample($0, $1).float32 }
        }
    }

    /// libswresample's float to 16-bit conversion: scaled in the sample's own precision, rounded like
    /// `lrint` (to nearest, ties to even), clipped. Clipping first gives the same result and lets the rounding
    /// be one addition (`FloatSample.roundedInt16`), where `rounded(.toNearestOrEven)` would call libm's `rint`
    /// for every sample (x86-64's baseline has no rounding instruction) and `Int16(_:)` check the range again.
    private static func int16<Sample: FloatSample>(_ sample: Sample) -> Int16 {
        let scaled = sample * 32768
        if scaled.isNaN { return 0 }
        return Swift.max(-32768, Swift.min(32767, scaled)).roundedInt16
    }

    /// Converts the float samples of a decoded frame and gives `body` the interleaved result.
    mutating func convertFloats<Sample: FloatSample>(_ planes: FramePlanes, as _: Sample.Type,
                                                     body: (UnsafeRawBufferPointer) -> Void) {
        switch sampleFormat {
        case .int16: write(planes, body: body) { Self.int16($0 as Sample) }
        case .float32: write(planes, body: body) { ($0 as Sample).float32 }
        }
    }

    /// Converts the integer samples of a decoded frame, each made left-aligned in 32 bits by `leftAligned` (as
    /// `convertIntegers(frames:channels:_:body:)` takes them), and gives `body` the interleaved result.
    mutating func convertIntegers<Sample>(_ planes: FramePlanes, as _: Sample.Type,
                                          leftAligned: (Sample) -> Int32, body: (UnsafeRawBufferPointer) -> Void) {
        switch sampleFormat {
        case .int16: write(planes, body: body) { Int16(truncatingIfNeeded: leftAligned($0) >> 16) }
        case .float32: write(planes, body: body) { Float(leftAligned($0)) * (1 / 2_147_483_648) }
        }
    }

    /// Writes the frame's samples interleaved, plane by plane: each channel's samples are read in order
    /// from its own plane, with no per-sample choice of plane.
    private mutating func write<Sample, Output>(
        _ planes: FramePlanes, body: (UnsafeRawBufferPointer) -> Void, _ converted: (Sample) -> Output
    ) {
        let (frames, channels) = (planes.frames, planes.channels)
        let byteCount = frames * channels * MemoryLayout<Output>.stride
        if storage.count < byteCount { storage += repeatElement(0, count: byteCount - storage.count) }
        storage.withUnsafeMutableBytes { raw in
            let samples = raw.baseAddress!.assumingMemoryBound(to: Output.self)
            if planes.isPlanar {
                for channel in 0..<channels {
                    let plane = UnsafeRawPointer(planes.pointers[channel]!).assumingMemoryBound(to: Sample.self)
                    // Indices stay below the frame's sample count, which the buffer holds: no overflow check.
                    var index = channel
                    for frame in 0..<frames {
                        samples[index] = converted(plane[frame])
                        index &+= channels
                    }
                }
            } else {
                let plane = UnsafeRawPointer(planes.pointers[0]!).assumingMemoryBound(to: Sample.self)
                for index in 0..<frames * channels { samples[index] = converted(plane[index]) }
            }
            body(UnsafeRawBufferPointer(rebasing: raw[..<byteCount]))
        }
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

/// A float sample type decoders give (Float, Double), with the conversions `SampleConverter` needs written for the
/// concrete type: Swift's generic conversions between numeric types go through a slow path that examines the
/// value's exponent and significand, several times the cost of the conversion instruction.
protocol FloatSample: BinaryFloatingPoint {
    /// The value, within Int16's range, rounded to an integer by IEEE 754's default rounding (to nearest, ties
    /// to even). Adding 1.5 × 2^(significand bits) to a value of magnitude below 2^15 leaves a sum whose unit in
    /// the last place is 1, so the addition rounds, and the sum's low 16 bits are the rounded value in two's
    /// complement.
    var roundedInt16: Int16 { get }
    /// The value rounded to the nearest Float.
    var float32: Float { get }
}

extension Float: FloatSample {
    var roundedInt16: Int16 { Int16(truncatingIfNeeded: (self + 12_582_912).bitPattern) }
    var float32: Float { self }
}

extension Double: FloatSample {
    var roundedInt16: Int16 { Int16(truncatingIfNeeded: (self + 6_755_399_441_055_744).bitPattern) }
    var float32: Float { Float(self) }
}

/// Where a decoded frame's samples lie (libavcodec's `extended_data`): one plane a channel, or all channels
/// interleaved in the first; `frames` samples a channel.
struct FramePlanes {
    let pointers: UnsafePointer<UnsafeMutablePointer<UInt8>?>
    let isPlanar: Bool
    let frames: Int
    let channels: Int
}
