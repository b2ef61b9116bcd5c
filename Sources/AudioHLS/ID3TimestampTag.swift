import AudioFileWriting

/// The ID3v2.4 tag that leads packed audio (RFC 8216bis §3.1.3): a PRIV frame owned by
/// `com.apple.streaming.transportStreamTimestamp` whose data is the first sample's time on the 90 kHz MPEG-2
/// clock, 33 bits in a big-endian eight-byte number; and what plays from there, when it changed there.
enum ID3TimestampTag {
    private static let owner = Array("com.apple.streaming.transportStreamTimestamp".utf8) + [0]
    /// The MPEG-2 presentation clock: 90 kHz, 33 bits, wrapping.
    private static let clockRate: Int64 = 90000
    private static let clockMask: Int64 = (1 << 33) - 1

    /// The tag for a sample `frames` frames into the stream at `sampleRate` Hz, saying `nowPlaying` when given.
    static func tag(frames: Int64, sampleRate: Double, nowPlaying: HLSNowPlaying?) -> [UInt8] {
        let ticks = Int64((Double(frames) * Double(clockRate) / sampleRate).rounded(.down)) & clockMask
        let frame = ID3v2TagWriter().privateFrame(owner: owner, data: [UInt8](bigEndian: UInt64(ticks)))
        // A PRIV frame and a title are far below the 256 MiB an ID3v2 size can say.
        return (try? ID3v2TagWriter().tag(frames: frame + (nowPlaying?.id3Frames ?? []))) ?? []
    }
}
