import AudioFileStream

/// A Vorbis comment block (Vorbis I §5.2.1) as stored, edited and written back: its vendor string and comments
/// kept, but for those the edit names; the bytes after the comments (Vorbis' framing bit, Opus' binary data)
/// kept as they were.
struct VorbisCommentEdit {
    var vendor: String
    var comments: [TagField]
    /// What follows the comments in the packet or block.
    var trailer: [UInt8]

    /// The block that starts `bytes`, laid out as the parser reads it (`VorbisComment.Layout`).
    /// - Throws: `TagEditError.damaged` when a length runs past the end, or the count states more comments than
    ///   the block holds.
    init(block bytes: ArraySlice<UInt8>) throws {
        (vendor, comments, trailer) = try bytes.withUnsafeBytes { block in
            guard let layout = VorbisComment.Layout(block) else {
                throw TagEditError.damaged("the Vorbis comments run past their end")
            }
            let comments = layout.fields.map { TagField(identity: VorbisCommentSpace.identity(of: Array($0)), bytes: Array($0)) }
            return (String(decoding: layout.vendor, as: UTF8.self), comments, Array(block[layout.end...]))
        }
    }

    /// Applies `edits`; artwork goes into the comments only when `picturesInComments` (Ogg: FLAC files keep it
    /// in PICTURE blocks).
    mutating func apply(_ edits: TagEdits, current: NormalizedTags, picturesInComments: Bool) throws {
        comments = try edits.apply(to: comments, in: VorbisCommentSpace(), current: current,
                                   picturesIncluded: picturesInComments)
    }

    /// The block, with its trailer.
    var block: [UInt8] {
        VorbisCommentWriter.block(comments: comments.map { String(decoding: $0.bytes, as: UTF8.self) }, vendor: vendor)
            + trailer
    }
}

/// Vorbis comments as an edit's key space: `vorbis:MOOD`, any case, names every `MOOD=` comment.
struct VorbisCommentSpace: TagFieldSpace {
    var rawSpace: TagKeySpace? { .vorbis }

    func fields(for tags: NormalizedTags) throws -> [TagField] {
        VorbisCommentWriter.comments(of: tags).map { TagField(identity: Self.identity(of: Array($0.utf8)), bytes: Array($0.utf8)) }
    }

    func identity(ofRaw id: String) -> String {
        id.uppercased()
    }

    /// Taggers write comments as DESCRIPTION too.
    func aliases(of identity: String) -> [String] {
        identity == "COMMENT" ? ["DESCRIPTION"] : []
    }

    func field(raw id: String, value: String) throws -> TagField {
        // Vorbis I §5.2.3.1: a name is ASCII from 0x20 to 0x7D, '=' excepted.
        guard !id.isEmpty, id.unicodeScalars.allSatisfy({ (0x20...0x7D).contains($0.value) && $0 != "=" }) else {
            throw TagEditError.unsupportedKey("vorbis:\(id) is not a comment's name")
        }
        return TagField(identity: identity(ofRaw: id), bytes: Array("\(id)=\(value)".utf8))
    }

    static func identity(of comment: [UInt8]) -> String {
        String(decoding: comment.prefix { $0 != UInt8(ascii: "=") }, as: UTF8.self).uppercased()
    }
}
