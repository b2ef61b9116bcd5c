import Foundation

/// A stand-in for systemd's notification socket: a datagram socket, at a path or abstract, that keeps what the
/// daemon sends.
final class NotifySocket {
    private let descriptor: Int32
    /// `$NOTIFY_SOCKET` for the daemon: the path, or `@name` for an abstract socket.
    let address: String

    init(path: String, abstract: Bool) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        address = abstract ? "@" + path : path
        var local = sockaddr_un()
        local.sun_family = sa_family_t(AF_UNIX)
        let bytes = abstract ? [0] + Array(path.utf8) : Array(path.utf8)
        withUnsafeMutableBytes(of: &local.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0 else { throw NotifySocketError(code: errno) }
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(descriptor)
    }

    /// The messages received so far and within the next 100 ms, oldest first.
    private(set) var messages: [String] = []

    /// Reads what has arrived until `condition` holds of the messages so far.
    /// - Throws: `NotifySocketError` after `timeout`, with what arrived.
    func wait(for what: String, timeout: TimeInterval = 20, _ condition: ([String]) -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !condition(messages) {
            guard Date() < deadline else { throw NotifySocketError(code: ETIMEDOUT, waitingFor: what, got: messages) }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 { messages.append(String(decoding: buffer[..<count], as: UTF8.self)) }
        }
    }
}

struct NotifySocketError: Error, CustomStringConvertible {
    var code: Int32
    var waitingFor = ""
    var got: [String] = []

    var description: String { "notify socket: \(String(cString: strerror(code))) waiting for \(waitingFor); got \(got)" }
}
