import Logging
import NIOCore
import Synchronization

/// Diverts the HTTP server's connections whose first request is an HLS player's to an `HLSLane` on a
/// `RingEventLoop` of its own; every other one goes to NIO.
final class HLSLaneDiverter: ConnectionDiverter {
    private let lane: NIOLoopBoundBox<HLSLane>
    /// Whether `close()` was called; under this lock a connection's offer and the close reach the lane in the
    /// order they came, so that none is offered to a loop that has stopped.
    private let closed = Mutex(false)

    /// Starts the lane's loop; nil, logged, where io_uring is refused.
    static func open(server: HTTPServer, limit: ConnectionLimit?, logger: Logger) -> HLSLaneDiverter? {
        let loop: RingEventLoop
        do {
            loop = try RingEventLoop(name: "hls-lane")
        } catch {
            logger.notice("io_uring failed (\(error)): HLS players are served by NIO")
            return nil
        }
        // Made on the loop, which stops only when told to: the wait cannot fail.
        let lane = try! loop.submit {
            NIOLoopBoundBox.makeBoxSendingValue(HLSLane(eventLoop: loop, server: server, limit: limit, logger: logger),
                                                eventLoop: loop)
        }.wait()
        logger.info("HLS players served through io_uring on a thread of their own")
        return HLSLaneDiverter(lane: lane)
    }

    private init(lane: NIOLoopBoundBox<HLSLane>) {
        self.lane = lane
    }

    func offer(_ connection: CInt, on loop: EventLoop, handBack: @escaping @Sendable (ByteBuffer?) -> Void) {
        let lane = lane
        let offered = closed.withLock { closed in
            if !closed {
                lane.eventLoop.execute {
                    lane.value.offer(connection) { read in loop.execute { handBack(read) } }
                }
            }
            return !closed
        }
        if !offered { loop.execute { handBack(nil) } }
    }

    func close() {
        let lane = lane
        closed.withLock { closed in
            closed = true
            lane.eventLoop.execute { lane.value.close() }
        }
    }
}
