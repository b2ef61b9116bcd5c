/// The ID3v1 trailer of an MPEG audio or ADTS file, edited beside the ID3v2 tag: the fields of every common key
/// the edit names are cleared, so that readers take a key set from the ID3v2 tag, and a key removed is gone from
/// both. Its other fields are kept as they are.
enum ID3v1TagEdit {
    /// The 128-byte trailer ending `bytes` with `edits` applied, or nil when `bytes` past `start` end with none.
    static func edited(_ bytes: UnsafeRawBufferPointer, from start: Int, edits: TagEdits) -> [UInt8]? {
        guard bytes.count - 128 >= start, bytes[(bytes.count - 128)...].starts(with: "TAG".utf8) else { return nil }
        var tag = Array(bytes[(bytes.count - 128)...])
        // ID3v1.1 keeps a track number in the comment's last byte, after a zero.
        let isV11 = tag[125] == 0
        for case .common(let key) in edits.set.map(\.key) + edits.remove {
            let field: Range<Int>? = switch key {
            case .title: 3..<33
            case .artist: 33..<63
            case .album: 63..<93
            case .year: 93..<97
            case .comments: isV11 ? 97..<125 : 97..<127
            case .trackNumber: isV11 ? 126..<127 : nil
            case .genre: 127..<128
            default: nil
            }
            guard let field else { continue }
            // Genre 255 is none.
            tag.replaceSubrange(field, with: repeatElement(key == .genre ? 255 : 0, count: field.count))
        }
        return tag
    }
}
