import AudioFileStream

/// Edits a file's tags in its own key space without touching its audio: the file's bytes go into an `EditedFile`
/// that keeps every byte the edit does not change.
public enum TagEditor {
    /// The file `bytes` of type `fileType` (as the parser read it), with `edits` applied to its tags; `current`
    /// is its common keys as the parser read them, from which keys written together with those set are kept, and
    /// `audioEnd` where its last packet ends as the parser read it: tags after the audio are looked for only from
    /// there, so that bytes the parser reads as packets stay packets.
    ///
    /// MPEG audio and ADTS take a leading ID3v2 tag (version 2.4 when new, else the version found; an ID3v1
    /// trailer has the keys named cleared), MP4 iTunes items, Ogg and FLAC Vorbis comments (FLAC's artwork in
    /// PICTURE blocks), WAVE `LIST/INFO` and an `id3 ` chunk, AIFF an `ID3 ` chunk.
    /// - Throws: `TagEditError` for a file type whose tags are not edited, a raw key of another key space, a
    ///   bad value, or a file damaged where its tags are.
    public static func edit(_ bytes: UnsafeRawBufferPointer, fileType: AudioFileType, current: NormalizedTags,
                            audioEnd: Int, edits: TagEdits) throws -> EditedFile {
        switch fileType {
        case .mp3, .mp2, .mp1, .adts: try leadingID3(bytes, current: current, audioEnd: audioEnd, edits: edits)
        case .flac: try FLACTagEdit.edit(bytes, current: current, edits: edits)
        case .ogg: try OggTagEdit.edit(bytes, current: current, edits: edits)
        case .wave, .aiff, .aifc: try ChunkTagEdit.edit(bytes, current: current, edits: edits)
        case .m4a, .mpeg4, .m4b: try MP4TagEdit.edit(bytes, current: current, edits: edits)
        default: throw TagEditError.unsupportedFile("the tags of \(fileType.rawValue) files are not edited")
        }
    }

    /// The ID3v2 tag at the start of an MPEG audio or ADTS file edited, or one made before the audio; an APEv2
    /// tag and an ID3v1 trailer at its end have the keys named cleared.
    private static func leadingID3(_ bytes: UnsafeRawBufferPointer, current: NormalizedTags, audioEnd: Int,
                                   edits: TagEdits) throws -> EditedFile {
        try edits.checkRawKeys(allowed: [.id3], in: "MPEG audio and ADTS")
        let length = try ID3v2TagEdit.length(of: bytes)
        var tag = try length.map { _ in try ID3v2TagEdit(tag: bytes) } ?? ID3v2TagEdit()
        try tag.apply(edits, current: current)
        let trailingStart = max(length ?? 0, audioEnd)
        let trailer = ID3v1TagEdit.edited(bytes, from: trailingStart, edits: edits)
        let trailersStart = bytes.count - (trailer?.count ?? 0)
        let ape = try APEv2TagEdit.edited(bytes, endingAt: trailersStart, from: trailingStart, edits: edits)
        return EditedFile(pieces: [.bytes(tag.frames.isEmpty ? [] : try tag.tag()),
                                   .copy((length ?? 0)..<(ape?.range.lowerBound ?? trailersStart)), .bytes(ape?.tag ?? []),
                                   .bytes(trailer ?? [])])
    }
}
