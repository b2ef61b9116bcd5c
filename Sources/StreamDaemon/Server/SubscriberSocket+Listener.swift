import Dispatch
import Glibc
import Logging
import NIOCore
import NIOPosix
import Synchronization

extension SubscriberSocket {
    /// Accepts the connections of a listening socket itself, rather than through a NIO server channel, so that each
    /// connection's `SubscriberSocket` knows its descriptor (see its contract).
    ///
    /// Connections are accepted on a dispatch queue as they come, each then served as a NIO channel on the next loop
    /// of the group, with small kernel and NIO buffers so that what a slow subscriber lags is in its own queue,
    /// where it is counted in seconds and bounded, not in buffers nobody sees.
    final class Listener: Sendable {
        private let queue = DispatchQueue(label: "audiostreamd.accept")
        /// What changes as connections come, touched on `queue` only: the lock, never contended, makes that checked.
        private let state: Mutex<State>
        private let descriptor: CInt
        private let group: EventLoopGroup
        private let logger: Logger
        /// Adds the protocol's handlers behind a connection's socket.
        private let initializer: Initializer
        /// How many connections may be open at once, if bounded.
        private let limit: ConnectionLimit?
        /// What may take a connection before NIO does, if anything.
        private let diverter: ConnectionDiverter?
        private let closed: EventLoopPromise<Void>

        private struct State {
            let source: DispatchSourceRead
            /// Whether accepting is paused for want of descriptors.
            var backingOff = false
            /// Whether the last connection was refused for `limit`: the log says so once, when refusals begin.
            var refusing = false
        }

        /// How long accepting pauses when the process is out of descriptors, as NIO's server channels do: the
        /// connections wait in the backlog meanwhile, instead of the queue spinning on them.
        static let backoff = TimeAmount.seconds(1)

        /// Adds the handlers that read a connection's request to its pipeline, behind its socket; they call the
        /// socket's `join` once the connection is a subscriber's.
        typealias Initializer = @Sendable (ChannelPipeline.SynchronousOperations, SubscriberSocket) throws -> Void

        /// Starts accepting on `descriptor`, a listening socket it now owns: each connection becomes a channel whose
        /// pipeline is its `SubscriberSocket`, then what `initializer` adds, made on the channel's loop. Beyond
        /// `limit`, a connection is sent the limit's refusal and closed at once.
        /// A `diverter` is offered each admitted connection first, and hands back those it does not serve.
        init(descriptor: CInt, group: EventLoopGroup, logger: Logger, limit: ConnectionLimit? = nil,
             diverter: ConnectionDiverter? = nil, initializer: @escaping Initializer) {
            self.descriptor = descriptor
            self.group = group
            self.logger = logger
            self.limit = limit
            self.diverter = diverter
            self.initializer = initializer
            closed = group.next().makePromise()
            // accept must say when the backlog is empty, not wait for the next connection.
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            state = Mutex(State(source: DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)))
            state.withLock { state in
                // The handlers hold the listener until `close()` cancels the source.
                state.source.setEventHandler { [self] in acceptPending() }
                state.source.setCancelHandler { [self] in
                    Glibc.close(descriptor)
                    closed.succeed()
                }
                state.source.resume()
            }
        }

        /// Stops accepting and closes the socket; connections already accepted stay. The future completes once the
        /// socket is closed.
        func close() -> EventLoopFuture<Void> {
            diverter?.close()
            queue.async { [self] in
                state.withLock { state in
                    state.source.cancel()
                    // A suspended source runs its cancel handler only once resumed.
                    if state.backingOff { state.source.resume() }
                    state.backingOff = false
                }
            }
            return closed.futureResult
        }

        /// Accepts every connection waiting in the backlog.
        private func acceptPending() {
            while true {
                // Glibc's module lacks accept4; NIO makes the connection non-blocking.
                let connection = accept(descriptor, nil, nil)
                guard connection < 0 else {
                    _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
                    if let limit, !limit.admit() {
                        refuse(connection, limit: limit)
                    } else {
                        state.withLock { $0.refusing = false }
                        let loop = group.next()
                        if let diverter {
                            diverter.offer(connection, on: loop) { [self] read in serve(connection, on: loop, read: read) }
                        } else {
                            serve(connection, on: loop, read: nil)
                        }
                    }
                    continue
                }
                switch errno {
                case EINTR, ECONNABORTED: continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    logger.error("cannot accept subscribers for now: \(String(cString: strerror(errno)))")
                    backOff()
                    return
                default: return
                }
            }
        }

        private func backOff() {
            state.withLock { state in
                state.backingOff = true
                state.source.suspend()
            }
            // A loop's timer, not the queue's: dispatch may need a new descriptor for a timer, and there are none.
            group.next().scheduleTask(in: Self.backoff) { [self] in
                queue.async { [self] in
                    let resumed = state.withLock { state in
                        guard state.backingOff else { return false }
                        state.backingOff = false
                        state.source.resume()
                        return true
                    }
                    // The source reports connections that come from now on, not those that waited meanwhile.
                    if resumed { acceptPending() }
                }
            }
        }

        /// Sends what the socket takes at once of the refusal, and closes.
        private func refuse(_ connection: CInt, limit: ConnectionLimit) {
            let wasRefusing = state.withLock { state in
                defer { state.refusing = true }
                return state.refusing
            }
            if !wasRefusing { logger.warning("refusing connections: \(limit.maximum) are open, the most allowed") }
            _ = limit.refusal.withUnsafeBytes {
                send(connection, $0.baseAddress, $0.count, CInt(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            Glibc.close(connection)
        }

        /// Serves `connection` as a channel of `loop`, whose handlers get `read` first: what was read from the
        /// connection before, if anything.
        private func serve(_ connection: CInt, on loop: EventLoop, read: ByteBuffer?) {
            var sendBuffer: CInt = 64 * 1024
            _ = setsockopt(connection, SOL_SOCKET, SO_SNDBUF, &sendBuffer, socklen_t(MemoryLayout<CInt>.size))
            let (initializer, logger, limit) = (initializer, logger, limit)
            // Made on the loop that serves it, so that the channel's memory is that thread's, not the accepting one's.
            loop.execute {
                ClientBootstrap(group: loop)
                    .channelOption(.writeBufferWaterMark, value: .init(low: 32 * 1024, high: 64 * 1024))
                    // A subscriber sends a hello or a request head and then nothing: the buffer a channel reads
                    // into is kept for its life, so it starts small (NIO's starts at 2 KiB) and grows if need be.
                    .channelOption(.recvAllocator, value: AdaptiveRecvByteBufferAllocator(
                        minimum: 64, initial: 256, maximum: 64 * 1024))
                    .channelInitializer { channel in
                        channel.eventLoop.makeCompletedFuture {
                            let socket = SubscriberSocket(descriptor: connection)
                            try channel.pipeline.syncOperations.addHandler(socket)
                            if let read { try channel.pipeline.syncOperations.addHandler(ReadReplay(read)) }
                            try initializer(channel.pipeline.syncOperations, socket)
                        }
                    }
                    .withConnectedSocket(connection)
                    .whenComplete { result in
                        switch result {
                        case .success(let channel): channel.closeFuture.whenComplete { _ in limit?.release() }
                        case .failure(let error):
                            limit?.release()
                            logger.warning("could not serve a connection: \(error)")
                        }
                    }
            }
        }
    }
}
