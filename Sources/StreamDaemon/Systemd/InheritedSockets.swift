import Glibc
import NIOCore

/// Listening sockets handed over by systemd's socket activation (`$LISTEN_FDS` from descriptor 3 on, named by
/// `$LISTEN_FDNAMES`), to be used instead of creating sockets.
///
/// Each is kept open for the whole run and lent out as a duplicate, so a stream restarted by a reload gets its
/// socket again, and connections waiting in its backlog are not lost.
public final class InheritedSockets: Sendable {
    private let sockets: [(name: String, path: String?, descriptor: Int32)]

    /// The sockets `environment` describes; none unless `$LISTEN_PID` is this process.
    public init(environment: [String: String]) {
        guard environment["LISTEN_PID"] == String(getpid()), let count = environment["LISTEN_FDS"].flatMap(Int32.init),
              count > 0
        else {
            sockets = []
            return
        }
        let names = environment["LISTEN_FDNAMES"]?.split(separator: ":", omittingEmptySubsequences: false).map(String.init) ?? []
        sockets = (0..<count).map { index in
            let descriptor = 3 + index
            // Not for child processes, should the daemon ever start any.
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            return (names.indices.contains(Int(index)) ? names[Int(index)] : "unknown", Self.path(of: descriptor), descriptor)
        }
    }

    public var isEmpty: Bool { sockets.isEmpty }

    /// A duplicate of the socket named `name`, or else of the one bound to `path`; nil when systemd passed none.
    func take(name: String, path: String) -> Int32? {
        let socket = sockets.first { $0.name == name } ?? sockets.first { $0.path == path }
        return socket.map { fcntl($0.descriptor, F_DUPFD_CLOEXEC, 3) }
    }

    /// The names and paths passed, for the log.
    public var summary: String {
        sockets.map { "\($0.name)=\($0.path ?? "?")" }.joined(separator: ", ")
    }

    /// The file path a Unix socket is bound to, or nil for other sockets.
    private static func path(of descriptor: Int32) -> String? {
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0, address.sun_family == sa_family_t(AF_UNIX) else { return nil }
        let bytes = withUnsafeBytes(of: address.sun_path) { Array($0.prefix { $0 != 0 }) }
        return bytes.first == nil ? nil : String(decoding: bytes, as: UTF8.self)
    }
}
