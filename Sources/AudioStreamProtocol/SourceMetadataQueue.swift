/// Source metadata waiting for its place among the packets.
///
/// Metadata is known at an audio offset, but the parser hands a packet on only once the next header confirms it.
/// So each item waits here and goes out just before the first packet that starts at or after its offset (or a
/// discontinuity after it, or the end): the same order in any chunking. A stream that yields no packets cannot
/// make it grow without bound: beyond `capacity` the oldest item goes out at once.
public struct SourceMetadataQueue {
    private var waiting: [(metadata: SourceMetadata, offset: Int64)] = []

    /// Items that may wait; far more than a stream yields between two packets.
    public static let capacity = 16

    public init() {}

    /// Queues metadata found after `offset` bytes of audio.
    /// - Parameter overflow: takes the oldest item when the queue is full.
    public mutating func append(
        _ metadata: SourceMetadata, at offset: Int64, overflow: (SourceMetadata, Int64) throws -> Void
    ) rethrows {
        if waiting.count == Self.capacity {
            let oldest = waiting.removeFirst()
            try overflow(oldest.metadata, oldest.offset)
        }
        waiting.append((metadata, offset))
    }

    /// Hands over, oldest first, the items due before whatever starts at `offset`; `Int64.max` hands over all.
    public mutating func release(upTo offset: Int64, _ body: (SourceMetadata, Int64) throws -> Void) rethrows {
        guard let first = waiting.first, first.offset <= offset else { return }
        let due = waiting.prefix { $0.offset <= offset }
        waiting.removeFirst(due.count)
        for (metadata, offset) in due { try body(metadata, offset) }
    }
}
