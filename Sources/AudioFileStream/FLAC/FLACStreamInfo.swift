/// A FLAC STREAMINFO block's 34-byte body (RFC 9639 §8.2): what the encoder says of the whole stream. Its
/// sizes are a promise the frames may break (a rewritten or hand-made file); the parser follows the frames.
public struct FLACStreamInfo: Equatable, Sendable {
    /// The body's length in bytes.
    public static let length = 34

    public let minimumBlockSize: Int
    public let maximumBlockSize: Int
    /// In bytes; 0 when not known.
    public let minimumFrameSize: Int
    /// In bytes; 0 when not known.
    public let maximumFrameSize: Int
    public let sampleRate: Int
    public let channelCount: Int
    public let bitsPerSample: Int
    /// Samples per channel in the stream; 0 when not known.
    public let totalSamples: Int64
    /// The MD5 of the decoded samples (16 bytes).
    public let md5: [UInt8]
    /// The body as stored: FLAC's magic cookie (FFmpeg's extradata for FLAC).
    public let bytes: [UInt8]

    /// Reads the first 34 bytes of `body`; nil when there are fewer.
    public init?(_ body: UnsafeRawBufferPointer) {
        guard body.count >= Self.length else { return nil }
        minimumBlockSize = body.bigEndianInteger(at: 0, count: 2)
        maximumBlockSize = body.bigEndianInteger(at: 2, count: 2)
        minimumFrameSize = body.bigEndianInteger(at: 4, count: 3)
        maximumFrameSize = body.bigEndianInteger(at: 7, count: 3)
        // 20 bits of rate, 3 of channels - 1, 5 of bits per sample - 1, 36 of total samples.
        let packed = body.bigEndianInteger(at: 10, count: 8)
        sampleRate = packed >> 44
        channelCount = (packed >> 41 & 0x07) + 1
        bitsPerSample = (packed >> 36 & 0x1F) + 1
        totalSamples = Int64(packed & 0xF_FFFF_FFFF)
        md5 = Array(body[18..<34])
        bytes = Array(body[0..<Self.length])
    }
}
