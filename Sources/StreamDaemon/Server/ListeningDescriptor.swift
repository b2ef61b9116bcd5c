import Glibc
import NIOCore

/// Listening sockets the daemon opens itself rather than through a NIO server channel, so that it can accept
/// their connections itself (`SubscriberSocket.Listener`) or hand them to NIO (`ServerBootstrap.withBoundSocket`).
enum ListeningDescriptor {
    /// Room for a crowd of subscribers connecting at once.
    static let backlog: CInt = 4096

    /// A new socket bound to `address` and listening, closed on exec; `reuseAddress` for TCP, so that a
    /// restarted daemon finds its port free while the old connections linger.
    /// - Throws: `IOError` naming the call that failed.
    static func open(_ address: SocketAddress, reuseAddress: Bool = false) throws -> CInt {
        let descriptor = socket(address.protocol.rawValue, CInt(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw IOError(errnoCode: errno, reason: "socket") }
        do {
            var one: CInt = 1
            if reuseAddress,
               setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<CInt>.size)) != 0 {
                throw IOError(errnoCode: errno, reason: "setsockopt(SO_REUSEADDR)")
            }
            try address.withSockAddr { pointer, size in
                guard bind(descriptor, pointer, socklen_t(size)) == 0 else {
                    throw IOError(errnoCode: errno, reason: "bind(\(address))")
                }
            }
            guard listen(descriptor, backlog) == 0 else { throw IOError(errnoCode: errno, reason: "listen") }
        } catch {
            close(descriptor)
            throw error
        }
        return descriptor
    }
}
