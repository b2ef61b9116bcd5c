/// The 128-byte ID3v1 tag at the end of a file: `TAG`, then title, artist and album (30 bytes each), year (4),
/// comment (30) and a genre number. ID3v1.1 takes the comment's last two bytes for a zero and a track number.
/// Fields are Latin-1, ended by a zero byte or padded with spaces.
struct ID3v1Tag {
    static let length = 128

    /// The fields that are not empty, under the names the ID3v1 spec gives them (which APEv2 also uses):
    /// Title, Artist, Album, Year, Comment, Track, Genre (the genre's number as text).
    let fields: [RawTagField]

    /// Reads a whole tag (`length` bytes starting with `TAG`).
    init(_ bytes: [UInt8]) {
        func text(_ range: Range<Int>) -> String {
            let field = bytes[range].prefix { $0 != 0 }
            return Self.trimmingWhitespace(TextEncoding.latin1.decode(field))
        }
        let hasTrack = bytes[125] == 0 && bytes[126] != 0
        let values = [
            ("Title", text(3..<33)), ("Artist", text(33..<63)), ("Album", text(63..<93)), ("Year", text(93..<97)),
            ("Comment", text(97..<(hasTrack ? 125 : 127))),
            ("Track", hasTrack ? String(bytes[126]) : ""),
            // 255 means no genre.
            ("Genre", bytes[127] == 255 ? "" : String(bytes[127])),
        ]
        fields = values.filter { !$0.1.isEmpty }.map { RawTagField(key: $0.0, value: .text([$0.1])) }
    }

    /// Strips the spaces (and other ASCII whitespace) that pad fixed-size fields.
    private static func trimmingWhitespace(_ text: String) -> String {
        let isPadding: (Character) -> Bool = { $0.isASCII && $0.isWhitespace }
        guard let first = text.firstIndex(where: { !isPadding($0) }),
              let last = text.lastIndex(where: { !isPadding($0) })
        else { return "" }
        return String(text[first...last])
    }
}
