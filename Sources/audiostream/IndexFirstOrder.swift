#if canImport(Glibc)
import Glibc
#endif
import AudioFileStream

/// The order to read a seekable file whose index follows its audio: an MP4 file whose movie box (`moov`)
/// follows its media data (`mdat`), or a CAF file whose packet table (`pakt`) follows its `data` chunk, as
/// ffmpeg writes both; a WAVE or AIFF file whose format chunk (`fmt `, `COMM`) follows its samples (`data`,
/// `SSND`), as some writers leave it. A stream must see the index first (the parser fails such a stream as not
/// optimized), and a regular file can be read out of order. Found from the top-level box or chunk headers alone.
enum IndexFirstOrder {
    /// The ranges of the file to read, in order: what precedes the audio, the index, from the audio up to the
    /// index, then what follows the index (tags, as a WAVE or AIFF file's chunks may hold). Nil when `descriptor`
    /// is not a regular file, not one of those formats, or its index already comes first.
    static func ranges(of descriptor: Int32) -> [Range<Int64>]? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        let fileSize = Int64(status.st_size)
        let layout: (audio: String, index: String, first: Int64, header: (Int64) -> Part?)
        let start = read(12, at: 0, of: descriptor)
        let form = String(decoding: start.suffix(4), as: UTF8.self)
        switch String(decoding: start.prefix(4), as: UTF8.self) {
        case "caff": layout = ("data", "pakt", 8, { cafChunk(at: $0, of: descriptor, fileSize: fileSize) })
        case "RIFF" where form == "WAVE":
            layout = ("data", "fmt ", 12, { riffChunk(at: $0, of: descriptor, fileSize: fileSize, isBigEndian: false) })
        case "FORM" where form == "AIFF" || form == "AIFC":
            layout = ("SSND", "COMM", 12, { riffChunk(at: $0, of: descriptor, fileSize: fileSize, isBigEndian: true) })
        default: layout = ("mdat", "moov", 0, { mp4Box(at: $0, of: descriptor, fileSize: fileSize) })
        }
        var parts: [Part] = []
        var position = layout.first
        while position < fileSize, let part = layout.header(position) {
            parts.append(part)
            position = part.range.upperBound
        }
        guard layout.first > 0 || parts.first?.type == "ftyp",
              let audio = parts.first(where: { $0.type == layout.audio })?.range,
              let index = parts.first(where: { $0.type == layout.index })?.range, index.lowerBound > audio.lowerBound
        else { return nil }
        return [0..<audio.lowerBound, index, audio.lowerBound..<index.lowerBound, index.upperBound..<fileSize]
    }

    /// A top-level box or chunk: its type and extent.
    private typealias Part = (type: String, range: Range<Int64>)

    /// The box whose header is at `position` (ISO/IEC 14496-12 §4.2), or nil when the header cannot be read or
    /// its size does not fit in the file.
    private static func mp4Box(at position: Int64, of descriptor: Int32, fileSize: Int64) -> Part? {
        let bytes = read(16, at: position, of: descriptor)
        // The parser's reading of a box header: what it refuses is no box here either.
        guard case .header(let header) = bytes.withUnsafeBytes({ MP4BoxHeader.read($0, at: 0) }) else { return nil }
        let size = header.size ?? fileSize - position
        guard size <= fileSize - position else { return nil }
        return (String(decoding: bytes[4..<8], as: UTF8.self), position..<position + size)
    }

    /// The chunk whose header is at `position` (Core Audio Format Specification: a type and a 64-bit size), or
    /// nil when the header cannot be read or its size does not fit in the file (a `data` size of -1 runs to the
    /// end, so nothing follows it).
    private static func cafChunk(at position: Int64, of descriptor: Int32, fileSize: Int64) -> Part? {
        let bytes = read(12, at: position, of: descriptor)
        guard bytes.count == 12 else { return nil }
        let size = Int64(bitPattern: bytes.withUnsafeBytes { $0.bigEndianUInt64(at: 4) })
        guard size >= 0, size <= fileSize - position - 12 else { return nil }
        return (String(decoding: bytes[0..<4], as: UTF8.self), position..<position + 12 + size)
    }

    /// The RIFF or IFF chunk whose header is at `position` (a type and a 32-bit size, little-endian in RIFF,
    /// big-endian in IFF; a body of odd size is followed by a pad byte), or nil when the header cannot be read or
    /// its size does not fit in the file.
    private static func riffChunk(at position: Int64, of descriptor: Int32, fileSize: Int64,
                                  isBigEndian: Bool) -> Part? {
        let bytes = read(8, at: position, of: descriptor)
        guard bytes.count == 8 else { return nil }
        let size = Int64(bytes.withUnsafeBytes {
            isBigEndian ? $0.bigEndianUInt32(at: 4) : $0.littleEndianUInt32(at: 4)
        })
        guard size <= fileSize - position - 8 else { return nil }
        return (String(decoding: bytes[0..<4], as: UTF8.self), position..<min(position + 8 + size + size % 2, fileSize))
    }

    /// Up to `count` bytes of the file from `position`.
    private static func read(_ count: Int, at position: Int64, of descriptor: Int32) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let readCount = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(position)) }
        return Array(bytes.prefix(max(readCount, 0)))
    }
}
