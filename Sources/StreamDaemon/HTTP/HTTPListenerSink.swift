import NIOCore

/// An HTTP listener as its hub writes to it, through its `SubscriberSocket`: headers and packets as the mount
/// frames them, with ICY metadata blocks between them for a listener that asked for them; titles wait for the
/// next block; events are the wire protocol's and mean nothing to a listener. Confined to its event loop.
final class HTTPListenerSink: SubscriberSink {
    private let socket: SubscriberSocket
    /// Metadata blocks for a listener that asked for them.
    private var interleaver: ICYInterleaver?

    /// A sink for a listener whose response head said `icy-metaint: metaint`, or had none (nil).
    init(socket: SubscriberSocket, metaint: Int?) {
        self.socket = socket
        interleaver = metaint.map(ICYInterleaver.init)
    }

    var isWritable: Bool { socket.isWritable }

    func write(_ message: ByteBuffer) {
        socket.write(message)
    }

    func write(_ message: QueuedMessage) -> Int {
        if message.role == .icyMetadata {
            // Copied out and back, as in `writeAudio`: no access to `interleaver` spans a call.
            if var interleaver {
                interleaver.announce(message.buffer)
                self.interleaver = interleaver
            }
            return 0
        }
        guard let bytes = message.listenerPayload else { return 0 }
        return writeAudio(bytes, with: socket.write)
    }

    /// Listener bytes joined by the hub, with ICY blocks between them when asked.
    func writeAndFlush(joined bytes: ByteBuffer) -> Int {
        writeAudio(bytes, with: socket.writeNow)
    }

    func flush() {
        socket.flush()
    }

    func close(afterPendingWrites: Bool) {
        socket.close(afterPendingWrites: afterPendingWrites)
    }

    /// The listener's response goes on with `stream`'s audio, in the same framing and ICY blocks.
    func move(to stream: StreamService) -> Bool {
        socket.move(to: stream, sink: self)
    }

    /// Writes `bytes` with `write`, in pieces between ICY metadata blocks for a listener that asked for them.
    private func writeAudio(_ bytes: ByteBuffer, with write: (ByteBuffer) -> Void) -> Int {
        // Copied out and back: an access to `interleaver` that spanned the writes would cost an exclusivity
        // check on every write of every listener.
        guard var interleaver else {
            write(bytes)
            return bytes.readableBytes
        }
        var written = 0
        interleaver.interleave(bytes) { piece in
            written += piece.readableBytes
            write(piece)
        }
        self.interleaver = interleaver
        return written
    }
}
