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
    /// Leaves the subscriber's hub for `stream`'s on the same loop, as the same subscriber would join it, if the
    /// sink is an HTTP listener's, which Icecast's `moveclients` moves. Returns whether it moved.
    func move(to stream: StreamService) -> Bool
}

extension SubscriberSink {
    func move(to stream: StreamService) -> Bool { false }

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
