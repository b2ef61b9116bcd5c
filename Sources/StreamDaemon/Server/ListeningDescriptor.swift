import Glibc
import NIOCore

/// Listening sockets the daemon opens itself rather than through a NIO server channel, so that it can accept
/// their connections itself (`SubscriberSocket.Listener`) or hand them to NIO (`ServerBootstrap.withBoundSocket`).
enum ListeningDescriptor {
    /// Room for a crowd of subscribers connecting at once.
    static let backlog: CInt = 4096

    /// A new socket bound to `address` and listening, closed on exec; `reuseAddress` for TCP, so that a
    /// restarted daemon finds its port free while the old connections linger.
    /// - Throws: `ListenFailure` saying in a sentence which address could not be listened on, and why.
    static func open(_ address: SocketAddress, reuseAddress: Bool = false) throws -> CInt {
        let descriptor = socket(address.protocol.rawValue, CInt(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw ListenFailure(address: address, errno: errno) }
        do {
            var one: CInt = 1
            if reuseAddress,
               setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<CInt>.size)) != 0 {
                throw ListenFailure(address: address, errno: errno)
            }
            try address.withSockAddr { pointer, size in
                guard bind(descriptor, pointer, socklen_t(size)) == 0 else {
                    throw ListenFailure(address: address, errno: errno)
                }
            }
            guard listen(descriptor, backlog) == 0 else { throw ListenFailure(address: address, errno: errno) }
        } catch {
            close(descriptor)
            throw error
        }
        return descriptor
    }
}

/// A socket the daemon could not listen on, said as an operator reads it: `cannot listen on 127.0.0.1:8000: address
/// already in use (another program listens there)`, not the system call's dump.
struct ListenFailure: Error, CustomStringConvertible {
    let address: SocketAddress
    let errno: Int32

    var description: String {
        let reason = NetworkErrorText.describe(errno: errno)
        let hint = errno == EADDRINUSE ? " (another program listens there: stop it, or choose another address)" : ""
        return "cannot listen on \(address.operatorText): \(reason)\(hint)"
    }
}

extension SocketAddress {
    /// `127.0.0.1:8000`, `[::1]:8000` or a socket file's path.
    var operatorText: String {
        switch self {
        case .v4: "\(ipAddress ?? ""):\(port ?? 0)"
        case .v6: "[\(ipAddress ?? "")]:\(port ?? 0)"
        case .unixDomainSocket: pathname ?? "a socket file"
        }
    }
}
