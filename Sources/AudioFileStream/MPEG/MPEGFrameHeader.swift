/// The four-byte header of an MPEG audio frame (ISO/IEC 11172-3 2.4.2.3, 13818-3 2.4.2.3, and the MPEG-2.5
/// extension), decoded by table lookups with no state. Every packet of an MPEG stream starts with one.
public struct MPEGFrameHeader: Equatable, Sendable {
    public enum Version: Equatable, Sendable { case mpeg1, mpeg2, mpeg25 }
    public enum ChannelMode: Equatable, Sendable { case stereo, jointStereo, dualChannel, mono }

    /// The header as read, big-endian.
    public let word: UInt32

    /// Decodes a header, or nil when the sync word is missing or the version, layer, bitrate or sample rate
    /// holds a reserved value. (A reserved emphasis is accepted, as decoders do: conformance streams use it; a
    /// resync refuses it: see `holdsReservedValue`.)
    @inline(__always)
    public init?(_ word: UInt32) {
        guard word & 0xFFE0_0000 == 0xFFE0_0000,
              (word >> 19) & 3 != 1,  // reserved version
              (word >> 17) & 3 != 0,  // reserved layer
              (word >> 12) & 0xF != 0xF,  // bad bitrate
              (word >> 10) & 3 != 3  // reserved sample rate
        else { return nil }
        self.word = word
    }

    /// Reads a header from the four bytes at `position`; the caller guarantees they are there.
    public init?(bytes: UnsafeRawBufferPointer, at position: Int) {
        self.init(bytes.bigEndianUInt32(at: position))
    }

    public var version: Version {
        switch (word >> 19) & 3 {
        case 3: .mpeg1
        case 2: .mpeg2
        default: .mpeg25
        }
    }

    /// 1, 2 or 3.
    public var layer: Int { 4 - Int((word >> 17) & 3) }
    /// True when a CRC-16 follows the header (the protection bit is 0).
    public var hasCRC: Bool { (word >> 16) & 1 == 0 }
    public var bitrateIndex: Int { Int((word >> 12) & 0xF) }
    public var isFreeFormat: Bool { bitrateIndex == 0 }
    public var hasPadding: Bool { (word >> 9) & 1 == 1 }

    public var channelMode: ChannelMode {
        switch (word >> 6) & 3 {
        case 0: .stereo
        case 1: .jointStereo
        case 2: .dualChannel
        default: .mono
        }
    }

    /// The mode extension bits: in joint stereo, which subbands (Layers I, II) or which coding (Layer III).
    public var modeExtension: Int { Int((word >> 4) & 3) }

    public var channelCount: Int { channelMode == .mono ? 1 : 2 }

    public var sampleRate: Int {
        let base = switch (word >> 10) & 3 {
        case 0: 44100
        case 1: 48000
        default: 32000
        }
        switch version {
        case .mpeg1: return base
        case .mpeg2: return base / 2
        case .mpeg25: return base / 4
        }
    }

    /// Bits per second, or nil for free format.
    public var bitRate: Int? {
        isFreeFormat ? nil : Self.kilobitsPerSecond(row: tableRow, index: bitrateIndex) * 1000
    }

    /// PCM frames per channel in the frame.
    public var samplesPerFrame: Int {
        switch layer {
        case 1: 384
        case 2: 1152
        default: version == .mpeg1 ? 1152 : 576
        }
    }

    /// Bytes in one padding slot: 4 for Layer I, 1 otherwise.
    public var slotSize: Int { layer == 1 ? 4 : 1 }

    /// The frame's length in bytes, header included, or nil for free format (where the distance between
    /// syncs tells it).
    public var frameLength: Int? {
        guard let bitRate else { return nil }
        return frameLength(bitRate: bitRate)
    }

    /// The length a frame of this format has at `bitRate`, with this header's padding.
    func frameLength(bitRate: Int) -> Int {
        let slots = samplesPerFrame / 8 / slotSize * bitRate / sampleRate
        return (slots + (hasPadding ? 1 : 0)) * slotSize
    }

    /// Bytes of Layer III side information after the header (and CRC), where Xing/Info tags start.
    public var sideInfoSize: Int {
        switch (version, channelMode) {
        case (.mpeg1, .mono): 17
        case (.mpeg1, _): 32
        case (_, .mono): 9
        default: 17
        }
    }

    /// The largest frame this format can have: the top bitrate with padding (for free format, the largest size
    /// the specs let a decoder expect).
    var maximumFrameLength: Int {
        let topRate = Self.kilobitsPerSecond(row: tableRow, index: 14) * 1000
        let freeFormatTop = layer == 1 ? 448_000 : 640_000
        let slots = samplesPerFrame / 8 / slotSize * (isFreeFormat ? freeFormatTop : topRate) / sampleRate
        return (slots + 1) * slotSize
    }

    /// True when `other` continues the same stream: version, layer, sample rate and free-format-ness agree
    /// (bitrate, padding and the channel mode may change from frame to frame: ISO's streams switch between
    /// mono and stereo).
    @inline(__always)
    func isCompatible(with other: MPEGFrameHeader) -> Bool {
        word & Self.formatMask == other.word & Self.formatMask && isFreeFormat == other.isFreeFormat
    }

    /// True when `other` has the same DataFormat: compatible, with as many channels.
    @inline(__always)
    func hasSameFormat(as other: MPEGFrameHeader) -> Bool {
        isCompatible(with: other) && (channelMode == .mono) == (other.channelMode == .mono)
    }

    /// Version, layer and sample-rate bits.
    private static let formatMask: UInt32 = 0xFFFE_0C00

    private var tableRow: Int {
        switch (version, layer) {
        case (.mpeg1, 1): 0
        case (.mpeg1, 2): 1
        case (.mpeg1, _): 2
        case (_, 1): 3
        default: 4
        }
    }

    /// ISO/IEC 11172-3 Table 2.4.2.3 and 13818-3 Table 2.4.2.3, in kbit/s: one row of 15 bitrate indices per
    /// `tableRow`, flattened so a lookup is one bounds check.
    private static let kilobitsPerSecond: [Int] = [
        0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448,
        0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384,
        0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320,
        0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256,
        0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160,
    ]

    private static func kilobitsPerSecond(row: Int, index: Int) -> Int {
        kilobitsPerSecond[row * 15 + index]
    }
}
