/// The Xing (VBR) or Info (CBR) tag that LAME and other encoders put in the first frame of a Layer III stream:
/// frame and byte counts, a 100-entry seek table and, from LAME, encoder delay and padding.
struct XingHeader: Equatable {
    /// True for `Info`: the encoder wrote a constant-bitrate stream.
    let isInfo: Bool
    let frames: UInt32?
    let bytes: UInt32?
    /// Byte position of each percent of the stream, in 1/256 of `bytes`.
    let toc: [UInt8]?
    let lame: LAMETag?

    /// Reads the tag from a whole frame, or nil when the frame is audio.
    init?(frame: UnsafeRawBufferPointer, header: MPEGFrameHeader) {
        // After the side information; some encoders also skip the CRC, LAME does not.
        func isTag(at offset: Int) -> Bool { frame.matches("Xing", at: offset) || frame.matches("Info", at: offset) }
        let afterSideInfo = 4 + header.sideInfoSize
        guard let start = isTag(at: afterSideInfo) ? afterSideInfo : isTag(at: afterSideInfo + 2) ? afterSideInfo + 2 : nil
        else { return nil }
        isInfo = frame.matches("Info", at: start)
        guard start + 8 <= frame.count else { return nil }
        let flags = frame.bigEndianUInt32(at: start + 4)
        var position = start + 8
        func field(_ flag: UInt32, size: Int) -> Int? {
            guard flags & flag != 0, position + size <= frame.count else { return nil }
            defer { position += size }
            return position
        }
        frames = field(1, size: 4).map { frame.bigEndianUInt32(at: $0) }
        bytes = field(2, size: 4).map { frame.bigEndianUInt32(at: $0) }
        toc = field(4, size: 100).map { Array(frame[$0..<$0 + 100]) }
        _ = field(8, size: 4)  // VBR quality
        lame = LAMETag(frame: frame, at: position)
    }

    /// The table of contents as packet→byte points from the first audio packet, when frames, bytes and TOC
    /// are all present. The TOC counts from the tag's own frame, `tagFrameLength` bytes before the audio.
    func seekTable(tagFrameLength: Int) -> SeekTable? {
        guard let frames, let bytes, let toc, frames > 0 else { return nil }
        let points = toc.enumerated().map { percent, position in
            (packet: Int64(frames) * Int64(percent) / 100,
             byte: max(Int64(bytes) * Int64(position) / 256 - Int64(tagFrameLength), 0))
        }
        return SeekTable(points: points + [(Int64(frames), Int64(bytes) - Int64(tagFrameLength))])
    }
}
