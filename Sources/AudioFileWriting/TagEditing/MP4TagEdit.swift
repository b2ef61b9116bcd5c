import AudioFileStream

/// Edits an MP4 file's iTunes metadata (`moov/udta/meta/ilst`), making the boxes it lacks. Items the edit does not
/// name are kept byte for byte, as are every other box and the media data; the movie's chunk offsets that point
/// past it, and a fragmented file's absolute offsets, are moved by what it grew or shrank, so a movie before its
/// media data stays there.
enum MP4TagEdit {
    static func edit(_ bytes: UnsafeRawBufferPointer, current: NormalizedTags, edits: TagEdits) throws -> EditedFile {
        try edits.checkRawKeys(allowed: [.itunes], in: "MP4")
        // Only the movie is copied: the media data, however large, stays in the input's bytes.
        guard let moov = try MP4Boxes.children(of: bytes).first(where: { $0.type == "moov" }) else {
            throw TagEditError.damaged("the MP4 file has no movie box (moov)")
        }
        var movie = Array(bytes[moov.range])
        let userData = try MP4Boxes.children(of: movie[moov.headerSize...]).first { $0.type == "udta" }
        let newUserData = try editedUserData(userData.map { movie[$0.range] }, current: current, edits: edits)
        // The movie is written back with a 32-bit size: a 64-bit one's 8 bytes go too.
        let shift = Int64(newUserData.count) - Int64(userData?.range.count ?? 0) - Int64(moov.headerSize - 8)
        if shift != 0 { try MP4Boxes.moveChunkOffsets(in: &movie, from: Int64(moov.range.upperBound), by: shift) }
        // The user data edited is replaced where it was (readers take the first udta); another is kept, as the
        // shift counts it.
        var body: [UInt8] = []
        for child in try MP4Boxes.children(of: movie[moov.headerSize...]) {
            if child.range == userData?.range { body += newUserData } else { body += movie[child.range] }
        }
        if userData == nil { body += newUserData }
        return EditedFile(pieces: [.copy(0..<moov.range.lowerBound), .bytes(MP4Boxes.box("moov", body))]
            + (try fragments(of: bytes, after: moov.range.upperBound, movedBy: shift)))
    }

    /// The boxes after the movie: copied as they are, but for a fragmented file's fragments (`moof`) and their
    /// index (`mfra`), whose offsets count from the file's start and so move with the movie's growth.
    private static func fragments(of file: UnsafeRawBufferPointer, after start: Int, movedBy shift: Int64) throws
        -> [EditedFile.Piece] {
        guard shift != 0 else { return [.copy(start..<file.count)] }
        var pieces: [EditedFile.Piece] = []
        var copied = start
        for box in try MP4Boxes.children(of: file[start...]) where box.type == "moof" || box.type == "mfra" {
            var moved = Array(file[box.range])
            if box.type == "moof" {
                try MP4Boxes.moveFragmentOffsets(in: &moved, from: Int64(start), by: shift)
            } else {
                try MP4Boxes.moveFragmentIndex(in: &moved, from: Int64(start), by: shift)
            }
            pieces += [.copy(copied..<box.range.lowerBound), .bytes(moved)]
            copied = box.range.upperBound
        }
        return pieces + [.copy(copied..<file.count)]
    }

    /// `udta` with its `meta/ilst` edited, or made.
    private static func editedUserData(_ userData: ArraySlice<UInt8>?, current: NormalizedTags, edits: TagEdits) throws -> [UInt8] {
        guard let userData else {
            let items = try edits.apply(to: [], in: ITunesSpace(), current: current)
            return items.isEmpty ? [] : ITunesTagWriter.userData(items: items.flatMap(\.bytes))
        }
        var body: [UInt8] = []
        var edited = false
        for child in try MP4Boxes.children(of: userData.dropFirst(8)) {
            guard child.type == "meta", !edited else {
                body += userData[child.range]
                continue
            }
            edited = true
            // meta is a full box: its version and flags, then its children.
            let meta = userData[child.range]
            var metaBody = Array(meta.dropFirst(8).prefix(4))
            var items: [TagField] = []
            for metaChild in try MP4Boxes.children(of: meta.dropFirst(12)) {
                if metaChild.type == "ilst" {
                    items = try MP4Boxes.children(of: meta[metaChild.range].dropFirst(8)).map { item in
                        TagField(identity: ITunesSpace.identity(of: Array(meta[item.range])), bytes: Array(meta[item.range]))
                    }
                } else {
                    metaBody += meta[metaChild.range]
                }
            }
            items = try edits.apply(to: items, in: ITunesSpace(), current: current)
            body += MP4Boxes.box("meta", metaBody + MP4Boxes.box("ilst", items.flatMap(\.bytes)))
        }
        if !edited {
            let items = try edits.apply(to: [], in: ITunesSpace(), current: current)
            body += ITunesTagWriter.userData(items: items.flatMap(\.bytes)).dropFirst(8)
        }
        return MP4Boxes.box("udta", body)
    }
}

/// iTunes `ilst` items as an edit's key space: `itunes:©nam`, or `itunes:----:MEAN:NAME` for a free-form item.
struct ITunesSpace: TagFieldSpace {
    var rawSpace: TagKeySpace? { .itunes }

    func fields(for tags: NormalizedTags) throws -> [TagField] {
        let items = ITunesTagWriter.items(tags)
        return try MP4Boxes.children(of: items[...]).map { item in
            TagField(identity: Self.identity(of: Array(items[item.range])), bytes: Array(items[item.range]))
        }
    }

    func identity(ofRaw id: String) -> String { id }

    /// iTunes once wrote genres as ID3 numbers.
    func aliases(of identity: String) -> [String] {
        identity == "\u{A9}gen" ? ["gnre"] : []
    }

    func field(raw id: String, value: String) throws -> TagField {
        let parts = id.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        if parts[0] == "----" {
            guard parts.count == 3 else { throw TagEditError.unsupportedKey("itunes:\(id) must be itunes:----:MEAN:NAME") }
            return TagField(identity: id, bytes: ITunesTagWriter.freeFormItem(mean: parts[1], name: parts[2], text: value))
        }
        guard parts.count == 1, id.unicodeScalars.count == 4, id.unicodeScalars.allSatisfy({ $0.value < 256 }) else {
            throw TagEditError.unsupportedKey("itunes:\(id) is not an item's four-character key")
        }
        return TagField(identity: id, bytes: ITunesTagWriter.textItem(key: id, text: value))
    }

    /// An item's key (its box type, bytes as ISO 8859-1, as `©` is 0xA9); a free-form one's `----:MEAN:NAME`.
    static func identity(of item: [UInt8]) -> String {
        let key = String(item[4..<8].map { Character(Unicode.Scalar($0)) })
        guard key == "----", let children = try? MP4Boxes.children(of: item[8...]) else { return key }
        // mean and name are full boxes: text after the version and flags.
        let text = { (type: String) in
            children.first { $0.type == type }.map { String(decoding: item[$0.range].dropFirst(12), as: UTF8.self) } ?? ""
        }
        return "----:\(text("mean")):\(text("name"))"
    }
}
