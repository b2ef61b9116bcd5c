import AudioFileStream
import AudioStreamProtocol
import NIOCore

/// What a stream's pipeline hands to each of its hubs, in stream order.
enum HubMessage: Sendable {
    case property(AudioFileStreamPropertyID, ByteBuffer)
    /// The `decodedFormat` property: what the decoder outputs, for the subscribers of properties.
    case decodedFormat(ByteBuffer)
    /// Metadata from one source (`icy`, `http`, `id3v2`, …): a newcomer gets the last of each.
    case metadata(source: String, ByteBuffer)
    /// An event for every subscriber: a discontinuity of the input.
    case event(ByteBuffer)
    /// A `source` event: what a network source is going through.
    case source(ByteBuffer)
    case packet(QueuedMessage)
    /// The PCM decoded from one buffer, in each format subscribers want (a resampler may give none yet, or two
    /// at a change of format).
    case pcm([PCMRequest: [QueuedMessage]])
    /// An event for the subscribers of PCM only: why their PCM stops (`unsupportedDataFormat`).
    case pcmEvent(ByteBuffer)
    /// The end event: the stream is over.
    case end(ByteBuffer)
    /// What HTTP listeners' response heads say from now on; nil when they cannot be served the stream's format.
    case mountInfo(MountInfo?)
    /// An ICY metadata block with the stream's new title, for HTTP listeners.
    case icyMetadata(ByteBuffer)
    /// What HTTP listeners and outputs need before the packets from now on (`ListenerFraming.header`).
    case mountHeader(ByteBuffer)
    /// What ends the bytes HTTP listeners and outputs got so far (`ListenerFraming.trailer()`), before a new
    /// header or the end: for those connected now, not for newcomers.
    case mountTrailer(ByteBuffer)
    /// An `artwork` message with a new picture, for the subscribers that asked for artwork.
    case artwork(ByteBuffer)
    /// A `levels` event: the loudness on the air, for the subscribers of levels.
    case levels(ByteBuffer)
    /// The packets so far are not to be heard again: the source left, and what it sends when it is back will not
    /// continue them, so newcomers get no burst of them.
    case pastIsStale
}
