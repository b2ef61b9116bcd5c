import Foundation
import NIOConcurrencyHelpers

/// Icecast's `access.log`: the combined log format of web servers, then the seconds the client stayed, one line a
/// request when its answer is over (a listener's when it leaves), so that the tools that read Icecast's log read
/// ours. Written from every loop, one `write` a line to a file opened for appending; `reopen()` (on SIGHUP) starts
/// on the file now at the path, as log rotation expects.
final class AccessLog: Sendable {
    let path: String
    private let descriptor: NIOLockedValueBox<CInt>

    /// Opens `path` for appending, making it if needed (owner read-write, group read).
    /// - Throws: `AccessLogError` when it cannot be opened.
    init(path: String) throws {
        self.path = path
        descriptor = NIOLockedValueBox(try Self.open(path))
    }

    deinit {
        close(descriptor.withLockedValue { $0 })
    }

    /// Closes the file and opens the one at the path now; on failure the old one stays.
    /// - Throws: `AccessLogError` when the path cannot be opened.
    func reopen() throws {
        let new = try Self.open(path)
        let old = descriptor.withLockedValue { descriptor in
            defer { descriptor = new }
            return descriptor
        }
        close(old)
    }

    /// Appends `entry`'s line.
    func write(_ entry: AccessLogEntry) {
        let line = Array((entry.line + "\n").utf8)
        descriptor.withLockedValue { descriptor in
            // A full disk or a lost file loses lines, never the request they tell of.
            _ = line.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        }
    }

    /// Opens a regular file: a FIFO or a device could block the loop that writes a line (and opening a FIFO with no
    /// reader would block the start), so they are refused.
    private static func open(_ path: String) throws -> CInt {
        let descriptor = Glibc.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o640)
        // ENXIO: a FIFO nobody reads.
        guard descriptor >= 0 else { throw AccessLogError(path: path, errno: errno == ENXIO ? EINVAL : errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw AccessLogError(path: path, errno: EINVAL)
        }
        return descriptor
    }
}

/// The access log cannot be opened.
struct AccessLogError: Error, CustomStringConvertible {
    let path: String
    let errno: CInt

    var description: String {
        errno == EINVAL ? "the access log \(path) is not a regular file"
            : "cannot open the access log \(path): \(String(cString: strerror(errno)))"
    }
}

/// One request as the access log tells it.
struct AccessLogEntry: Equatable {
    var address: String
    /// The listener's user name, when one was admitted by name.
    var user: String?
    var method: String
    /// The request's target, query and all, as sent.
    var target: String
    /// `1.0` or `1.1`.
    var version: String
    var status: Int
    /// Bytes sent after the response head.
    var bytes: Int
    var referer: String?
    var userAgent: String?
    /// Seconds the client stayed.
    var seconds: Int
    /// When the answer ended.
    var date: Date

    /// `ADDRESS - USER [DATE] "METHOD TARGET HTTP/VERSION" STATUS BYTES "REFERER" "AGENT" SECONDS`, as Icecast
    /// writes it: a missing user, referer or agent is `-`; quotes, backslashes, backquotes and control characters
    /// in a field are dots (spaces too, but in the referer and agent), so that no field can end early.
    var line: String {
        let request = "\(Self.field(method)) \(Self.field(target)) HTTP/\(Self.field(version))"
        return "\(address) - \(Self.field(user ?? "-")) [\(Self.clfDate(date))] \"\(request)\" \(status) \(bytes) "
            + "\"\(Self.field(referer ?? "-", keepingSpaces: true))\" \"\(Self.field(userAgent ?? "-", keepingSpaces: true))\" "
            + "\(seconds)"
    }

    private static func field(_ text: String, keepingSpaces: Bool = false) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            let replaced = scalar.value <= 0x22 && !(keepingSpaces && scalar == " ") || scalar == "`" || scalar == "\\"
                || scalar.value == 0x7F
            return replaced ? "." : scalar
        }))
    }

    /// `06/Dec/2026:08:04:11 +0000`, in local time, as the common log format writes dates.
    static func clfDate(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var local = tm()
        localtime_r(&seconds, &local)
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%d/%b/%Y:%H:%M:%S %z", &local)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
