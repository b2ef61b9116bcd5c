import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// TCP ports on 127.0.0.1 for servers that tests start as separate processes.
enum FreePort {
    enum Failure: Error, CustomStringConvertible {
        case socket(String, errno: Int32)

        var description: String {
            switch self {
            case .socket(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
            }
        }
    }

    /// A port on 127.0.0.1 that nothing listens on: the kernel's pick for a socket bound to port 0, closed again
    /// before returning. Another process may take it before the caller binds it, so callers retry on a bind
    /// failure.
    static func pick() throws -> UInt16 {
        let descriptor = socket(AF_INET, streamType, 0)
        guard descriptor >= 0 else { throw Failure.socket("socket", errno: errno) }
        defer { close(descriptor) }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw Failure.socket("bind", errno: errno) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw Failure.socket("getsockname", errno: errno) }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port` (the connection is closed at once).
    static func accepts(_ port: UInt16) -> Bool {
        guard let descriptor = try? connect(port: port) else { return false }
        close(descriptor)
        return true
    }

    /// A blocking TCP socket connected to 127.0.0.1:`port`; the caller closes it.
    static func connect(port: UInt16) throws -> Int32 {
        let descriptor = socket(AF_INET, streamType, 0)
        guard descriptor >= 0 else { throw Failure.socket("socket", errno: errno) }
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connectSocket(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            close(descriptor)
            throw Failure.socket("connect to 127.0.0.1:\(port)", errno: code)
        }
        return descriptor
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        return address
    }

    #if canImport(Glibc)
    private static var streamType: Int32 { Int32(SOCK_STREAM.rawValue) }
    private static func connectSocket(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        Glibc.connect(fd, address, length)
    }
    #else
    private static var streamType: Int32 { SOCK_STREAM }
    private static func connectSocket(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        Darwin.connect(fd, address, length)
    }
    #endif
}
