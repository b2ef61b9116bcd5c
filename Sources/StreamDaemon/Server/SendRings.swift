import Logging
import NIOCore

/// A `SendRing` for each event loop of the daemon, shared by the hubs of every stream on that loop: one io_uring a
/// thread, however many streams the daemon serves.
final class SendRings: Sendable {
    private let rings: [NIOLoopBoundBox<SendRing>]

    init(loops: [EventLoop], logger: Logger) {
        rings = loops.map { .makeBoxSendingValue(SendRing(eventLoop: $0, logger: logger), eventLoop: $0) }
    }

    /// The ring of `loop`; call on `loop`.
    func ring(on loop: EventLoop) -> SendRing {
        rings.first { $0.eventLoop === loop }!.value
    }
}
