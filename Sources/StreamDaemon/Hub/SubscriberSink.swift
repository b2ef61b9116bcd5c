import NIOCore

/// Where a subscriber's messages go: its socket in the daemon, an array in tests.
protocol SubscriberSink: AnyObject {
    /// Whether the sink takes more now; when it turns true again it calls the subscriber's `drain()`.
    var isWritable: Bool { get }
    func write(_ message: ByteBuffer)
    /// Writes a queued message in the sink's own protocol and returns the bytes that go out. By default the
    /// message's wire encoding, as `write(_:)` takes it; an HTTP listener writes the audio alone.
    func write(_ message: QueuedMessage) -> Int
    /// Writes messages joined into one buffer by `PublishedBatch`, and flushes: their wire encodings, or for a
    /// sink of HTTP listener bytes what a listener gets of them. Returns the bytes that go out.
    func writeAndFlush(joined bytes: ByteBuffer) -> Int
    func flush()
    /// Closes the connection, at once or once everything written so far has gone out.
    func close(afterPendingWrites: Bool)
}

extension SubscriberSink {
    func write(_ message: QueuedMessage) -> Int {
        write(message.buffer)
        return message.buffer.readableBytes
    }

    func writeAndFlush(joined bytes: ByteBuffer) -> Int {
        write(bytes)
        flush()
        return bytes.readableBytes
    }
}
