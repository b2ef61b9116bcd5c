#if canImport(Glibc)
import Glibc
#endif

/// The order to read a seekable MP4 file whose movie box (`moov`) follows its media data (`mdat`): a stream
/// must see the `moov` first (the parser fails such a stream as not optimized), and a regular file can be
/// read out of order. Found from the top-level box headers alone.
enum MoovFirstOrder {
    /// The ranges of the file to read, in order: what precedes the first `mdat`, the `moov`, then from the
    /// `mdat` up to the `moov`; what follows the `moov` holds no audio and is left out. Nil when `descriptor` is
    /// not a regular file, not an MP4 file, or its `moov` already comes first.
    static func ranges(of descriptor: Int32) -> [Range<Int64>]? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        var boxes: [(type: String, range: Range<Int64>)] = []
        var position: Int64 = 0
        while position < Int64(status.st_size), let box = header(at: position, of: descriptor, fileSize: Int64(status.st_size)) {
            boxes.append(box)
            position = box.range.upperBound
        }
        guard boxes.first?.type == "ftyp",
              let mdat = boxes.first(where: { $0.type == "mdat" })?.range,
              let moov = boxes.first(where: { $0.type == "moov" })?.range, moov.lowerBound > mdat.lowerBound
        else { return nil }
        return [0..<mdat.lowerBound, moov, mdat.lowerBound..<moov.lowerBound]
    }

    /// The type and extent of the box whose header is at `position` (ISO/IEC 14496-12 §4.2), or nil when the
    /// header cannot be read or its size does not fit in the file.
    private static func header(at position: Int64, of descriptor: Int32,
                               fileSize: Int64) -> (type: String, range: Range<Int64>)? {
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 16, off_t(position)) }
        guard count >= 8 else { return nil }
        let size32 = bytes[0..<4].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        let type = String(decoding: bytes[4..<8], as: UTF8.self)
        let size = switch size32 {
        case 0: fileSize - position
        case 1 where count == 16: bytes[8..<16].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        default: size32
        }
        guard size >= 8, size <= fileSize - position else { return nil }
        return (type, position..<position + size)
    }
}
