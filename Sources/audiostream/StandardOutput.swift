#if canImport(Glibc)
import Glibc
#endif

/// Buffered writes to standard output, so a line per packet does not cost a system call per packet.
final class StandardOutput {
    private var buffer: [UInt8] = []
    private static let flushThreshold = 64 * 1024

    init() {
        buffer.reserveCapacity(Self.flushThreshold * 2)
    }

    deinit {
        flush()
    }

    /// Writes `line` and a newline.
    func line(_ line: String) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(0x0A)
        if buffer.count >= Self.flushThreshold { flush() }
    }

    func flush() {
        buffer.withUnsafeBytes { bytes in
            var written = 0
            while written < bytes.count {
                let count = write(STDOUT_FILENO, bytes.baseAddress! + written, bytes.count - written)
                if count <= 0 {
                    if count < 0 && errno == EINTR { continue }
                    return
                }
                written += count
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
