import NIOCore

/// Where a subscriber's messages go: its socket in the daemon, an array in tests.
protocol SubscriberSink: AnyObject {
    /// Whether the sink takes more now; when it turns true again it calls the subscriber's `drain()`.
    var isWritable: Bool { get }
    func write(_ message: ByteBuffer)
    func flush()
    /// Closes the connection, at once or once everything written so far has gone out.
    func close(afterPendingWrites: Bool)
}
