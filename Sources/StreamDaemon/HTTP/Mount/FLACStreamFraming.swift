import AudioFileStream
import AudioFileWriting

/// FLAC frames as a native FLAC stream: `fLaC`, the STREAMINFO block (the parser's cookie for FLAC) and a
/// VORBIS_COMMENT block rebuilt from the latest tags, then the frames as they are (each has its own sync code).
struct FLACStreamFraming: ListenerFraming {
    let contentType = "audio/flac"
    let header: [UInt8]?

    init?(streamInfo: [UInt8], comments: [RawTagField]) {
        guard streamInfo.count == 34 else { return nil }
        let commentBlock = VorbisCommentWriter.block(fields: comments)
        // Block headers: last-block flag and type (0 STREAMINFO, 4 VORBIS_COMMENT), then a 24-bit length.
        header = Array("fLaC".utf8) + [0, 0, 0, 34] + streamInfo + [0x80 | 4] + Self.uint24(commentBlock.count)
            + commentBlock
    }

    func frame(_ packet: UnsafeRawBufferPointer, endFrame: Int64) -> [UInt8]? { nil }

    private static func uint24(_ value: Int) -> [UInt8] {
        [UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
