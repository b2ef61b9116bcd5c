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

    /// Creates the file at `path`, replacing one already there.
    /// - Throws: `WriteError.system` when it cannot be created.
    public init(creating path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw WriteError.system(operation: "create", path: path, errno: errno) }
        self.path = path
        self.descriptor = descriptor
        buffer.reserveCapacity(Self.flushSize)
    }

    public var size: Int64 { stored + Int64(buffer.count) }

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
