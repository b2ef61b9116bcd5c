#if canImport(Glibc)
import Glibc
#endif

/// Messages for the user on standard error that do not stop the command.
enum Diagnostics {
    static func warn(_ message: String) {
        let line = Array("audiostream: warning: \(message)\n".utf8)
        _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
