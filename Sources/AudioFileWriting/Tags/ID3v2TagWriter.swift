import AudioFileStream

/// Writes the common keys as an ID3v2 tag: version 2.4 with UTF-8 text, or 2.3 with UTF-16 text and the year in
/// TYER, for files whose tag is already 2.3 (ID3v2.4 §4, ID3v2.3 §4).
public struct ID3v2TagWriter: Sendable {
    public enum Version: UInt8, Sendable {
        case v23 = 3, v24 = 4
    }

    public let version: Version

    public init(version: Version = .v24) {
        self.version = version
    }

    /// The whole tag (header, frames, then `padding` zero bytes), or no bytes when `tags` is empty and no padding
    /// is asked for.
    /// - Throws: `WriteError.unsupportedFormat` when the frames would pass the 256 MiB an ID3v2 size can say.
    public func tag(for tags: NormalizedTags, padding: Int = 0) throws -> [UInt8] {
        var body: [UInt8] = []
        for (id, text) in textFrames(of: tags) {
            body += frame(id, description: nil, text: text) ?? []
        }
        if let comment = tags.comments {
            body += frame("COMM", description: "", text: comment) ?? []
        }
        if let artwork = tags.artwork, !artwork.data.isEmpty {
            let header = [encoding] + Array(artwork.mimeType.utf8) + [0, artwork.pictureType]
                + encoded(artwork.description) + terminator
            appendFrame("APIC", header + artwork.data, to: &body)
        }
        guard !body.isEmpty || padding > 0 else { return [] }
        return try tag(frames: body, padding: padding)
    }

    /// The whole tag around `frames` (whole frames of this version, one after another), then `padding` zeros.
    /// - Throws: `WriteError.unsupportedFormat` when the frames would pass the 256 MiB an ID3v2 size can say.
    public func tag(frames: [UInt8], padding: Int = 0) throws -> [UInt8] {
        let size = frames.count + padding
        guard size < 1 << 28 else { throw WriteError.unsupportedFormat("an ID3v2 tag of \(size) bytes is too large") }
        return Array("ID3".utf8) + [version.rawValue, 0, 0] + Self.synchsafe(size) + frames
            + [UInt8](repeating: 0, count: padding)
    }

    /// A whole frame of text: a text frame (`T…`, `GRP1`), one with a description (`TXXX`, `WXXX`, `COMM` in English) or
    /// a link (`W…`, ISO 8859-1 as the standard asks); nil for any other id.
    public func frame(_ id: String, description: String?, text: String) -> [UInt8]? {
        var content: [UInt8]
        switch id {
        case "TXXX", "WXXX": content = [encoding] + encoded(description ?? "") + terminator
        case "COMM": content = [encoding] + Array("eng".utf8) + encoded(description ?? "") + terminator
        // GRP1 is iTunes' grouping, a text frame outside the standard.
        case _ where id.utf8.count == 4 && (id.hasPrefix("T") || id == "GRP1"): content = [encoding]
        case _ where id.utf8.count == 4 && id.hasPrefix("W"): content = []
        default: return nil
        }
        content += id.hasPrefix("W") ? text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) } : encoded(text)
        var frame: [UInt8] = []
        appendFrame(id, content, to: &frame)
        return frame
    }

    /// A whole PRIV frame: `owner` (its identifier, NUL-terminated) and `data` (ID3v2.4 §4.27).
    package func privateFrame(owner: [UInt8], data: [UInt8]) -> [UInt8] {
        var frame: [UInt8] = []
        appendFrame("PRIV", owner + data, to: &frame)
        return frame
    }

    /// The text frames and their values, in the order the specification lists them.
    private func textFrames(of tags: NormalizedTags) -> [(String, String)] {
        func position(_ number: Int?, _ count: Int?) -> String? {
            guard number != nil || count != nil else { return nil }
            return (number.map(String.init) ?? "") + (count.map { "/\($0)" } ?? "")
        }
        // 2.3 has only a four-digit year; 2.4 takes the full ISO 8601 time stamp.
        let year: (String, String?) = version == .v24 ? ("TDRC", tags.year) : ("TYER", tags.year.map { String($0.prefix(4)) })
        let frames: [(String, String?)] = [
            ("TIT2", tags.title), ("TPE1", tags.artist), ("TALB", tags.album), ("TPE2", tags.albumArtist),
            year,
            ("TRCK", position(tags.trackNumber, tags.trackCount)), ("TPOS", position(tags.discNumber, tags.discCount)),
            ("TCON", tags.genre), ("TCOM", tags.composer), ("TBPM", tags.bpm.map(String.init)),
            // TIT1 is the standard's content group; iTunes reads its grouping from GRP1.
            ("TIT1", tags.grouping), ("GRP1", tags.grouping),
        ]
        return frames.compactMap { id, text in text.map { (id, $0) } }
    }

    /// UTF-8 (3) in 2.4; UTF-16 with a byte order mark (1) in 2.3, which has no UTF-8.
    private var encoding: UInt8 { version == .v24 ? 3 : 1 }

    private var terminator: [UInt8] { version == .v24 ? [0] : [0, 0] }

    /// `text` in the tag's encoding, without a terminator; in 2.3 little-endian behind its byte order mark.
    private func encoded(_ text: String) -> [UInt8] {
        guard version == .v23 else { return Array(text.utf8) }
        return [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    /// Appends a frame: its id, its size (synchsafe in 2.4, plain in 2.3), no flags, then `content`.
    private func appendFrame(_ id: String, _ content: [UInt8], to body: inout [UInt8]) {
        let size = version == .v24 ? Self.synchsafe(content.count)
            : [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: content.count >> $0) }
        body += Array(id.utf8) + size + [0, 0] + content
    }

    /// Four bytes of seven bits each, most significant first (ID3v2.4 §6.2).
    private static func synchsafe(_ value: Int) -> [UInt8] {
        [21, 14, 7, 0].map { UInt8(value >> $0 & 0x7F) }
    }
}
