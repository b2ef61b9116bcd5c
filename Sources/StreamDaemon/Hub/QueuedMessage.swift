import AudioStreamProtocol
import NIOCore

/// A message waiting in a subscriber's queue.
struct QueuedMessage: Sendable {
    let buffer: ByteBuffer
    /// What audio it carries, or nil for an event, which is never dropped.
    let audio: AudioSpan?
    /// For a packet whose codec listeners get framed (`ListenerFraming`), the bytes they get instead of the
    /// packet's own.
    var listenerBytes: ByteBuffer? = nil
    var role = Role.wire

    /// What kind of event a message without audio is, where it matters to a queue or a sink.
    enum Role: Sendable {
        case wire
        /// An ICY metadata block for HTTP listeners (`ICYMetadataBlock`) rather than a wire message.
        case icyMetadata
        /// The bytes HTTP listeners and outputs need before the packets (`ListenerFraming.header`).
        case mountHeader
        /// The bytes that end what HTTP listeners and outputs got (`ListenerFraming.trailer()`).
        case mountTrailer
        /// An `artwork` message: only the latest picture matters, so a newer one replaces one still queued.
        case artwork
    }
}

/// The audio a packet or PCM message carries: what the overflow policy counts.
struct AudioSpan: Sendable {
    /// Stream offset of the packet (for PCM, of the packets it was decoded from).
    let offset: Int64
    let bytes: Int
    let frames: Int
    let sampleRate: Int

    var seconds: Double { sampleRate > 0 ? Double(frames) / Double(sampleRate) : 0 }
}

extension QueuedMessage {
    /// What an HTTP listener or an Icecast output sends of this message: a mount header or trailer whole, a packet's
    /// listener bytes or else its own; nil for anything else.
    var listenerPayload: ByteBuffer? {
        switch role {
        case .mountHeader, .mountTrailer: buffer
        case .wire: audio.flatMap { listenerBytes ?? buffer.packetPayload(bytes: $0.bytes) }
        case .icyMetadata, .artwork: nil
        }
    }
}

extension ByteBuffer {
    /// The packet bytes of a wire `packet` message (its last `bytes` bytes), for sinks that send the audio alone.
    func packetPayload(bytes: Int) -> ByteBuffer? {
        getSlice(at: readerIndex + WireProtocol.headerSize + WireProtocol.packetFieldsSize, length: bytes)
    }
}
