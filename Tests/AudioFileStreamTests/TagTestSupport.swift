import Testing
@testable import AudioFileStream

/// Tag bytes laid out the way the specs describe them, so tests state their input byte by byte.
enum TagBytes {
    /// `value` as an ID3v2 syncsafe integer: 7 bits per byte, most significant first.
    static func syncsafe(_ value: Int, width: Int = 4) -> [UInt8] {
        (0..<width).map { UInt8(value >> (7 * (width - 1 - $0)) & 0x7F) }
    }

    static func bigEndian(_ value: Int, width: Int) -> [UInt8] {
        (0..<width).map { UInt8(value >> (8 * (width - 1 - $0)) & 0xFF) }
    }

    static func littleEndian(_ value: Int, width: Int = 4) -> [UInt8] {
        (0..<width).map { UInt8(value >> (8 * $0) & 0xFF) }
    }

    static func ascii(_ text: String) -> [UInt8] {
        Array(text.utf8)
    }

    /// Latin-1: one byte per code point below 256.
    static func latin1(_ text: String) -> [UInt8] {
        text.unicodeScalars.map { UInt8($0.value) }
    }

    static func utf16(_ text: String, bigEndian: Bool, byteOrderMark: Bool) -> [UInt8] {
        let units = (byteOrderMark ? [0xFEFF] : []) + Array(text.utf16)
        return units.flatMap { unit in
            bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
    }

    /// An ID3v2 tag: the 10-byte header (ID3v2.4 §3.1) and `body`, with the size counting `body`.
    static func id3v2(version: UInt8, flags: UInt8 = 0, body: [UInt8]) -> [UInt8] {
        ascii("ID3") + [version, 0, flags] + syncsafe(body.count) + body
    }

    /// An ID3v2.3 or 2.4 frame (ID3v2.4 §4.1): id, size (syncsafe in 2.4), two flag bytes, data.
    static func frame(_ id: String, version: UInt8 = 4, flags: [UInt8] = [0, 0], _ data: [UInt8]) -> [UInt8] {
        ascii(id) + (version == 4 ? syncsafe(data.count) : bigEndian(data.count, width: 4)) + flags + data
    }

    /// An ID3v2.2 frame: 3-letter id, 24-bit size, data.
    static func frameV22(_ id: String, _ data: [UInt8]) -> [UInt8] {
        ascii(id) + bigEndian(data.count, width: 3) + data
    }

    /// Unsynchronisation as ID3v2.4 §6.1 defines it: a zero after every 0xFF that is followed by a byte of
    /// 0xE0 or more or by a zero, and after a final 0xFF.
    static func unsynchronised(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            result.append(byte)
            guard byte == 0xFF else { continue }
            if index + 1 == bytes.count || bytes[index + 1] >= 0xE0 || bytes[index + 1] == 0 { result.append(0) }
        }
        return result
    }

    /// An APEv2 header or footer (32 bytes): magic, version, size (items + footer), item count, flags, zeros.
    static func apeHeader(size: Int, itemCount: Int, isHeader: Bool, version: Int = 2000) -> [UInt8] {
        let flags = 1 << 31 | (isHeader ? 1 << 29 : 0)
        return ascii("APETAGEX") + littleEndian(version) + littleEndian(size) + littleEndian(itemCount)
            + littleEndian(flags) + [UInt8](repeating: 0, count: 8)
    }

    /// An APEv2 item: value size, flags (kind in bits 1–2), key, zero, value.
    static func apeItem(_ key: String, kind: Int = 0, _ value: [UInt8]) -> [UInt8] {
        littleEndian(value.count) + littleEndian(kind << 1) + ascii(key) + [0] + value
    }

    /// A whole APEv2 tag with header and footer around `items`.
    static func apeTag(_ items: [[UInt8]]) -> [UInt8] {
        let body = items.flatMap { $0 }
        let size = body.count + 32
        return apeHeader(size: size, itemCount: items.count, isHeader: true) + body
            + apeHeader(size: size, itemCount: items.count, isHeader: false)
    }
}

/// What reading a tag gave: the tag and the reader at its end.
struct TagReading {
    let metadata: Metadata?
    let reader: TagReader
}

/// The reader `TagReader.detect` returns for `bytes`, or nil when it sees no tag there.
func detectTag(_ bytes: [UInt8], limits: MetadataLimits = MetadataLimits()) -> TagReader? {
    guard case .tag(let reader) = bytes.withUnsafeBytes({ TagReader.detect($0, limits: limits, isEndOfInput: false) }) else { return nil }
    return reader
}

/// Reads the tag at the start of `bytes` through `TagReader`, fed in chunks of `chunkSize` (whole when nil), and
/// finishes it where it ends or, for a tag cut short, where `bytes` end; nil when `detect` does not see a tag.
func readTag(_ bytes: [UInt8], chunkSize: Int? = nil, limits: MetadataLimits = MetadataLimits()) -> TagReading? {
    guard var reader = detectTag(bytes, limits: limits) else { return nil }
    var position = 0
    while reader.remainingBytes > 0 && position < bytes.count {
        let end = min(position + (chunkSize ?? bytes.count), bytes.count)
        position += bytes[position..<end].withUnsafeBytes { reader.consume($0) }
    }
    return TagReading(metadata: reader.finish(), reader: reader)
}

/// Reads the tag whole, in 1-byte and in 7-byte chunks, expects the same result from each, and returns it.
/// `cutBytes` is how many bytes the tag claims beyond `bytes`: 0 unless the tag is cut short.
func readTagInEveryChunking(
    _ bytes: [UInt8], cutBytes: Int = 0, limits: MetadataLimits = MetadataLimits(),
    sourceLocation: SourceLocation = #_sourceLocation
) -> Metadata? {
    let whole = readTag(bytes, limits: limits)
    #expect(whole?.reader.remainingBytes == cutBytes, "the tag's end", sourceLocation: sourceLocation)
    for chunkSize in [1, 7] {
        let chunked = readTag(bytes, chunkSize: chunkSize, limits: limits)
        #expect(chunked?.metadata == whole?.metadata, "\(chunkSize)-byte chunks", sourceLocation: sourceLocation)
    }
    return whole?.metadata
}
