import Logging
import NIOCore

/// An on-demand stream's source follows its audience: it connects when the first subscriber or listener comes,
/// and leaves `idle` seconds after the last one has gone, unless someone came back meanwhile.
///
/// Confined to the stream's loop; the attendance, counted on every loop, calls it there.
final class DemandWatch {
    private let idle: TimeAmount
    private let attendance: Attendance
    private unowned let sources: SourceSwitch
    private let eventLoop: EventLoop
    private let logger: Logger
    private var leaving: Scheduled<Void>?
    /// Set by `stop()`: a look queued before it, or a timer already firing, does nothing.
    private var stopped = false

    init(idle: Double, attendance: Attendance, sources: SourceSwitch, eventLoop: EventLoop, logger: Logger) {
        self.idle = .nanoseconds(Int64(idle * 1e9))
        self.attendance = attendance
        self.sources = sources
        self.eventLoop = eventLoop
        self.logger = logger
    }

    /// Watches the attendance from now on; the sources must be started.
    func start() {
        eventLoop.preconditionInEventLoop()
        let (eventLoop, loopBound) = (eventLoop, NIOLoopBound(WeakBox(self), eventLoop: eventLoop))
        attendance.watch { eventLoop.execute { loopBound.value.watch?.look() } }
        look()
    }

    /// Stops watching: the sources are stopped.
    func stop() {
        eventLoop.preconditionInEventLoop()
        stopped = true
        attendance.watch {}
        leaving?.cancel()
        leaving = nil
    }

    private func look() {
        guard !stopped else { return }
        if !attendance.isEmpty {
            leaving?.cancel()
            leaving = nil
            guard sources.isAsleep else { return }
            logger.info("someone is listening: connecting")
            sources.wake()
        } else if leaving == nil, !sources.isAsleep {
            let loopBound = NIOLoopBound(self, eventLoop: eventLoop)
            leaving = eventLoop.scheduleTask(in: idle) {
                let watch = loopBound.value
                watch.leaving = nil
                guard !watch.stopped, watch.attendance.isEmpty else { return }
                watch.logger.info("no one has listened for \((Double(watch.idle.nanoseconds) / 1e9).secondsText) s: disconnecting")
                watch.sources.sleep()
            }
        }
    }

    /// The watch, without keeping it: the attendance outlives it.
    private final class WeakBox {
        weak var watch: DemandWatch?
        init(_ watch: DemandWatch) { self.watch = watch }
    }
}
