import Logging
import NIOCore

/// An `HLSLane` on each event loop of the HTTP server: the connections whose first request is an HLS player's are
/// served there, every other one by NIO.
final class HLSLanes: ConnectionDiverter {
    private let lanes: [NIOLoopBoundBox<HLSLane>]

    /// Opens a lane on each of `loops`; those where io_uring is refused hand every connection to NIO.
    static func open(loops: [EventLoop], server: HTTPServer, limit: ConnectionLimit?,
                     logger: Logger) -> EventLoopFuture<HLSLanes> {
        let lanes = loops.map { loop in
            NIOLoopBoundBox.makeBoxSendingValue(HLSLane(eventLoop: loop, server: server, limit: limit, logger: logger),
                                                eventLoop: loop)
        }
        let made = HLSLanes(lanes: lanes)
        let opened = lanes.map { box in
            box.eventLoop.flatSubmit {
                box.value.directory = made
                return box.value.open()
            }
        }
        return EventLoopFuture.whenAllSucceed(opened, on: loops[0]).map { serving in
            let count = serving.filter { $0 }.count
            if count > 0 { logger.info("HLS players served through io_uring on \(count) of \(loops.count) event loops") }
            return made
        }
    }

    private init(lanes: [NIOLoopBoundBox<HLSLane>]) {
        self.lanes = lanes
    }

    func offer(_ connection: CInt, on loop: EventLoop, handBack: @escaping @Sendable (ByteBuffer?) -> Void) {
        guard let box = lanes.first(where: { $0.eventLoop === loop }) else { return handBack(nil) }
        loop.execute { box.value.offer(connection, handBack: handBack) }
    }

    /// Has the lane on `loop` serve `connection`, of which `read` was read and not answered yet; false when
    /// no lane is on `loop`.
    func move(_ connection: CInt, read: ByteBuffer, address: String, to loop: EventLoop,
              handBack: @escaping @Sendable (ByteBuffer?) -> Void) -> Bool {
        guard let box = lanes.first(where: { $0.eventLoop === loop }) else { return false }
        loop.execute { box.value.adopt(connection, read: read, address: address, handBack: handBack) }
        return true
    }

    func close() {
        for box in lanes { box.eventLoop.execute { box.value.close() } }
    }
}
