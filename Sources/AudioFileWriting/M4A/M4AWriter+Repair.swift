#if canImport(Glibc)
import Glibc
#endif

extension M4AWriter {
    /// Far above the index of a second of packets; a larger `free` box is not one.
    private static let largestIndex: Int64 = 1 << 24

    /// Makes a piece this writer began, cut at any byte (a kill, a power cut), into a valid M4A in place: it
    /// keeps every whole packet the file holds, drops what follows the last one, and appends the movie box,
    /// stating the start trim the writer was given and no end trim. A file already finished is left as it is.
    /// Repairing again after a crash during a repair gives the same file.
    /// - Returns: the packets the file holds; a file cut before its first packet's end holds none (an empty
    ///   track), which a caller may as well delete.
    /// - Throws: `WriteError.unsupportedFormat` when the file does not begin with this writer's `ftyp` and
    ///   header (it was cut before them, and holds no audio), or `WriteError.system`.
    @discardableResult
    public static func repair(path: String) throws -> Int {
        let file = try RepairFile(path: path)
        defer { file.close() }
        let fileStart = try file.read(at: 0, count: Self.fileType.count)
        guard fileStart == Self.fileType,
              let headerBox = try file.box(at: Int64(fileStart.count), largest: 1 << 26), headerBox.type == "free",
              let header = M4ARecoveryBoxes.readHeader(try file.body(of: headerBox)) else {
            throw WriteError.unsupportedFormat("\(path) does not begin as an M4A piece being written")
        }
        var table = M4ASampleTable()
        var position = headerBox.end
        while let index = try file.box(at: position, largest: Int64(UInt32.max)) {
            if index.type == "moov" { return table.sizes.count }
            guard index.type == "free", index.end - index.start <= largestIndex,
                  let packets = M4ARecoveryBoxes.readChunkIndex(try file.body(of: index)),
                  let mdat = try file.box(at: index.end, largest: Int64(UInt32.max), whole: false), mdat.type == "mdat"
            else { break }
            let stored = min(mdat.end, file.size) - mdat.bodyStart
            var kept = 0
            var end = mdat.bodyStart
            while kept < packets.count, end + Int64(packets[kept].size) - mdat.bodyStart <= stored {
                end += Int64(packets[kept].size)
                kept += 1
            }
            guard kept > 0 else { break }
            table.addChunk(at: mdat.bodyStart, packets: UInt32(kept))
            for packet in packets.prefix(kept) { table.add(size: packet.size, frames: packet.frames) }
            position = end
            guard end == mdat.end else {
                try file.write([UInt8](bigEndian: UInt32(end - mdat.start)), at: mdat.start)
                break
            }
        }
        try file.truncate(at: position)
        try file.write(M4AMovie.box(header, table, trailingTrim: 0), at: position)
        try file.synchronize()
        return table.sizes.count
    }
}

/// A box's place in a file: where it starts, its type, where its body starts and where it ends.
private struct BoxPlace {
    var start: Int64
    var type: String
    var bodyStart: Int64
    var end: Int64
}

/// The file being repaired, read and written at offsets.
private struct RepairFile {
    let path: String
    let descriptor: Int32
    let size: Int64

    init(path: String) throws {
        descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { throw WriteError.system(operation: "open", path: path, errno: errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw WriteError.system(operation: "read", path: path, errno: code)
        }
        self.path = path
        size = Int64(status.st_size)
    }

    func close() {
        _ = Glibc.close(descriptor)
    }

    /// The bytes from `offset`, fewer at the file's end.
    func read(at offset: Int64, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Int(max(min(Int64(count), size - offset), 0)))
        var done = 0
        while done < bytes.count {
            let got = bytes.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + done, $0.count - done, off_t(offset) + off_t(done))
            }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { throw WriteError.system(operation: "read", path: path, errno: got < 0 ? errno : EIO) }
            done += got
        }
        return bytes
    }

    /// The box at `offset` when its header is in the file, its size is 32 bits and at most `largest` bytes,
    /// and, if `whole`, all of it is in the file; nil otherwise.
    func box(at offset: Int64, largest: Int64, whole: Bool = true) throws -> BoxPlace? {
        let header = try read(at: offset, count: 8)
        guard header.count == 8 else { return nil }
        let size = Int64(header[0..<4].reduce(0) { $0 << 8 | UInt32($1) })
        let place = BoxPlace(start: offset, type: String(decoding: header[4..<8], as: UTF8.self), bodyStart: offset + 8,
                             end: offset + size)
        guard size >= 8, size <= largest, !whole || place.end <= self.size else { return nil }
        return place
    }

    func body(of box: BoxPlace) throws -> [UInt8] {
        try read(at: box.bodyStart, count: Int(box.end - box.bodyStart))
    }

    func write(_ bytes: [UInt8], at offset: Int64) throws {
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes {
                pwrite(descriptor, $0.baseAddress! + done, $0.count - done, off_t(offset) + off_t(done))
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                throw WriteError.system(operation: "write", path: path, errno: written < 0 ? errno : ENOSPC)
            }
            done += written
        }
    }

    func truncate(at offset: Int64) throws {
        guard ftruncate(descriptor, off_t(offset)) == 0 else {
            throw WriteError.system(operation: "truncate", path: path, errno: errno)
        }
    }

    func synchronize() throws {
        guard fsync(descriptor) == 0 else { throw WriteError.system(operation: "sync", path: path, errno: errno) }
    }
}
