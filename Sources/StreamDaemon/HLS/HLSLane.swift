import CSendRing
import Glibc
import Logging
import NIOCore
import NIOPosix

/// The HLS players' connections of one event loop, served through one io_uring instead of NIO channels: a player
/// asks twice a part (a blocking reload and the part), and NIO's read, decode and write path per request cost more
/// than the kernel's work for it. Receives and sends are queued in the ring and submitted together, once per turn of
/// the loop; the ring's completions wake the loop through an eventfd NIO watches.
///
/// A connection comes here when its first bytes are `GET /hls/` or `HEAD /hls/` (`HLSLaneConnection`); every
/// other one, and any request here that is not a plain HLS request, goes back to NIO with what was read of it.
/// Where io_uring or the eventfd is refused, every connection goes to NIO. Confined to its loop.
final class HLSLane {
    let eventLoop: EventLoop
    let server: HTTPServer
    /// The listening socket's count of open connections, which a connection closed here leaves.
    let limit: ConnectionLimit?
    private let logger: Logger
    /// Every loop's lane, where a player's connection moves to its stream's loop.
    weak var directory: HLSLanes?
    private var ring: OpaquePointer?
    /// Whether a send may be linked to the receive of the next request (`sendThenReceive`).
    private(set) var linksSends = false
    private var connections: [UInt64: HLSLaneConnection] = [:]
    private var lastID: UInt64 = 0
    /// Whether a submission is due at the end of this turn, or of the completions being taken.
    private var submitScheduled = false
    private var reaping = false
    /// Set once the daemon stops, or the ring failed: new connections go to NIO.
    private var closed = false
    /// Completions taken per call, reused.
    private var tags = [UInt64](repeating: 0, count: 256)
    private var results = [Int32](repeating: 0, count: 256)

    /// Operations per submission; more wait for the next.
    private static let entries: UInt32 = 256

    init(eventLoop: EventLoop, server: HTTPServer, limit: ConnectionLimit?, logger: Logger) {
        self.eventLoop = eventLoop
        self.server = server
        self.limit = limit
        self.logger = logger
    }

    /// Opens the ring and has the loop watch its eventfd; where either is refused, the lane serves nothing.
    /// - Returns: whether the lane serves.
    func open() -> EventLoopFuture<Bool> {
        eventLoop.preconditionInEventLoop()
        var descriptor: CInt = -1
        guard let ring = connection_ring_create(Self.entries, &descriptor) else {
            return refuse(errno: errno, after: "opening it")
        }
        self.ring = ring
        linksSends = connection_ring_links(ring) != 0
        let signal = descriptor
        let lane = NIOLoopBound(self, eventLoop: eventLoop)
        return NIOPipeBootstrap(group: eventLoop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Wake(lane: lane))
                }
            }
            .takingOwnershipOfDescriptor(input: signal)
            .map { channel in
                _ = channel.eventLoop.scheduleRepeatedTask(initialDelay: .seconds(1), delay: .seconds(1)) { _ in
                    lane.value.closeOverdue()
                }
                return true
            }
            .flatMapError { error in
                let lane = lane.value
                lane.ring.map(connection_ring_destroy)
                lane.ring = nil
                Glibc.close(signal)
                return lane.refuse(errno: EINVAL, after: "watching its eventfd (\(error))")
            }
    }

    private func refuse(errno: CInt, after step: String) -> EventLoopFuture<Bool> {
        logger.notice("io_uring failed \(step) (\(String(cString: strerror(errno)))): HLS players are served by NIO")
        return eventLoop.makeSucceededFuture(false)
    }

    /// Serves `connection` if its first bytes are an HLS request's, else hands it back to NIO.
    func offer(_ connection: CInt, handBack: @escaping @Sendable (ByteBuffer?) -> Void) {
        eventLoop.preconditionInEventLoop()
        guard ring != nil, !closed else { return handBack(nil) }
        add(connection, handBack: handBack).start()
    }

    /// Serves a player's connection that another lane took, with what it read there and did not answer.
    func adopt(_ connection: CInt, read: ByteBuffer, address: String,
               handBack: @escaping @Sendable (ByteBuffer?) -> Void) {
        eventLoop.preconditionInEventLoop()
        guard ring != nil, !closed else { return handBack(read) }
        add(connection, handBack: handBack).resume(read: read, address: address)
    }

    private func add(_ connection: CInt, handBack: @escaping @Sendable (ByteBuffer?) -> Void) -> HLSLaneConnection {
        lastID += 1
        let served = HLSLaneConnection(id: lastID, descriptor: connection, lane: self, handBack: handBack)
        connections[lastID] = served
        return served
    }

    /// Has the lane of `loop` serve `connection` from now on, with `read`, the bytes read and not answered;
    /// false when it cannot.
    func move(_ connection: CInt, read: ByteBuffer, address: String, to loop: EventLoop,
              handBack: @escaping @Sendable (ByteBuffer?) -> Void) -> Bool {
        directory?.move(connection, read: read, address: address, to: loop, handBack: handBack) ?? false
    }

    // MARK: - For the connections

    /// Queues a receive into `buffer`, or a peek, for `connection`; false when the ring failed.
    func receive(_ connection: HLSLaneConnection, into buffer: UnsafeMutableRawBufferPointer, peek: Bool) -> Bool {
        guard let ring else { return false }
        let queued = connection_ring_receive(ring, connection.descriptor, buffer.baseAddress, UInt32(buffer.count),
                                             peek ? 1 : 0, Self.tag(connection, send: false))
        scheduleSubmit()
        return queued == 0
    }

    /// Queues a send of `bytes` (a pointer the connection keeps valid) for `connection`; false when the ring failed.
    func send(_ connection: HLSLaneConnection, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let ring else { return false }
        let queued = connection_ring_send(ring, connection.descriptor, bytes.baseAddress, UInt32(bytes.count),
                                          Self.tag(connection, send: true))
        scheduleSubmit()
        return queued == 0
    }

    /// Queues a send of all of `bytes` for `connection`, and once it is made a receive into `buffer`: one
    /// completion for both when the send succeeds, the receive's (`linksSends` must be true). False when the ring
    /// failed.
    func sendThenReceive(_ connection: HLSLaneConnection, _ bytes: UnsafeRawBufferPointer,
                         into buffer: UnsafeMutableRawBufferPointer) -> Bool {
        guard let ring else { return false }
        let queued = connection_ring_send_then_receive(
            ring, connection.descriptor, bytes.baseAddress, UInt32(bytes.count), Self.tag(connection, send: true),
            buffer.baseAddress, UInt32(buffer.count), Self.tag(connection, send: false))
        scheduleSubmit()
        return queued == 0
    }

    /// An operation's tag: its connection, and whether it is a send.
    private static func tag(_ connection: HLSLaneConnection, send: Bool) -> UInt64 {
        connection.id << 1 | (send ? 1 : 0)
    }

    /// Forgets a connection that closed, or went back to NIO.
    func remove(_ connection: HLSLaneConnection) {
        connections[connection.id] = nil
    }

    /// One submission for everything queued in this turn of the loop: the answers of a new part to every waiting
    /// player go in one system call.
    private func scheduleSubmit() {
        guard !submitScheduled, !reaping else { return }
        submitScheduled = true
        let lane = NIOLoopBound(self, eventLoop: eventLoop)
        eventLoop.execute { lane.value.submit() }
    }

    private func submit() {
        submitScheduled = false
        guard let ring else { return }
        let failed = connection_ring_submit(ring)
        switch -failed {
        case 0: return
        // The kernel holds completions not taken yet, or lacks memory for now: taken, and submitted again soon.
        case EBUSY, EAGAIN:
            reap()
            let lane = NIOLoopBound(self, eventLoop: eventLoop)
            eventLoop.scheduleTask(in: .milliseconds(10)) { lane.value.scheduleSubmit() }
        default:
            logger.error("io_uring failed (\(String(cString: strerror(-failed)))): HLS players are served by NIO from now on")
            close()
        }
    }

    /// Hands each completion to its connection, until there are none, then submits what they queued.
    private func reap() {
        guard let ring else { return }
        reaping = true
        while true {
            let count = Int(connection_ring_reap(ring, &tags, &results, UInt32(tags.count)))
            guard count > 0 else { break }
            for index in 0..<count {
                connections[tags[index] >> 1]?.completed(results[index], bySend: tags[index] & 1 == 1)
            }
        }
        reaping = false
        submit()
    }

    /// Closes the connections that waited too long for a request or for a send: their deadline passed.
    private func closeOverdue() {
        let now = NIODeadline.now()
        for connection in connections.values where connection.deadline.map({ $0 < now }) ?? false {
            connection.close()
        }
    }

    /// Closes every connection; those that come later go to NIO.
    func close() {
        eventLoop.preconditionInEventLoop()
        closed = true
        for connection in connections.values { connection.close() }
    }

    /// Reads the eventfd, which posted completions raise, and takes them.
    private final class Wake: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        private let lane: NIOLoopBound<HLSLane>

        init(lane: NIOLoopBound<HLSLane>) {
            self.lane = lane
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            lane.value.reap()
        }
    }
}
