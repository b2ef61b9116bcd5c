import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A plain blocking TCP connection to 127.0.0.1, for requests no well-behaved client sends and for clients that
/// stop reading. Used by one thread at a time.
final class RawConnection: @unchecked Sendable {
    let descriptor: Int32

    /// Connects; `receiveBuffer` shrinks the kernel's receive buffer first, for a client that never reads.
    init(port: UInt16, receiveBuffer: Int32? = nil) throws {
        if var size = receiveBuffer {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            self.descriptor = descriptor
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else { throw FreePort.Failure.socket("connect", errno: errno) }
        } else {
            descriptor = try FreePort.connect(port: port)
        }
        var slice = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &slice, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(descriptor)
    }

    func send(_ text: String) {
        send(Data(text.utf8))
    }

    func send(_ bytes: Data) {
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads until the server closes the connection or `timeout` passes.
    /// - Returns: what arrived, and whether the server closed the connection.
    func readToEnd(timeout: TimeInterval = 20) -> (bytes: Data, closed: Bool) {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received.append(contentsOf: buffer[0..<count])
            } else if count == 0 || errno == ECONNRESET {
                return (received, true)
            }
        }
        return (received, false)
    }

    /// The answer to `request`, read to the server's close.
    static func exchange(port: UInt16, _ request: String) throws -> (text: String, closed: Bool) {
        let connection = try RawConnection(port: port)
        connection.send(request)
        let (bytes, closed) = connection.readToEnd()
        return (String(decoding: bytes, as: UTF8.self), closed)
    }
}
