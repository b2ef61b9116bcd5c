import NIOCore

/// How long a peer may take to send a whole request before its connection is closed, so that one sending a byte
/// now and then cannot hold a connection, and a descriptor, for ever. Every server of the daemon uses it: HTTP
/// listeners, subscribers, the control socket and the metrics. Confined to the channel's event loop.
struct RequestDeadline {
    private let timeout: TimeAmount
    private var scheduled: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    /// Starts the clock again: `channel` is closed after `timeout` unless `met()` comes first.
    mutating func start(for channel: Channel) {
        scheduled?.cancel()
        scheduled = channel.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
    }

    /// The request is whole: the connection stays.
    mutating func met() {
        scheduled?.cancel()
        scheduled = nil
    }
}
