import NIOCore

/// ICY metadata blocks as a listener that sent `Icy-MetaData: 1` receives them between every `icy-metaint` bytes
/// of audio: a length byte N, then N × 16 bytes of `StreamTitle='…';StreamUrl='…';` padded with NULs.
enum ICYMetadataBlock {
    /// The most text a block holds: its length byte counts 16-byte units.
    static let maximumTextBytes = 255 * 16

    /// The block for nothing new: a single zero length byte.
    static let empty = ByteBuffer(bytes: [0])

    /// The block announcing `nowPlaying`. Quotes are written as they are, as Icecast does; a title too long for a
    /// block is cut at a character boundary.
    static func encode(_ nowPlaying: NowPlaying) -> ByteBuffer {
        let urlField = nowPlaying.url.map { "StreamUrl='\($0)';" } ?? ""
        let frame = Array("StreamTitle='';".utf8) + Array(urlField.utf8)
        var title = Substring(nowPlaying.title)
        while title.utf8.count + frame.count > maximumTextBytes { title.removeLast() }
        let text = Array("StreamTitle='\(title)';\(urlField)".utf8)
        let units = (text.count + 15) / 16
        var block = ByteBuffer()
        block.reserveCapacity(1 + units * 16)
        block.writeInteger(UInt8(units))
        block.writeBytes(text)
        block.writeRepeatingByte(0, count: units * 16 - text.count)
        return block
    }
}
