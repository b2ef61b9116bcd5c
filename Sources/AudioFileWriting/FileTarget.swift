#if canImport(Glibc)
import Glibc
#endif

/// A file being written, through a buffer that is flushed by size, before any overwrite and on `close`.
///
/// Not for sharing: one writer owns it. Errors carry the path and the system's reason, and leave the target
/// usable: bytes that could not be stored are dropped, and later appends are tried again (a disk that filled up
/// may have room again).
public struct FileTarget: WriteTarget {
    public let path: String
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// Bytes stored in the file so far.
    private var stored: Int64 = 0
    /// Small enough that a crash loses about a second of a recorded stream, large enough that writes stay rare.
    private static let flushSize = 16 * 1024

    /// Creates a new file at `path`: nothing may be there, not even a symbolic link, so that a name planted in a
    /// folder others can write never leads the bytes elsewhere.
    /// - Throws: `WriteError.system` when it cannot be created (`EEXIST` when something has the name).
    public init(creating path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw WriteError.system(operation: "create", path: path, errno: errno) }
        self.init(descriptor: descriptor, path: path)
    }

    /// Writes to `descriptor`, an open file named `path`, from its start; the target closes it.
    package init(descriptor: Int32, path: String) {
        self.path = path
        self.descriptor = descriptor
        buffer.reserveCapacity(Self.flushSize)
    }

    public var size: Int64 { stored + Int64(buffer.count) }

    /// Bytes in the file itself so far, what is buffered left out.
    public var storedSize: Int64 { stored }

    public mutating func append(_ bytes: UnsafeRawBufferPointer) throws {
        buffer += bytes
        if buffer.count >= Self.flushSize { try flush() }
    }

    public mutating func overwrite(at offset: Int64, with bytes: [UInt8]) throws {
        try flush()
        try bytes.withUnsafeBytes { try writeAll($0, at: offset) }
    }

    /// Stores what is buffered.
    public mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        try buffer.withUnsafeBytes { try writeAll($0, at: stored) }
        stored += Int64(buffer.count)
    }

    /// Stores what is buffered and waits until the file's bytes are on the disk.
    public mutating func synchronize() throws {
        try flush()
        guard fsync(descriptor) == 0 else { throw WriteError.system(operation: "sync", path: path, errno: errno) }
    }

    /// Stores what is buffered, then copies the file from its start to `output` (standard output, which cannot be
    /// patched in place), called `name` in errors. The file must have been opened for reading too.
    /// - Throws: `WriteError.system` when the file cannot be read or the output written.
    public mutating func copy(to output: Int32, named name: String) throws {
        try flush()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var offset: Int64 = 0
        while offset < stored {
            let count = chunk.withUnsafeMutableBytes { chunk in
                pread(descriptor, chunk.baseAddress, min(chunk.count, Int(stored - offset)), off_t(offset))
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw WriteError.system(operation: "read", path: path, errno: count < 0 ? errno : EIO) }
            var done = 0
            while done < count {
                let written = chunk.withUnsafeBytes { write(output, $0.baseAddress?.advanced(by: done), count - done) }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { throw WriteError.system(operation: "write", path: name, errno: errno) }
                done += written
            }
            offset += Int64(count)
        }
    }

    /// Closes the file; what could not be stored is lost.
    public func close() {
        _ = Glibc.close(descriptor)
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws {
        var done = 0
        while done < bytes.count {
            let written = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                throw WriteError.system(operation: "write", path: path, errno: written < 0 ? errno : ENOSPC)
            }
            done += written
        }
    }
}
