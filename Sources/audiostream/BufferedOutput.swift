import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

/// Buffered writes to standard output or a file, so a line per packet does not cost a system call per packet.
/// Writes can be made from event handlers, which cannot throw: the first failure is kept and thrown by `flush()`
/// and `throwIfFailed()`. A reader that has gone away (`| head`) is no failure: the command then ends quietly with
/// status 0, as the thrown `ExitCode.success`.
final class BufferedOutput {
    private let descriptor: Int32
    private let name: String
    /// False for standard output and error, which stay open.
    private let ownsDescriptor: Bool
    /// Where the output's first byte lies in its file, when bytes written can be overwritten: nil for a pipe, a
    /// terminal or a file opened for appending (where every write lands at the end).
    private let rewritableStart: Int?
    private var buffer: [UInt8] = []
    private var failure: Error?
    private static let flushThreshold = 64 * 1024

    /// Standard output, or standard error.
    init(standardError: Bool = false) {
        descriptor = standardError ? STDERR_FILENO : STDOUT_FILENO
        name = standardError ? "standard error" : "standard output"
        ownsDescriptor = false
        let position = lseek(descriptor, 0, SEEK_CUR)
        rewritableStart = position >= 0 && fcntl(descriptor, F_GETFL) & O_APPEND == 0 ? Int(position) : nil
        buffer.reserveCapacity(Self.flushThreshold * 2)
    }

    /// A new file at `path`, replacing a regular file that was there (`OutputFile.resolved`).
    init(creating path: String) throws {
        let path = try OutputFile.resolved(path)
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
        name = path
        ownsDescriptor = true
        rewritableStart = 0
        guard descriptor >= 0 else { throw CommandFailure.system("cannot create \(path)") }
        buffer.reserveCapacity(Self.flushThreshold * 2)
    }

    /// Standard output when `path` is `-` or names it (such as `/dev/stdout`), otherwise a new file at `path`:
    /// every command that writes opens its output here.
    static func opening(_ path: String) throws -> BufferedOutput {
        try namesStandardOutput(path) ? BufferedOutput() : BufferedOutput(creating: path)
    }

    /// Whether `path` is `-` or the very file standard output writes to.
    static func namesStandardOutput(_ path: String) -> Bool {
        guard path != "-" else { return true }
        var target = stat()
        var standardOutput = stat()
        guard stat(path, &target) == 0, fstat(STDOUT_FILENO, &standardOutput) == 0 else { return false }
        return target.st_dev == standardOutput.st_dev && target.st_ino == standardOutput.st_ino
    }

    deinit {
        try? flush()
        if ownsDescriptor { close(descriptor) }
    }

    /// Writes `line` and a newline.
    func line(_ line: String) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(0x0A)
        if buffer.count >= Self.flushThreshold { drain() }
    }

    func write(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.flushThreshold { drain() }
    }

    /// Writes everything buffered.
    /// - Throws: the first write failure since the output was opened.
    func flush() throws {
        drain()
        try throwIfFailed()
    }

    /// Throws the first write failure since the output was opened, if any: a command that parses a long or endless
    /// input calls it after each chunk, so it stops once its output is gone.
    func throwIfFailed() throws {
        if let failure { throw failure }
    }

    private func drain() {
        do {
            if failure == nil { try buffer.withUnsafeBytes { try writeAll($0, at: nil) } }
        } catch {
            failure = error
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Whether `overwrite(_:at:)` can change bytes already written: false for a pipe or a terminal.
    var isRewritable: Bool { rewritableStart != nil }

    /// Overwrites bytes already written, at `offset` from the output's first byte (after a flush).
    /// - Precondition: `isRewritable`.
    func overwrite(_ bytes: [UInt8], at offset: Int) throws {
        try bytes.withUnsafeBytes { try writeAll($0, at: rewritableStart! + offset) }
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer, at offset: Int?) throws {
        var written = 0
        while written < bytes.count {
            let start = bytes.baseAddress! + written
            let count = if let offset {
                pwrite(descriptor, start, bytes.count - written, off_t(offset + written))
            } else {
                Glibc.write(descriptor, start, bytes.count - written)
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && errno == EPIPE { throw ExitCode.success }
            guard count > 0 else { throw CommandFailure.system("cannot write to \(name)") }
            written += count
        }
    }
}
