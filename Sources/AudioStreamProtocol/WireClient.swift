import Glibc

/// A blocking connection to a stream or control socket, for command-line clients and tests.
public final class WireClient {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0

    /// Connects to the Unix socket at `path`.
    /// - Throws: `WireClientError` naming the path and the system's reason.
    public init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw WireClientError(path: path, code: errno) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        // A throw from here on runs deinit, which closes the socket: closing it here too would close whatever
        // another thread opened under the same number meanwhile.
        guard path.utf8.count < capacity else { throw WireClientError(path: path, code: ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8)
            raw[path.utf8.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else { throw WireClientError(path: path, code: errno) }
    }

    /// Reads what another process writes to `descriptor` (a pipe), which the client then owns and closes.
    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Sends one JSON message.
    public func send(_ type: WireMessageType, json: JSON) throws {
        let message = WireProtocol.message(type, json: json)
        var sent = 0
        while sent < message.count {
            let count = message[sent...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw WireClientError(path: "socket", code: errno) }
            sent += count
        }
    }

    /// Whether bytes already received wait to be read: when false, the next `receive()` blocks.
    public var hasBufferedBytes: Bool { buffer.count > start }

    /// The next message, or nil when the server closed the connection between messages.
    /// - Throws: `WireError` for a message cut short or over the size limit.
    public func receive() throws -> WireMessage? {
        try receiveFrame().map { try WireMessage(type: $0.type, payload: $0.payload) }
    }

    /// The next frame, its type byte and payload as they came, or nil at a clean end between frames: for a stream
    /// in the wire protocol's framing with types of its own.
    /// - Throws: `WireError` for a frame cut short or over the size limit.
    public func receiveFrame() throws -> (type: UInt8, payload: ArraySlice<UInt8>)? {
        guard let header = try take(WireProtocol.headerSize, atStart: true) else { return nil }
        let length = Int(header.bigEndianInteger(at: 0, as: UInt32.self))
        guard length >= 1, length <= WireProtocol.maximumMessageSize else { throw WireError.badLength(length) }
        guard let payload = try take(length - 1, atStart: false) else { throw WireError.truncated }
        return (header[header.startIndex + 4], payload)
    }

    /// Exactly `count` bytes, or nil at a clean end of input before any of them.
    private func take(_ count: Int, atStart: Bool) throws -> ArraySlice<UInt8>? {
        while buffer.count - start < count {
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            var chunk = [UInt8](repeating: 0, count: max(65536, count - buffer.count))
            let received = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if received < 0 && errno == EINTR { continue }
            if received <= 0 {
                if atStart && buffer.count == start { return nil }
                throw WireError.truncated
            }
            buffer += chunk[..<received]
        }
        defer { start += count }
        return buffer[start..<start + count]
    }
}

/// A socket that could not be reached.
public struct WireClientError: Error, CustomStringConvertible {
    public let path: String
    /// The `errno` of the failed call.
    public let code: Int32

    public var description: String { "cannot connect to \(path): \(String(cString: strerror(code)))" }
}
