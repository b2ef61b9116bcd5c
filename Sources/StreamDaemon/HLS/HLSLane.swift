import CSendRing
import Glibc
import Logging
import NIOCore

/// The HLS players' connections, served through the io_uring of a `RingEventLoop` instead of NIO channels: a
/// player asks twice a part (a blocking reload and the part), and NIO's read, decode and write path per request, and
/// an epoll loop's wake for every few requests, cost more than the kernel's work for them. Receives and sends are
/// queued in the ring and submitted together once per turn of the loop.
///
/// A connection comes here when its first bytes are `GET /hls/` or `HEAD /hls/` (`HLSLaneConnection`); every
/// other one, and any request here that is not a plain HLS request, goes back to NIO with what was read of it.
/// Confined to its loop.
final class HLSLane {
    let eventLoop: RingEventLoop
    let server: HTTPServer
    /// The listening socket's count of open connections, which a connection closed here leaves.
    let limit: ConnectionLimit?
    private let logger: Logger
    /// Whether a send may be linked to the receive of the next request (`sendThenReceive`).
    let linksSends: Bool
    private var connections: [UInt64: HLSLaneConnection] = [:]
    private var lastID: UInt64 = 0
    /// Set once the ring failed, or the daemon stops: new connections go to NIO.
    private var closed = false
    /// Set once the daemon stops: the loop stops once the last connection here has closed.
    private var stopping = false

    /// A lane on `eventLoop`, which hands it the completions of its ring; call on the loop.
    init(eventLoop: RingEventLoop, server: HTTPServer, limit: ConnectionLimit?, logger: Logger) {
        eventLoop.preconditionInEventLoop()
        self.eventLoop = eventLoop
        self.server = server
        self.limit = limit
        self.logger = logger
        linksSends = eventLoop.ring.map { connection_ring_links($0) != 0 } ?? false
        let lane = NIOLoopBound(self, eventLoop: eventLoop)
        eventLoop.onCompletion = { tag, result in
            lane.value.connections[tag >> 1]?.completed(result, bySend: tag & 1 == 1)
        }
        eventLoop.onFailure = { lane.value.failed($0) }
        _ = eventLoop.scheduleRepeatedTask(initialDelay: .seconds(1), delay: .seconds(1)) { _ in
            lane.value.closeOverdue()
        }
    }

    /// Serves `connection` if its first bytes are an HLS request's, else hands it back to NIO.
    func offer(_ connection: CInt, handBack: @escaping (ByteBuffer?) -> Void) {
        eventLoop.preconditionInEventLoop()
        guard eventLoop.ring != nil, !closed else { return handBack(nil) }
        lastID += 1
        let served = HLSLaneConnection(id: lastID, descriptor: connection, lane: self, handBack: handBack)
        connections[lastID] = served
        served.start()
    }

    // MARK: - For the connections

    /// Queues a receive into `buffer`, or a peek, for `connection`; false when the ring failed.
    func receive(_ connection: HLSLaneConnection, into buffer: UnsafeMutableRawBufferPointer, peek: Bool) -> Bool {
        guard let ring = eventLoop.ring else { return false }
        return queued(connection_ring_receive(ring, connection.descriptor, buffer.baseAddress, UInt32(buffer.count),
                                              peek ? 1 : 0, Self.tag(connection, send: false)))
    }

    /// Queues a send of `bytes` (a pointer the connection keeps valid) for `connection`; false when the ring failed.
    func send(_ connection: HLSLaneConnection, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let ring = eventLoop.ring else { return false }
        return queued(connection_ring_send(ring, connection.descriptor, bytes.baseAddress, UInt32(bytes.count),
                                           Self.tag(connection, send: true)))
    }

    /// Queues a send of all of `bytes` for `connection`, and once it is made a receive into `buffer`: one
    /// completion for both when the send succeeds, the receive's (`linksSends` must be true). False when the ring
    /// failed.
    func sendThenReceive(_ connection: HLSLaneConnection, _ bytes: UnsafeRawBufferPointer,
                         into buffer: UnsafeMutableRawBufferPointer) -> Bool {
        guard let ring = eventLoop.ring else { return false }
        return queued(connection_ring_send_then_receive(
            ring, connection.descriptor, bytes.baseAddress, UInt32(bytes.count), Self.tag(connection, send: true),
            buffer.baseAddress, UInt32(buffer.count), Self.tag(connection, send: false)))
    }

    /// An operation's tag: its connection, and whether it is a send.
    private static func tag(_ connection: HLSLaneConnection, send: Bool) -> UInt64 {
        connection.id << 1 | (send ? 1 : 0)
    }

    /// Whether an operation was queued; when the ring failed, the lane closes.
    private func queued(_ result: CInt) -> Bool {
        guard result != 0 else { return true }
        failed(result)
        return false
    }

    private func failed(_ error: CInt) {
        guard !closed else { return }
        let reason = String(cString: strerror(-error))
        logger.error("io_uring failed (\(reason)): HLS players are served by NIO from now on")
        closeAll()
    }

    /// Forgets a connection that closed, or went back to NIO.
    func remove(_ connection: HLSLaneConnection) {
        connections[connection.id] = nil
        if stopping, connections.isEmpty { eventLoop.shutdownGracefully { _ in } }
    }

    /// Closes the connections that waited too long for a request or for a send: their deadline passed.
    private func closeOverdue() {
        let now = NIODeadline.now()
        for connection in connections.values where connection.deadline.map({ $0 < now }) ?? false {
            connection.close()
        }
    }

    /// Closes every connection, then stops the loop; those that come later go to NIO.
    func close() {
        eventLoop.preconditionInEventLoop()
        guard !stopping else { return }
        stopping = true
        closeAll()
        if connections.isEmpty { eventLoop.shutdownGracefully { _ in } }
    }

    private func closeAll() {
        closed = true
        for connection in connections.values { connection.close() }
    }
}
