import AudioStreamProtocol

/// ICY metadata blocks as a listener that sent `Icy-MetaData: 1` receives them between every `icy-metaint` bytes
/// of audio: a length byte N, then N × 16 bytes of `StreamTitle='…';StreamUrl='…';` padded with NULs.
///
/// Total on any input: what a station sends reaches this builder, so no title or URL may make it trap.
enum ICYMetadataBlock {
    /// The most text a block holds: its length byte counts 16-byte units.
    static let maximumTextBytes = 255 * 16

    /// The block for nothing new: a single zero length byte.
    static let empty: [UInt8] = [0]

    /// The block announcing `nowPlaying`, at most `1 + maximumTextBytes` bytes, built from its fields as
    /// `ICYMetadata(fields:)` writes them: no control character, and no quote that ends a field early, whatever
    /// the title and URL hold. A title too long for a block is cut at a character boundary, and a URL that no
    /// longer fits beside the title is left out rather than cut.
    static func encode(_ nowPlaying: NowPlaying) -> [UInt8] {
        let titleFrame = ICYMetadata(fields: [(key: "StreamTitle", value: "")]).text.utf8.count
        let title = String(prefix(of: ICYMetadata.carried(nowPlaying.title), utf8Count: maximumTextBytes - titleFrame))
        var text = Array(ICYMetadata(fields: [(key: "StreamTitle", value: title)]).text.utf8)
        if let url = nowPlaying.url {
            let both = ICYMetadata(fields: [(key: "StreamTitle", value: title), (key: "StreamUrl", value: url)]).text.utf8
            if both.count <= maximumTextBytes { text = Array(both) }
        }
        let units = (text.count + 15) / 16
        var block = [UInt8(units)]
        block.reserveCapacity(1 + units * 16)
        block += text
        block += repeatElement(0, count: units * 16 - text.count)
        return block
    }

    /// The longest run of whole characters from the start of `text` that takes at most `limit` bytes of UTF-8.
    private static func prefix(of text: String, utf8Count limit: Int) -> Substring {
        var used = 0
        var end = text.startIndex
        for character in text {
            used += character.utf8.count
            guard used <= limit else { break }
            end = text.index(after: end)
        }
        return text[..<end]
    }
}
