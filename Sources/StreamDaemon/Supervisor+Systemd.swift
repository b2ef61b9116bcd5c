import NIOCore

/// What the supervisor tells systemd: readiness with a one-line status, and watchdog pings while every event
/// loop answers.
extension Supervisor {
    /// How often the status line is refreshed when systemd asks for no watchdog.
    static let statusInterval = TimeAmount.seconds(10)

    /// The daemon has started (its streams, HTTP server and metrics): systemd hears that it is ready, as it will
    /// after each reload from now on.
    func started() {
        eventLoop.execute { [self] in
            state.value.started = true
            announceReady()
        }
    }

    /// `READY=1` with the current status: after the start, and after each reload.
    func announceReady() {
        guard let notifier = systemd.notifier else { return }
        eventLoop.execute { [self] in summary().whenSuccess { notifier.ready(status: $0) } }
    }

    /// Refreshes the status line, and pings the watchdog while every event loop answers.
    func startServiceTicks() {
        guard let notifier = systemd.notifier else { return }
        let interval = systemd.watchdogInterval ?? Self.statusInterval
        _ = eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { [self] _ in
            if systemd.watchdogInterval != nil { pingWatchdogIfHealthy(notifier) }
            summary().whenSuccess { notifier.status($0) }
        }
    }

    /// Every loop was asked, one tick ago, to count itself in: each that answered is running its tasks. A stuck
    /// loop (and with it the streams it parses and the subscribers it writes to) withholds the ping, so that
    /// systemd restarts the daemon.
    private func pingWatchdogIfHealthy(_ notifier: SystemdNotifier) {
        let answered = answers.withLockedValue { count in
            defer { count = 0 }
            return count
        }
        let state = self.state.value
        if state.asked == nil || answered == state.asked {
            notifier.watchdog()
        } else {
            logger.warning("watchdog withheld: \(answered) of \(state.asked ?? 0) event loops answered in time")
        }
        let loops = Array(group.makeIterator())
        state.asked = loops.count
        let answers = answers
        for loop in loops { loop.execute { answers.withLockedValue { $0 += 1 } } }
    }

    /// Brings every stream's gauges up to date, for a metrics reader.
    func updateMetrics() -> EventLoopFuture<Void> {
        eventLoop.flatSubmit { [self] in
            EventLoopFuture.andAllComplete(state.value.streams.values.map { $0.updateMetrics() }, on: eventLoop)
        }
    }

    /// `2 streams, 1 waiting for its source, 14 subscribers`.
    private func summary() -> EventLoopFuture<String> {
        let services = Array(state.value.streams.values)
        return EventLoopFuture.whenAllSucceed(services.map { $0.summary() }, on: eventLoop).map { parts in
            let waiting = parts.filter(\.waitingForSource).count
            let subscribers = parts.reduce(0) { $0 + $1.subscribers }
            return "\(services.count) stream(s)" + (waiting > 0 ? ", \(waiting) waiting for its source" : "")
                + ", \(subscribers) subscriber(s)"
        }
    }
}
