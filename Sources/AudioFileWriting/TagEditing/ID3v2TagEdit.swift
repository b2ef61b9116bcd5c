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

    /// The tag at the start of `bytes`.
    /// - Throws: `TagEditError` when `bytes` do not hold a whole tag, for a 2.2 tag, or for a frame that runs
    ///   past the tag.
    init(tag bytes: UnsafeRawBufferPointer) throws {
        guard let length = Self.length(of: bytes), length <= bytes.count else {
            throw TagEditError.damaged("the ID3v2 tag runs past the end of the file")
        }
        guard let version = ID3v2TagWriter.Version(rawValue: bytes[3]) else {
            throw TagEditError.unsupportedFile("an ID3v2.\(bytes[3]) tag is not edited: only 2.3 and 2.4 are")
        }
        writer = ID3v2TagWriter(version: version)
        let flags = bytes[5]
        var body = Array(bytes[10..<10 + Self.synchsafe(bytes, at: 6)])
        if version == .v23, flags & 0x80 != 0 { body = Self.resynchronised(body) }
        var offset = 0
        if flags & 0x40 != 0, body.count >= 4 {
            // 2.3 states the extended header's size without its 4 bytes; 2.4 with them, synchsafe.
            offset = version == .v23 ? 4 + Int(Self.bigEndian(body, at: 0)) : body.withUnsafeBytes { Self.synchsafe($0, at: 0) }
            // Else no frame would be read, and the edit would drop them all.
            guard offset <= body.count else { throw TagEditError.damaged("the ID3v2 extended header runs past its tag") }
        }
        frames = []
        while offset + 10 <= body.count, body[offset] != 0 {
            let size = version == .v24 ? body.withUnsafeBytes { Self.synchsafe($0, at: offset + 4) }
                : Int(Self.bigEndian(body, at: offset + 4))
            let id = String(decoding: body[offset..<offset + 4], as: UTF8.self)
            guard offset + 10 + size <= body.count else {
                throw TagEditError.damaged("the ID3v2 frame \(id) runs past the end of its tag")
            }
            let frame = Array(body[offset..<offset + 10 + size])
            frames.append(TagField(identity: Self.identity(id: id, frame: frame), bytes: frame))
            offset += 10 + size
        }
    }

    /// The length of the ID3v2 tag at the start of `bytes` (header, body and footer), or nil when none is there.
    static func length(of bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count >= 10, bytes.starts(with: "ID3".utf8) else { return nil }
        return 10 + synchsafe(bytes, at: 6) + (bytes[3] == 4 && bytes[5] & 0x10 != 0 ? 10 : 0)
    }

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

    private static func synchsafe(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int {
        (0..<4).reduce(0) { $0 << 7 | Int(bytes[offset + $1] & 0x7F) }
    }

    private static func bigEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 << 8 | UInt32(bytes[offset + $1]) }
    }

    /// Undoes unsynchronisation (ID3v2.3 §5): every 0xFF 0x00 was 0xFF.
    private static func resynchronised(_ body: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(body.count)
        for (index, byte) in body.enumerated() where !(byte == 0 && index > 0 && body[index - 1] == 0xFF) {
            result.append(byte)
        }
        return result
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
