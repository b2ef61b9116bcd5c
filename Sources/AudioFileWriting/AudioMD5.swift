/// The MD5 of a stream's decoded samples as FLAC's STREAMINFO states it (RFC 9639 §8.2): each sample a signed
/// little-endian integer of its bit depth rounded up to whole bytes, interleaved, in stream order.
///
/// Fed with the samples `AudioDecoding` gives, 32-bit floats in [-1, 1]: exact for depths up to 24 bits, as a
/// float holds every such sample; a 32-bit stream's digest is not.
public struct AudioMD5 {
    public let bitsPerSample: Int
    private var md5 = MD5()
    /// The bytes of a batch's samples, reused from batch to batch.
    private var bytes: [UInt8] = []

    /// A digest of samples of `bitsPerSample` bits (4…32).
    public init(bitsPerSample: Int) {
        precondition((4...32).contains(bitsPerSample), "FLAC samples have 4 to 32 bits")
        self.bitsPerSample = bitsPerSample
    }

    /// Adds interleaved samples, as floats scaled to [-1, 1] (the integer divided by 2^(bits - 1)).
    public mutating func update(_ samples: UnsafeBufferPointer<Float>) {
        let bytesPerSample = (bitsPerSample + 7) / 8
        let scale = Double(Int64(1) << (bitsPerSample - 1))
        let largest = Double((Int64(1) << (bitsPerSample - 1)) - 1)
        bytes.removeAll(keepingCapacity: true)
        bytes.reserveCapacity(samples.count * bytesPerSample)
        for sample in samples {
            // A decoder never gives NaN for FLAC; should one, it must not trap the conversion.
            let scaled = sample.isFinite ? (Double(sample) * scale).rounded() : 0
            let value = Int32(scaled.clamped(to: -scale...largest))
            for byte in 0..<bytesPerSample { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * byte))) }
        }
        bytes.withUnsafeBytes { md5.update($0) }
    }

    /// The 16-byte digest of the samples so far.
    public var digest: [UInt8] { md5.digest }
}

private extension Double {
    func clamped(to range: ClosedRange<Double>) -> Double {
        min(max(self, range.lowerBound), range.upperBound)
    }
}
