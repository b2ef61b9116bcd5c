import AudioFileStream
import NIOCore

/// What a hub gives a subscriber that joins before the live messages: the stream's state as the messages
/// published so far left it (the latest of each property, the decoded format, each source's metadata, the
/// source's condition, the picture).
struct NewcomerState {
    /// The latest message of each property, in the order they first appeared.
    private var properties: [(id: AudioFileStreamPropertyID, message: ByteBuffer)] = []
    /// The latest `decodedFormat` property, once the stream has been decoded.
    var decodedFormat: ByteBuffer?
    /// The latest metadata of each source, in the order the sources first appeared.
    private var metadata: [(source: String, message: ByteBuffer)] = []
    /// The last `source` event of a network source.
    var source: ByteBuffer?
    /// The current picture, for subscribers of artwork.
    var artwork: QueuedMessage?

    mutating func setProperty(_ id: AudioFileStreamPropertyID, _ message: ByteBuffer) {
        if let index = properties.firstIndex(where: { $0.id == id }) {
            properties[index].message = message
        } else {
            properties.append((id, message))
        }
    }

    mutating func setMetadata(_ message: ByteBuffer, from source: String) {
        if let index = metadata.firstIndex(where: { $0.source == source }) {
            metadata[index].message = message
        } else {
            metadata.append((source, message))
        }
    }

    /// What `subscriber` is given of the state, in the order it would have come live; the artwork apart, as
    /// it is queued by its own rule.
    func opening(for subscriber: Subscriber) -> [ByteBuffer] {
        let kinds = subscriber.hello.kinds
        var opening = properties.filter { subscriber.wanted.wants(Audience.of($0.id)) }.map(\.message)
        if kinds.contains(.properties), let decodedFormat { opening.append(decodedFormat) }
        if kinds.contains(.metadata) { opening += metadata.map(\.message) }
        if subscriber.wanted.wants(.streamStatus), let source { opening.append(source) }
        return opening
    }
}
