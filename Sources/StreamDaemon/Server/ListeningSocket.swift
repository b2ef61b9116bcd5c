import NIOCore
import NIOPosix

/// A listening Unix socket: the one systemd passed by socket activation, or a file the daemon creates.
struct ListeningSocket {
    let channel: Channel
    /// The socket file the daemon created, and so removes when done; nil for one systemd passed, which it owns.
    let createdFile: String?

    /// Listens on the socket systemd passed for `name` (or for `socket.path`), or else binds a new socket file
    /// that appears only once it listens, with its configured mode and owner.
    static func listen(
        _ bootstrap: ServerBootstrap, on socket: SocketConfig, name: String, inherited: InheritedSockets,
        eventLoop: EventLoop
    ) -> EventLoopFuture<ListeningSocket> {
        if let descriptor = inherited.take(name: name, path: socket.path) {
            return bootstrap.withBoundSocket(descriptor).map { ListeningSocket(channel: $0, createdFile: nil) }
        }
        do {
            try SocketFile.prepare(socket.path)
        } catch {
            return eventLoop.makeFailedFuture(error)
        }
        return bootstrap.bind(unixDomainSocketPath: SocketFile.temporaryPath(for: socket.path))
            .flatMapThrowing { channel in
                do {
                    try SocketFile.publish(socket)
                } catch {
                    channel.close(promise: nil)
                    throw error
                }
                return ListeningSocket(channel: channel, createdFile: socket.path)
            }
    }

    /// Stops listening; removes the socket file if the daemon made it.
    func close() -> EventLoopFuture<Void> {
        if let createdFile { SocketFile.remove(createdFile) }
        return channel.close()
    }
}
