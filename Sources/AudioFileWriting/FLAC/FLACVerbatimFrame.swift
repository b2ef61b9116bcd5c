import AudioFileStream

/// A FLAC frame holding samples as they are (VERBATIM subframes, RFC 9639 §9.2.4): how a cut makes the part of
/// a frame it keeps, losslessly, where a FLAC file can state no trim. It states the rate and depth as the frame
/// it replaces does, so that it keeps to the file's format, and numbers its first sample 0 with a variable
/// block size (`FLACWriter` numbers it in the file).
public enum FLACVerbatimFrame {
    /// The frame of `samples` (interleaved, each channel independent), taking its rate and depth codes from
    /// `source`, a whole frame.
    /// - Throws: `WriteError.unsupportedFormat` when `source` is no FLAC frame, or the block is empty or
    ///   longer than 65,535 frames.
    public static func frame(of samples: [Int32], channels: Int, bitsPerSample: Int,
                             like source: UnsafeRawBufferPointer) throws -> [UInt8] {
        let frames = samples.count / max(channels, 1)
        guard let header = FLACFrameHeader(bytes: source, at: 0), header.channelCount == channels,
              (1...0xFFFF).contains(frames), (4...32).contains(bitsPerSample) else {
            throw WriteError.unsupportedFormat("no FLAC frame of \(frames) frames can be made like this one")
        }
        // The rate's own bytes follow the block size's (§9.1.3): 1 for code 12, 2 for 13 and 14.
        let blockSizeCode = Int(source[2] >> 4), rateCode = Int(source[2] & 0x0F)
        let blockSizeBytes = blockSizeCode == 6 ? 1 : blockSizeCode == 7 ? 2 : 0
        let rateBytes = rateCode == 12 ? 1 : rateCode == 13 || rateCode == 14 ? 2 : 0
        let rateStart = 4 + header.numberLength + blockSizeBytes
        var frame: [UInt8] = [0xFF, 0xF9, 0x70 | UInt8(rateCode), UInt8(channels - 1) << 4 | source[3] & 0x0E, 0]
        frame.append(bigEndian: UInt64(frames - 1), count: 2)
        frame += source[rateStart..<rateStart + rateBytes]
        frame.append(frame.withUnsafeBytes { FrameCRC.crc8($0) })
        var bits = BitWriter()
        for channel in 0..<channels {
            bits.write(0x02, count: 8)  // zero bit, VERBATIM (0b000001), no wasted bits
            for index in stride(from: channel, to: samples.count, by: channels) {
                bits.write(UInt64(UInt32(bitPattern: samples[index])), count: bitsPerSample)
            }
        }
        frame += bits.bytes
        let crc = frame.withUnsafeBytes { FrameCRC.crc16(0, $0, from: 0, to: $0.count) }
        frame.append(bigEndian: UInt64(crc), count: 2)
        return frame
    }
}

/// Bits written most significant first, the last byte padded with zeros.
private struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var used = 8

    mutating func write(_ value: UInt64, count: Int) {
        for bit in stride(from: count - 1, through: 0, by: -1) {
            if used == 8 {
                bytes.append(0)
                used = 0
            }
            bytes[bytes.count - 1] |= UInt8(value >> bit & 1) << (7 - used)
            used += 1
        }
    }
}
