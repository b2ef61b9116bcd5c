import Logging
import NIOCore
import NIOPosix

/// A listening Unix socket: the one systemd passed by socket activation, or a file the daemon creates.
struct ListeningSocket {
    /// Stops accepting connections; the future completes once the socket is closed.
    private let stopAccepting: @Sendable () -> EventLoopFuture<Void>
    /// The socket file the daemon created, and so removes when done; nil for one systemd passed, which it owns.
    let createdFile: String?

    /// A socket whose connections `channel`, a NIO server channel, accepts.
    init(channel: Channel, createdFile: String?) {
        stopAccepting = { channel.close() }
        self.createdFile = createdFile
    }

    private init(createdFile: String?, stopAccepting: @escaping @Sendable () -> EventLoopFuture<Void>) {
        self.stopAccepting = stopAccepting
        self.createdFile = createdFile
    }

    /// Listens through `bootstrap`, a NIO server, on the socket described at `listen(on:name:inherited:eventLoop:accept:)`.
    static func listen(
        _ bootstrap: ServerBootstrap, on socket: SocketConfig, name: String, inherited: InheritedSockets,
        eventLoop: EventLoop
    ) -> EventLoopFuture<ListeningSocket> {
        listen(on: socket, name: name, inherited: inherited, eventLoop: eventLoop) { descriptor in
            bootstrap.withBoundSocket(descriptor).map { channel in { channel.close() } }
        }
    }

    /// Listens for subscribers, each accepted by the daemon itself (`SubscriberSocket.Listener`) and served on
    /// the next loop of `group` behind its `SubscriberSocket`, by the handlers `initializer` adds.
    static func listen(
        subscribersOn socket: SocketConfig, name: String, inherited: InheritedSockets, group: EventLoopGroup,
        eventLoop: EventLoop, logger: Logger, initializer: @escaping SubscriberSocket.Listener.Initializer
    ) -> EventLoopFuture<ListeningSocket> {
        listen(on: socket, name: name, inherited: inherited, eventLoop: eventLoop) { descriptor in
            let listener = SubscriberSocket.Listener(descriptor: descriptor, group: group, logger: logger,
                                                     initializer: initializer)
            return eventLoop.makeSucceededFuture { listener.close().hop(to: eventLoop) }
        }
    }

    /// Listens on the socket systemd passed for `name` (or for `socket.path`), or else binds a new socket file
    /// that appears only once it listens, with its configured mode and owner. `accept` starts accepting on the
    /// listening descriptor, which it then owns, and gives what stops it.
    private static func listen(
        on socket: SocketConfig, name: String, inherited: InheritedSockets, eventLoop: EventLoop,
        accept: (CInt) -> EventLoopFuture<@Sendable () -> EventLoopFuture<Void>>
    ) -> EventLoopFuture<ListeningSocket> {
        if let descriptor = inherited.take(name: name, path: socket.path) {
            return accept(descriptor).map { ListeningSocket(createdFile: nil, stopAccepting: $0) }
        }
        let descriptor: CInt
        do {
            try SocketFile.prepare(socket.path)
            let temporary = try SocketAddress(unixDomainSocketPath: SocketFile.temporaryPath(for: socket.path))
            descriptor = try ListeningDescriptor.open(temporary)
        } catch {
            return eventLoop.makeFailedFuture(error)
        }
        return accept(descriptor).flatMapThrowing { stopAccepting in
            do {
                try SocketFile.publish(socket)
            } catch {
                _ = stopAccepting()
                throw error
            }
            return ListeningSocket(createdFile: socket.path, stopAccepting: stopAccepting)
        }
    }

    /// Stops listening; removes the socket file if the daemon made it.
    func close() -> EventLoopFuture<Void> {
        if let createdFile { SocketFile.remove(createdFile) }
        return stopAccepting()
    }
}
