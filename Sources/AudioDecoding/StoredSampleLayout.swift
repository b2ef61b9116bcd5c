import AudioFileStream

/// How a PCM container stores its samples, from the ASBD of its DataFormat.
struct StoredSampleLayout {
    enum Encoding {
        /// Integers, their significant bits in the high bits of `bytesPerSample` bytes.
        case integer
        case float32
        case float64
        /// One G.711 byte a sample, expanded through the table.
        case companded([Int16])
    }

    let encoding: Encoding
    let channels: Int
    let bytesPerSample: Int
    let isBigEndian: Bool
    let isSigned: Bool

    /// The samples as ffmpeg's decoders of this layout give them: 8- and 16-bit integers (G.711 expands to
    /// 16 bits), 32-bit ones for wider integers, or floats.
    var codecSamples: CodecSamples {
        switch encoding {
        case .integer: bytesPerSample <= 2 ? .shortInteger : .wideInteger
        case .companded: .shortInteger
        case .float32, .float64: .float
        }
    }

    /// Nil for formats other than linear PCM and G.711, and for sample sizes they do not have.
    init?(_ format: AudioStreamBasicDescription) {
        channels = Int(format.channelsPerFrame)
        guard channels > 0, format.bytesPerFrame > 0, Int(format.bytesPerFrame) % channels == 0 else { return nil }
        bytesPerSample = Int(format.bytesPerFrame) / channels
        let flags = format.formatFlags
        isBigEndian = flags & LinearPCMFormatFlag.isBigEndian != 0
        isSigned = flags & LinearPCMFormatFlag.isSignedInteger != 0
        switch format.formatID {
        case AudioFormatID.uLaw where bytesPerSample == 1: encoding = .companded(G711.uLaw)
        case AudioFormatID.aLaw where bytesPerSample == 1: encoding = .companded(G711.aLaw)
        case AudioFormatID.linearPCM where flags & LinearPCMFormatFlag.isFloat != 0:
            switch bytesPerSample {
            case 4: encoding = .float32
            case 8: encoding = .float64
            default: return nil
            }
        case AudioFormatID.linearPCM where (1...4).contains(bytesPerSample): encoding = .integer
        default: return nil
        }
    }

    /// The integer sample at `offset`, left-aligned in 32 bits and signed (an unsigned sample's midpoint is 0).
    func integer(in bytes: UnsafeRawBufferPointer, at offset: Int) -> Int32 {
        let value = Int32(bitPattern: bits(in: bytes, at: offset, count: bytesPerSample) << (32 - 8 * bytesPerSample))
        return isSigned ? value : value ^ Int32.min
    }

    /// The four bytes at `offset` in the stored byte order, as a number.
    func bits(in bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        bits(in: bytes, at: offset, count: 4)
    }

    private func bits(in bytes: UnsafeRawBufferPointer, at offset: Int, count: Int) -> UInt32 {
        var value: UInt32 = 0
        for index in 0..<count {
            let byte = UInt32(bytes[offset + (isBigEndian ? index : count - 1 - index)])
            value = value << 8 | byte
        }
        return value
    }
}
