import NIOCore

/// How long a peer may take to send a whole request before its connection is closed, so that one sending a byte
/// now and then cannot hold a connection, and a descriptor, for ever. Every server of the daemon uses it: HTTP
/// listeners, subscribers, the control socket and the metrics. Confined to the channel's event loop.
///
/// One timer per connection, however many requests it sends: starting the clock only notes the deadline, and the
/// timer, when it fires, closes the connection if that deadline has passed or else waits for it. A kept-alive HLS
/// player asks twice a part; a timer scheduled and cancelled for each request would cost the loop more than the
/// answer.
final class RequestDeadline {
    private let timeout: TimeAmount
    /// When the awaited request must be whole; nil while none is awaited.
    private var deadline: NIODeadline?
    /// The timer, while one is armed.
    private var timer: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    /// Starts the clock again: `channel` is closed after `timeout` unless `met()` comes first.
    func start(for channel: Channel) {
        let due = channel.eventLoop.now + timeout
        deadline = due
        if timer == nil { arm(at: due, channel) }
    }

    /// The request is whole: the connection stays.
    func met() {
        deadline = nil
    }

    /// The connection is gone: its timer goes too.
    func stop() {
        deadline = nil
        timer?.cancel()
        timer = nil
    }

    private func arm(at due: NIODeadline, _ channel: Channel) {
        let loopBound = NIOLoopBound(self, eventLoop: channel.eventLoop)
        timer = channel.eventLoop.scheduleTask(deadline: due) { loopBound.value.fire(channel) }
    }

    /// Closes the connection if its deadline has passed, or waits for the deadline the last start set.
    private func fire(_ channel: Channel) {
        timer = nil
        guard let deadline else { return }
        if deadline <= channel.eventLoop.now {
            channel.close(promise: nil)
        } else {
            arm(at: deadline, channel)
        }
    }
}
