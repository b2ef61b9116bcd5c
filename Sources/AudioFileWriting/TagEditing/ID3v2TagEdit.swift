import AudioFileStream

/// An ID3v2.3 or 2.4 tag's frames as stored, edited and written back in the tag's own version; frames the edit
/// does not name are kept byte for byte. A 2.3 tag unsynchronised as a whole is written without it (frames
/// need it only for players of the 1990s); an extended header and a footer are dropped, as their contents
/// describe the old tag.
struct ID3v2TagEdit {
    let writer: ID3v2TagWriter
    var frames: [TagField]

    /// A new, empty 2.4 tag.
    init() {
        writer = ID3v2TagWriter(version: .v24)
        frames = []
    }

    /// The tag at the start of `bytes`, read with the parser's own readers of the header, its sizes and its
    /// unsynchronisation: a tag the parser refuses is refused here for the same reason.
    /// - Throws: `TagEditError` when `bytes` do not hold a whole tag the parser reads, for a 2.2 tag, or for a
    ///   frame that runs past the tag.
    init(tag bytes: UnsafeRawBufferPointer) throws {
        guard let header = ID3v2Header(bytes) else { throw TagEditError.damaged(Self.refusedHeader) }
        guard header.wholeSize <= bytes.count else {
            throw TagEditError.damaged("the ID3v2 tag runs past the end of the file")
        }
        guard let version = ID3v2TagWriter.Version(rawValue: header.majorVersion) else {
            throw TagEditError.unsupportedFile("an ID3v2.\(header.majorVersion) tag is not edited: only 2.3 and 2.4 are")
        }
        writer = ID3v2TagWriter(version: version)
        var body = Array(bytes[header.bodyRange])
        if version == .v23, header.isUnsynchronised {
            var unsynchronisation = Unsynchronisation()
            body = body.withUnsafeBytes { unsynchronisation.decode($0) }
        }
        frames = try body.withUnsafeBytes { try Self.frames(in: $0, header: header) }
    }

    /// The frames of a tag's `body`, after its extended header, up to its padding.
    private static func frames(in body: UnsafeRawBufferPointer, header: ID3v2Header) throws -> [TagField] {
        var offset = 0
        if header.hasExtendedHeader, body.count >= 4 {
            // 2.3 states the extended header's size without its 4 bytes; 2.4 with them, syncsafe.
            offset = header.majorVersion == 3 ? 4 + body.bigEndianInteger(at: 0, count: 4)
                : body.syncsafeInteger(at: 0, count: 4) ?? body.count + 1
            // Else no frame would be read, and the edit would drop them all.
            guard offset <= body.count else { throw TagEditError.damaged("the ID3v2 extended header runs past its tag") }
        }
        var frames: [TagField] = []
        let headerLength = ID3v2FrameHeader.length(majorVersion: header.majorVersion)
        while offset + headerLength <= body.count, body[offset] != 0 {
            let id = String(decoding: body[offset..<offset + 4], as: UTF8.self)
            guard let frame = ID3v2FrameHeader(UnsafeRawBufferPointer(rebasing: body[offset..<offset + headerLength]),
                                               majorVersion: header.majorVersion) else {
                throw TagEditError.damaged("the ID3v2 frame id '\(id)' is not one of A-Z and 0-9: the frames end there")
            }
            guard offset + headerLength + frame.size <= body.count else {
                throw TagEditError.damaged("the ID3v2 frame \(id) runs past the end of its tag")
            }
            let bytes = Array(body[offset..<offset + headerLength + frame.size])
            frames.append(TagField(identity: identity(id: id, frame: bytes), bytes: bytes))
            offset += headerLength + frame.size
        }
        return frames
    }

    /// The length of the ID3v2 tag at the start of `bytes` (header, body and footer), or nil when none is there.
    /// - Throws: `TagEditError.damaged` for an `ID3` header the parser does not read as a tag's.
    static func length(of bytes: UnsafeRawBufferPointer) throws -> Int? {
        guard bytes.count >= ID3v2Header.length, bytes.starts(with: "ID3".utf8) else { return nil }
        guard let header = ID3v2Header(bytes) else { throw TagEditError.damaged(refusedHeader) }
        return header.wholeSize
    }

    private static let refusedHeader = "the file starts with an ID3v2 header whose version, revision or size is not valid "
        + "(the parser reads no tag there)"

    /// Applies `edits`, with `current` the file's common keys.
    mutating func apply(_ edits: TagEdits, current: NormalizedTags) throws {
        frames = try edits.apply(to: frames, in: ID3v2Space(writer: writer), current: current)
    }

    /// The whole tag.
    func tag() throws -> [UInt8] {
        try writer.tag(frames: frames.flatMap(\.bytes))
    }

    /// `TXXX`, `WXXX` and `COMM` frames are told apart by their descriptions; any other by its id.
    static func identity(id: String, frame: [UInt8]) -> String {
        let textStart = id == "COMM" ? 14 : 11
        guard ["TXXX", "WXXX", "COMM"].contains(id), frame.count >= textStart else { return id }
        let encoding = frame[10]
        var text = frame[textStart...]
        let wide = encoding == 1 || encoding == 2
        var end = text.startIndex
        while end < text.endIndex, text[end] != 0 || (wide && (end + 1 >= text.endIndex || text[end + 1] != 0)) {
            end += wide ? 2 : 1
        }
        text = text[..<min(end, text.endIndex)]
        let description: String
        switch encoding {
        case 0: description = String(text.map { Character(Unicode.Scalar($0)) })
        case 3: description = String(decoding: text, as: UTF8.self)
        default:
            var bigEndian = encoding == 2
            if text.starts(with: [0xFF, 0xFE]) || text.starts(with: [0xFE, 0xFF]) {
                bigEndian = text.first == 0xFE
                text = text.dropFirst(2)
            }
            let units = stride(from: text.startIndex, to: text.endIndex - 1, by: 2).map { index -> UInt16 in
                let (high, low) = bigEndian ? (text[index], text[index + 1]) : (text[index + 1], text[index])
                return UInt16(high) << 8 | UInt16(low)
            }
            description = String(decoding: units, as: UTF16.self)
        }
        return "\(id):\(description)"
    }
}

/// ID3v2 frames as an edit's key space: `id3:TIT2`, `id3:TXXX:MOOD`, `id3:COMM:DESCRIPTION`, `id3:WOAR` ….
struct ID3v2Space: TagFieldSpace {
    let writer: ID3v2TagWriter

    var rawSpace: TagKeySpace? { .id3 }

    func fields(for tags: NormalizedTags) throws -> [TagField] {
        let tag = try writer.tag(for: tags)
        guard !tag.isEmpty else { return [] }
        return try tag.withUnsafeBytes { try ID3v2TagEdit(tag: $0).frames }
    }

    /// 2.3 splits the date that 2.4's TDRC holds.
    func aliases(of identity: String) -> [String] {
        ["TDRC", "TYER"].contains(identity) ? ["TDRC", "TYER", "TDAT", "TIME"] : []
    }

    func identity(ofRaw id: String) -> String {
        let (frameID, description) = split(id)
        return ["TXXX", "WXXX", "COMM"].contains(frameID) ? "\(frameID):\(description ?? "")" : frameID
    }

    func field(raw id: String, value: String) throws -> TagField {
        let (frameID, description) = split(id)
        // ID3v2.4 §4: an id is four of A-Z and 0-9, which readers check to tell frames from padding.
        guard frameID.utf8.count == 4,
              frameID.utf8.allSatisfy({ (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }) else {
            throw TagEditError.unsupportedKey("id3:\(id): a frame id is four characters of A-Z and 0-9")
        }
        guard let frame = writer.frame(frameID, description: description, text: value) else {
            throw TagEditError.unsupportedKey("id3:\(id) is not a text frame: only T…, TXXX:…, COMM:… and W… frames are set")
        }
        return TagField(identity: identity(ofRaw: id), bytes: frame)
    }

    private func split(_ id: String) -> (String, String?) {
        guard let colon = id.firstIndex(of: ":") else { return (id, nil) }
        return (String(id[..<colon]), String(id[id.index(after: colon)...]))
    }
}
