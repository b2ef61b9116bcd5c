import AudioFileStream

/// Edits the tags of a file of chunks: WAVE's `LIST/INFO` and `id3 ` chunks (RIFF, little-endian sizes) or
/// AIFF's `ID3 ` chunk (big-endian). Every other chunk is copied as it is; a tag chunk the file lacks is added
/// before the sound chunk (`data`, `SSND`), where a reader of a stream meets it before the audio and where a
/// sound chunk that runs to the end of the file (a size of 0, as a pipe writer leaves it) cannot take it for
/// samples, else after the last chunk; one left empty is dropped. A file with several chunks of one kind has each edited, so
/// that the tags of every one are kept.
enum ChunkTagEdit {
    static func edit(_ bytes: UnsafeRawBufferPointer, current: NormalizedTags, edits: TagEdits) throws -> EditedFile {
        guard bytes.count >= 12 else { throw TagEditError.damaged("the file is too short for a RIFF or FORM header") }
        let magic = String(decoding: bytes[0..<4], as: UTF8.self)
        guard magic == "RIFF" || magic == "FORM" else {
            throw TagEditError.unsupportedFile("\(magic) files are not edited: WAVE (RIFF) and AIFF are")
        }
        let isWAVE = magic == "RIFF"
        try edits.checkRawKeys(allowed: [.id3], in: isWAVE ? "WAVE" : "AIFF")
        var pieces: [EditedFile.Piece] = []
        /// Where each tag chunk was among the pieces, and its body.
        var id3: [(index: Int, body: UnsafeRawBufferPointer)] = []
        var info: [(index: Int, body: UnsafeRawBufferPointer)] = []
        var soundIndex: Int?
        // Chunks that fill the form to the end its size states end it: what follows (an ID3v1 tag some taggers
        // append) is no chunk, and is copied after it as it is. A size that lies is passed, as readers do.
        let formSize: UInt32 = bytes.loadLittleEndian(at: 4)
        let formEnd = 8 + Int(isWAVE ? formSize : formSize.byteSwapped)
        var offset = 12
        while offset + 8 <= bytes.count, offset != formEnd {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let field: UInt32 = bytes.loadLittleEndian(at: offset + 4)
            let size = Int(isWAVE ? field : field.byteSwapped)
            let bodyStart = offset + 8
            guard size <= bytes.count - bodyStart else {
                throw TagEditError.damaged("the chunk '\(id)' at \(offset) runs past the end of the file")
            }
            let body = UnsafeRawBufferPointer(rebasing: bytes[bodyStart..<bodyStart + size])
            if id.uppercased() == "ID3 " {
                id3.append((pieces.count, body))
                pieces.append(.bytes([]))
            } else if isWAVE, id == "LIST", body.starts(with: "INFO".utf8) {
                info.append((pieces.count, body))
                pieces.append(.bytes([]))
            } else {
                if soundIndex == nil, id == (isWAVE ? "data" : "SSND") { soundIndex = pieces.count }
                pieces.append(.copy(offset..<bodyStart + size))
                if size % 2 == 1 { pieces.append(.bytes([0])) }
            }
            offset = bodyStart + size + size % 2
        }
        var tagChunks: [(index: Int?, chunk: [UInt8])] = []
        for found in orOneToAdd(id3) {
            var tag = try found.map { try ID3v2TagEdit(tag: $0.body) } ?? ID3v2TagEdit()
            try tag.apply(edits, current: current)
            tagChunks.append((found?.index, tag.frames.isEmpty ? [] : chunk(isWAVE ? "id3 " : "ID3 ", try tag.tag(), isWAVE: isWAVE)))
        }
        for found in isWAVE ? orOneToAdd(info) : [] {
            let fields = try RIFFInfoSpace.fields(inList: found?.body)
            let edited = try edits.apply(to: fields, in: RIFFInfoSpace(), current: current)
            tagChunks.append((found?.index, edited.isEmpty ? [] : chunk("LIST", Array("INFO".utf8) + edited.flatMap(\.bytes), isWAVE: true)))
        }
        for case (let index?, let chunk) in tagChunks { pieces[index] = .bytes(chunk) }
        let added = tagChunks.filter { $0.index == nil }.map { EditedFile.Piece.bytes($0.chunk) }
        pieces.insert(contentsOf: added, at: soundIndex ?? pieces.count)
        let total = 4 + length(of: pieces)
        guard total <= UInt32.max else { throw TagEditError.unsupportedFile("the file would pass the 4 GiB a \(magic) size can say") }
        return EditedFile(pieces: [.bytes(Array(bytes[0..<4]) + size(total, isWAVE: isWAVE) + bytes[8..<12])] + pieces
            + [.copy(min(offset, bytes.count)..<bytes.count)])
    }

    /// The bytes `pieces` make.
    private static func length(of pieces: [EditedFile.Piece]) -> Int {
        pieces.reduce(0) { total, piece in
            switch piece {
            case .bytes(let bytes): total + bytes.count
            case .copy(let range), .oggPages(let range, _, _): total + range.count
            }
        }
    }

    /// The tag chunks `found`, or nil for one to add when there is none.
    private static func orOneToAdd<Found>(_ found: [Found]) -> [Found?] {
        found.isEmpty ? [nil] : found
    }

    /// A chunk: its id, its size, `body`, and a pad byte after an odd body.
    static func chunk(_ id: String, _ body: [UInt8], isWAVE: Bool) -> [UInt8] {
        Array(id.utf8) + size(body.count, isWAVE: isWAVE) + body + (body.count % 2 == 1 ? [0] : [])
    }

    private static func size(_ value: Int, isWAVE: Bool) -> [UInt8] {
        isWAVE ? [UInt8](littleEndian: UInt32(value)) : [UInt8](bigEndian: UInt32(value))
    }
}

/// RIFF INFO sub-chunks as an edit's key space, for the common keys `RIFFInfoWriter` writes; raw keys name none.
struct RIFFInfoSpace: TagFieldSpace {
    var rawSpace: TagKeySpace? { nil }

    func fields(for tags: NormalizedTags) throws -> [TagField] {
        guard let chunk = RIFFInfoWriter.chunk(tags) else { return [] }
        return try chunk.withUnsafeBytes { try Self.fields(inList: UnsafeRawBufferPointer(rebasing: $0[8...])) }
    }

    func identity(ofRaw id: String) -> String { id }

    func field(raw id: String, value: String) throws -> TagField {
        throw TagEditError.unsupportedKey("RIFF INFO fields have no raw key")
    }

    /// The sub-chunks of a `LIST` body of type `INFO`, each whole with its pad byte.
    static func fields(inList body: UnsafeRawBufferPointer?) throws -> [TagField] {
        guard let body else { return [] }
        var fields: [TagField] = []
        var offset = 4
        while offset + 8 <= body.count {
            let size = Int(body.loadLittleEndian(at: offset + 4) as UInt32)
            guard size <= body.count - offset - 8 else { throw TagEditError.damaged("a LIST/INFO field runs past its list") }
            let end = min(body.count, offset + 8 + size + size % 2)
            fields.append(TagField(identity: String(decoding: body[offset..<offset + 4], as: UTF8.self),
                                   bytes: Array(body[offset..<end]) + (end - offset - 8 < size + size % 2 ? [0] : [])))
            offset = end
        }
        return fields
    }
}
