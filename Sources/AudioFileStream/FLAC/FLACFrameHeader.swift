/// A FLAC frame header (RFC 9639 §9.1), decoded from the bytes at a position: sync 0xFFF8 or 0xFFF9, block
/// size, sample rate, channel assignment, bit depth, the coded frame or sample number, the uncommon block size
/// and rate that follow it, and the CRC-8 over all of it. Bytes whose CRC-8 fails, or that use a reserved or
/// forbidden code, are no header.
public struct FLACFrameHeader: Equatable, Sendable {
    /// How the channels are coded (§9.1.3); every kind decodes to the same channels.
    public enum ChannelAssignment: Equatable, Sendable {
        /// 1…8 channels coded apart.
        case independent(Int)
        case leftSide, sideRight, midSide
    }

    /// The longest a header can be: 4 fixed bytes, a 7-byte number, 16-bit block size and rate, the CRC-8.
    public static let maximumLength = 16
    /// The shortest: 4 fixed bytes, a 1-byte number, the CRC-8.
    public static let minimumLength = 6

    /// True for a variable-blocksize stream, whose headers carry sample numbers; a fixed one's carry frame numbers.
    public let isVariableBlockSize: Bool
    /// Samples per channel in the frame: 1…65535.
    public let blockSize: Int
    /// Samples per second, or nil when the header defers to STREAMINFO (rate code 0).
    public let sampleRate: Int?
    public let channelAssignment: ChannelAssignment
    /// Bits per sample, or nil when the header defers to STREAMINFO (bit depth code 0).
    public let bitsPerSample: Int?
    /// The frame number (fixed block size) or the number of the frame's first sample (variable).
    public let number: Int64
    /// The coded number's bytes, from the header's fifth byte on.
    public let numberLength: Int
    /// The header's bytes, CRC-8 included.
    public let length: Int

    /// The header at `position`, or nil when the bytes there are not one or end before it does.
    public init?(bytes: UnsafeRawBufferPointer, at position: Int) {
        guard position + Self.minimumLength <= bytes.count, bytes[position] == 0xFF,
              bytes[position + 1] & 0xFE == 0xF8 else { return nil }
        isVariableBlockSize = bytes[position + 1] & 0x01 != 0
        let blockSizeCode = Int(bytes[position + 2] >> 4), rateCode = Int(bytes[position + 2] & 0x0F)
        let channelCode = Int(bytes[position + 3] >> 4), bitsCode = Int(bytes[position + 3] >> 1 & 0x07)
        // Codes RFC 9639 reserves or forbids (rate 0b1111 would fool a sync search), and the reserved bit.
        guard blockSizeCode != 0, rateCode != 0x0F, channelCode <= 0x0A, bitsCode != 0x03,
              bytes[position + 3] & 0x01 == 0 else { return nil }
        guard let (number, numberLength) = Self.codedNumber(in: bytes, at: position + 4,
                                                            isSampleNumber: isVariableBlockSize) else { return nil }
        self.number = number
        self.numberLength = numberLength
        var next = position + 4 + numberLength
        switch blockSizeCode {
        case 0x01: blockSize = 192
        case 0x02...0x05: blockSize = 144 << blockSizeCode
        case 0x06, 0x07:
            let width = blockSizeCode == 0x06 ? 1 : 2
            guard next + width <= bytes.count else { return nil }
            // A stored 0xFFFF would mean 65536, which STREAMINFO cannot hold: RFC 9639 §9.1.6 forbids it.
            blockSize = bytes.bigEndianInteger(at: next, count: width) + 1
            guard blockSize <= 0xFFFF else { return nil }
            next += width
        default: blockSize = 1 << blockSizeCode
        }
        switch rateCode {
        case 0x00: sampleRate = nil
        case 0x0C...0x0E:
            let width = rateCode == 0x0C ? 1 : 2
            guard next + width <= bytes.count else { return nil }
            let value = bytes.bigEndianInteger(at: next, count: width)
            sampleRate = value * [1000, 1, 10][rateCode - 0x0C]
            next += width
        default: sampleRate = Self.sampleRates[rateCode]
        }
        switch channelCode {
        case 0x08: channelAssignment = .leftSide
        case 0x09: channelAssignment = .sideRight
        case 0x0A: channelAssignment = .midSide
        default: channelAssignment = .independent(channelCode + 1)
        }
        bitsPerSample = Self.bitDepths[bitsCode]
        guard next < bytes.count,
              FrameCRC.crc8(UnsafeRawBufferPointer(rebasing: bytes[position..<next])) == bytes[next] else { return nil }
        length = next + 1 - position
    }

    public var channelCount: Int {
        if case .independent(let count) = channelAssignment { count } else { 2 }
    }

    /// True when this header's frame comes right after `previous`'s in one stream: same blocking strategy, and
    /// the frame number one more or the sample number `previous.blockSize` more. Rate, channels and bit depth
    /// may change (§9.1). Early encoders (flake 0.11) wrote variable block sizes under the fixed flag with
    /// sample numbers, so a fixed header may also go on by the block size.
    public func follows(_ previous: FLACFrameHeader) -> Bool {
        guard isVariableBlockSize == previous.isVariableBlockSize else { return false }
        return number == previous.number + Int64(previous.blockSize)
            || (!isVariableBlockSize && number == previous.number + 1)
    }

    /// The longest frame of this header's block size, channels and bit depth: every subframe verbatim, as an
    /// encoder falls back to, with a side channel's extra bit. `assumedBits` stands for a depth deferred to
    /// STREAMINFO.
    public func maximumFrameLength(assumedBits: Int = 32) -> Int {
        Self.verbatimFrameLength(blockSize: blockSize, channels: channelCount, bits: bitsPerSample ?? assumedBits)
    }

    /// Header, per channel a subframe header (with wasted bits) and the samples at one bit more than the
    /// depth, byte padding and the CRC-16.
    static func verbatimFrameLength(blockSize: Int, channels: Int, bits: Int) -> Int {
        maximumLength + channels * (6 + (blockSize * (bits + 1) + 7) / 8) + 2
    }

    /// §9.1.2, codes 1…11.
    private static let sampleRates = [0, 88200, 176400, 192000, 8000, 16000, 22050, 24000, 32000, 44100, 48000, 96000]
    /// §9.1.4: code 0 defers to STREAMINFO, 3 is reserved (refused before this is read).
    private static let bitDepths: [Int?] = [nil, 8, 12, nil, 16, 20, 24, 32]

    /// The frame or sample number coded like UTF-8 (§9.1.5) at `position`, and its length: 1 to 6 bytes for a
    /// frame number (31 bits), up to 7 for a sample number (36 bits).
    private static func codedNumber(in bytes: UnsafeRawBufferPointer, at position: Int,
                                    isSampleNumber: Bool) -> (Int64, Int)? {
        guard position < bytes.count else { return nil }
        let first = bytes[position]
        let leadingOnes = (~first).leadingZeroBitCount
        guard leadingOnes != 1, leadingOnes <= (isSampleNumber ? 7 : 6) else { return nil }
        let length = max(leadingOnes, 1)
        guard position + length <= bytes.count else { return nil }
        var value = Int64(first & (0x7F >> leadingOnes))
        for index in 1..<length {
            let byte = bytes[position + index]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | Int64(byte & 0x3F)
        }
        return (value, length)
    }
}
