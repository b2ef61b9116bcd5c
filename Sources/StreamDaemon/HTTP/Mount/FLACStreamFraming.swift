import AudioFileStream
import AudioFileWriting

/// FLAC frames as a native FLAC stream: the FLAC writer's header (`fLaC`, the STREAMINFO block, which is the
/// parser's cookie for FLAC, and a VORBIS_COMMENT block rebuilt from the latest tags), then the frames as they
/// are (each has its own sync code).
struct FLACStreamFraming: ListenerFraming {
    let contentType = "audio/flac"
    let header: [UInt8]?

    init?(streamInfo: [UInt8], comments: [RawTagField]) {
        guard streamInfo.count == FLACStreamInfo.length else { return nil }
        let commentBlock = FLACMetadataBlock(type: .vorbisComment, body: VorbisCommentWriter.block(fields: comments))
        header = FLACMetadataBlock.streamHeader(streamInfo: streamInfo, followedBy: [commentBlock])
    }

    func frame(_ packet: UnsafeRawBufferPointer, endFrame: Int64) -> [UInt8]? { nil }
}
