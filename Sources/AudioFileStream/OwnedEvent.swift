/// A parser event that owns its bytes, so that it outlives the callback and may cross to another queue.
public struct OwnedEvent: Sendable {
    private enum Content: Sendable {
        case property(AudioFileStreamPropertyID, AudioFileStreamPropertyValue)
        case packets(OwnedBatch)
        case metadata(MetadataEvent)
        case discontinuity(Discontinuity)
        case warning(StreamWarning)
    }

    /// A packet batch with its own copy of the bytes and descriptions.
    private struct OwnedBatch: Sendable {
        let bytes: [UInt8]
        let descriptions: [AudioStreamPacketDescription]?
        let format: AudioStreamBasicDescription
        let streamOffset: Int64
        let firstPacketIndex: Int64
        let followsDiscontinuity: Bool
        let isAssembled: Bool
    }

    private let content: Content

    /// A copy of `event`.
    public init(_ event: AudioFileStreamEvent) {
        switch event {
        case .property(let id, let value): content = .property(id, value)
        case .metadata(let metadata): content = .metadata(metadata)
        case .discontinuity(let discontinuity): content = .discontinuity(discontinuity)
        case .warning(let warning): content = .warning(warning)
        case .packets(let batch):
            content = .packets(OwnedBatch(
                bytes: Array(batch.bytes), descriptions: batch.descriptions.map(Array.init), format: batch.format,
                streamOffset: batch.streamOffset, firstPacketIndex: batch.firstPacketIndex,
                followsDiscontinuity: batch.followsDiscontinuity, isAssembled: batch.isAssembled))
        }
    }

    /// The packet bytes the event holds.
    public var byteCount: Int {
        if case .packets(let batch) = content { batch.bytes.count } else { 0 }
    }

    /// Calls `body` with the event, whose packets are valid during the call.
    public func withEvent<Result>(_ body: (AudioFileStreamEvent) throws -> Result) rethrows -> Result {
        switch content {
        case .property(let id, let value): return try body(.property(id, value))
        case .metadata(let metadata): return try body(.metadata(metadata))
        case .discontinuity(let discontinuity): return try body(.discontinuity(discontinuity))
        case .warning(let warning): return try body(.warning(warning))
        case .packets(let batch):
            return try batch.bytes.withUnsafeBytes { bytes in
                func call(_ descriptions: UnsafeBufferPointer<AudioStreamPacketDescription>?) throws -> Result {
                    try body(.packets(PacketBatch(
                        bytes: bytes, format: batch.format, descriptions: descriptions,
                        streamOffset: batch.streamOffset, firstPacketIndex: batch.firstPacketIndex,
                        followsDiscontinuity: batch.followsDiscontinuity, isAssembled: batch.isAssembled)))
                }
                guard let descriptions = batch.descriptions else { return try call(nil) }
                return try descriptions.withUnsafeBufferPointer(call)
            }
        }
    }
}
