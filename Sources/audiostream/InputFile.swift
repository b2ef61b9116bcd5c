#if canImport(Glibc)
import Glibc
#endif

/// A file or standard input, read sequentially: a regular file through a `FileMapping`, anything else into one
/// reused buffer.
struct InputFile {
    private let descriptor: Int32
    private let path: String

    /// Opens `path`, or standard input for `-`.
    init(path: String) throws {
        self.path = path
        if path == "-" {
            descriptor = STDIN_FILENO
        } else {
            descriptor = open(path, O_RDONLY)
            guard descriptor >= 0 else { throw CommandFailure.system("cannot open \(path)") }
        }
    }

    /// Calls `body` with each chunk, sized by `sizes`, and the input offset of its first byte, until the end. A
    /// regular MP4, CAF, WAVE or AIFF file whose index (`moov`, `pakt`, `fmt `, `COMM`) follows its audio is read
    /// index first (`IndexFirstOrder`), so offsets then jump: give them to the parser.
    func forEachChunk(sizes: inout ChunkSizes,
                      _ body: (UnsafeRawBufferPointer, Int64) throws -> Void) throws {
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        let ranges = IndexFirstOrder.ranges(of: descriptor)
        if let mapping = FileMapping(descriptor: descriptor) {
            defer { mapping.unmap() }
            for range in ranges ?? [0..<Int64(mapping.bytes.count)] {
                var offset = Int(range.lowerBound)
                let rangeEnd = min(Int(range.upperBound), mapping.bytes.count)
                while offset < rangeEnd {
                    let end = min(offset + sizes.next(), rangeEnd)
                    try body(UnsafeRawBufferPointer(rebasing: mapping.bytes[offset..<end]), Int64(offset))
                    offset = end
                }
            }
            return
        }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        for range in ranges ?? [0..<Int64.max] {
            var offset = range.lowerBound
            if ranges != nil, lseek(descriptor, off_t(offset), SEEK_SET) < 0 {
                throw CommandFailure.system("cannot seek in \(path)")
            }
            while offset < range.upperBound {
                let size = Int(min(Int64(sizes.next()), range.upperBound - offset))
                if buffer.count < size { buffer = [UInt8](repeating: 0, count: size) }
                let count = try buffer.withUnsafeMutableBytes { try fill($0, upTo: size) }
                if count == 0 { break }
                try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[..<count]), offset) }
                offset += Int64(count)
            }
        }
    }

    /// Reads until `size` bytes or the end of input, so chunk sizes do not depend on how a pipe delivers.
    private func fill(_ buffer: UnsafeMutableRawBufferPointer, upTo size: Int) throws -> Int {
        var filled = 0
        while filled < size {
            guard Interrupt.waitForInput(on: descriptor) else { break }
            let count = read(descriptor, buffer.baseAddress! + filled, size - filled)
            if count == 0 { break }
            if count < 0 {
                // A read that Ctrl-C interrupted ends the input, when a command asked for that (`Interrupt`).
                if errno == EINTR { if Interrupt.requested { break } else { continue } }
                throw CommandFailure.system("cannot read \(path)")
            }
            filled += count
        }
        return filled
    }
}
