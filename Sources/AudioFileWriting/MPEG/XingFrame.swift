import AudioFileStream

/// The frame that leads a Layer III file: a frame of silence by its header, holding a Xing (VBR) or Info (CBR)
/// tag with the frame and byte counts and a 100-entry table of contents, then a LAME tag with the encoder delay
/// and padding, the music's length and CRC, and the tag's own CRC (as LAME lays them out, and FFmpeg and
/// mpg123 read them).
struct XingFrame {
    /// The frame's header: the stream's own (version, layer, rate, channel mode), without CRC or padding.
    let header: UInt32
    /// The frame's length in bytes.
    let length: Int
    /// Where the Xing tag starts: after the header and the side information.
    private let tagOffset: Int

    /// What the Xing tag counts: the whole file's frames and bytes, this frame's included.
    struct Counts {
        var frames: UInt32
        var bytes: UInt32
        /// Byte position of each percent of the file's duration, in 1/256 of `bytes`.
        var tableOfContents: [UInt8]
    }

    /// What the LAME tag states.
    struct LAMEFields {
        /// Frames the encoder put before the audio: decoders skip these and the 529 of their own delay.
        var delay: Int
        /// Frames after the audio, the decoders' 529 included, which decoders drop at the end.
        var padding: Int
        /// The bytes from this frame's start to the last audio frame's end.
        var musicLength: UInt32
        var musicCRC: UInt16
    }

    /// The Xing tag, its fields and the LAME tag: what the frame must hold.
    private static let tagsLength = 8 + 4 + 4 + 100 + 4 + 36

    /// The frame for a stream whose first frame has `streamHeader`, at that frame's bit rate when its frame
    /// holds the tags, else at the lowest that does; nil for free format, whose frames have no stated length.
    init?(streamHeader: MPEGFrameHeader) {
        guard let header = streamHeader.silentFrameHeader(holding: Self.tagsLength), let length = header.frameLength
        else { return nil }
        self.header = header.word
        self.length = length
        tagOffset = 4 + header.sideInfoSize
    }

    /// The frame's bytes: an Info tag for a constant bit rate, else Xing; the counts when known; the LAME tag
    /// when trims can be said.
    func bytes(isConstantBitRate: Bool, counts: Counts?, lame: LAMEFields?) -> [UInt8] {
        var frame = [UInt8](repeating: 0, count: length)
        var position = 0
        func put(_ bytes: [UInt8]) {
            frame.replaceSubrange(position..<position + bytes.count, with: bytes)
            position += bytes.count
        }
        func put32(_ value: UInt32) { put([24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }) }
        put32(header)
        position = tagOffset
        put(Array((isConstantBitRate ? "Info" : "Xing").utf8))
        // Frames, bytes, table of contents, quality.
        put32(counts == nil ? 0 : 0xF)
        if let counts {
            put32(counts.frames)
            put32(counts.bytes)
            put(counts.tableOfContents)
            put32(0)
        }
        guard let lame else { return frame }
        let lameStart = position
        put(Array(Self.encoder.utf8))
        // Tag revision, VBR method, lowpass, peak, gains, flags and bit rate are left unknown (0).
        position = lameStart + 21
        let trims = lame.delay << 12 | lame.padding
        put([UInt8(trims >> 16 & 0xFF), UInt8(trims >> 8 & 0xFF), UInt8(trims & 0xFF)])
        // Misc, MP3 gain, preset and surround: unknown.
        position = lameStart + 28
        put32(lame.musicLength)
        put([UInt8(lame.musicCRC >> 8), UInt8(lame.musicCRC & 0xFF)])
        let tagCRC = LAMECRC.of(frame[0..<position])
        put([UInt8(tagCRC >> 8), UInt8(tagCRC & 0xFF)])
        return frame
    }

    /// The encoder's short version string; FFmpeg honours the delay and padding only behind `LAME`, `Lavf` or
    /// `Lavc`, and this is LAME's tag layout.
    private static let encoder = "LAME3.100"
}
