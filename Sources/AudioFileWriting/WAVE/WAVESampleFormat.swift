import AudioFileStream

/// How linear PCM samples of a DataFormat are stored in WAVE, and what changes on the way: WAVE's samples are
/// little-endian, and its 8-bit ones unsigned.
struct WAVESampleFormat: Equatable {
    enum Conversion: Equatable {
        case none
        /// Big-endian samples (AIFF, CAF) reversed byte by byte.
        case reverseBytes
        /// Signed 8-bit samples (AIFF) made unsigned.
        case flipSign
    }

    let channels: Int
    let sampleRate: UInt32
    /// Bytes a sample takes; its bits are the high `validBits` of them.
    let bytesPerSample: Int
    let validBits: Int
    let isFloat: Bool
    let conversion: Conversion

    var bytesPerFrame: Int { channels * bytesPerSample }

    /// The storage of `format`'s samples.
    /// - Throws: `WriteError.unsupportedFormat` for anything but interleaved integer (1 to 4 bytes) or float
    ///   (4 or 8 bytes) linear PCM whose sizes agree, with its bits in the high bits of their bytes.
    init(_ format: AudioStreamBasicDescription) throws {
        let flags = format.formatFlags
        isFloat = flags & LinearPCMFormatFlag.isFloat != 0
        let isPacked = flags & LinearPCMFormatFlag.isPacked != 0
        let isAlignedHigh = flags & LinearPCMFormatFlag.isAlignedHigh != 0
        let isSigned = flags & LinearPCMFormatFlag.isSignedInteger != 0
        channels = Int(format.channelsPerFrame)
        bytesPerSample = channels > 0 ? Int(format.bytesPerFrame) / channels : 0
        validBits = Int(format.bitsPerChannel)
        let fitsWAVE = format.formatID == AudioFormatID.linearPCM && format.framesPerPacket == 1
            && (1...0xFFFF).contains(channels) && format.bytesPerPacket == format.bytesPerFrame
            && bytesPerSample * channels == Int(format.bytesPerFrame)
            && (isFloat ? [4, 8].contains(bytesPerSample) && validBits == bytesPerSample * 8
                        : (1...4).contains(bytesPerSample) && (1...bytesPerSample * 8).contains(validBits))
            && (isPacked || isAlignedHigh) && (isFloat || isSigned || bytesPerSample == 1)
            && format.sampleRate >= 1 && format.sampleRate <= Double(UInt32.max)
            && format.sampleRate.rounded() == format.sampleRate
        guard fitsWAVE else {
            throw WriteError.unsupportedFormat("WAVE cannot hold \(format.channelsPerFrame) channels of "
                + "\(format.bitsPerChannel)-bit samples in \(format.bytesPerFrame)-byte frames (flags \(flags)) "
                + "at \(format.sampleRate) Hz")
        }
        sampleRate = UInt32(format.sampleRate)
        conversion = if bytesPerSample == 1 { isSigned ? .flipSign : .none }
            else if flags & LinearPCMFormatFlag.isBigEndian != 0 { .reverseBytes }
            else { .none }
    }

    /// Whether the `fmt ` chunk must be WAVE_FORMAT_EXTENSIBLE: more than two channels, more than 16 bits, or
    /// fewer bits than bytes hold.
    var isExtensible: Bool {
        channels > 2 || bytesPerSample > 2 || validBits != bytesPerSample * 8
    }

    /// The `fmt ` chunk's body: WAVEFORMAT for 16-bit PCM, WAVEFORMATEX for float, else WAVEFORMATEXTENSIBLE
    /// with `channelMask`.
    func formatChunkBody(channelMask: UInt32) -> [UInt8] {
        let tag: UInt64 = isFloat ? 0x0003 : 0x0001
        var body: [UInt8] = []
        body.append(littleEndian: isExtensible ? 0xFFFE : tag, count: 2)
        body.append(littleEndian: UInt64(channels), count: 2)
        body.append(littleEndian: UInt64(sampleRate), count: 4)
        body.append(littleEndian: UInt64(sampleRate) * UInt64(bytesPerFrame), count: 4)
        body.append(littleEndian: UInt64(bytesPerFrame), count: 2)
        body.append(littleEndian: UInt64(bytesPerSample * 8), count: 2)
        if isExtensible {
            body.append(littleEndian: 22, count: 2)
            body.append(littleEndian: UInt64(validBits), count: 2)
            body.append(littleEndian: UInt64(channelMask), count: 4)
            // KSDATAFORMAT_SUBTYPE_PCM or _IEEE_FLOAT: the format tag, then a fixed GUID tail.
            body.append(littleEndian: tag, count: 2)
            body += [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        } else if isFloat {
            body.append(littleEndian: 0, count: 2)
        }
        return body
    }

    /// `samples` as WAVE stores them, into `buffer` when they change.
    func stored(_ samples: UnsafeRawBufferPointer, using buffer: inout [UInt8],
                _ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        switch conversion {
        case .none:
            try body(samples)
        case .flipSign:
            buffer.removeAll(keepingCapacity: true)
            buffer.append(contentsOf: samples.lazy.map { $0 ^ 0x80 })
            try buffer.withUnsafeBytes(body)
        case .reverseBytes:
            buffer.removeAll(keepingCapacity: true)
            buffer.reserveCapacity(samples.count)
            let width = bytesPerSample
            for start in stride(from: 0, to: samples.count - width + 1, by: width) {
                for index in stride(from: start + width - 1, through: start, by: -1) { buffer.append(samples[index]) }
            }
            try buffer.withUnsafeBytes(body)
        }
    }
}
