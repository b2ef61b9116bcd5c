import AudioFileStream

/// What a stream's loop hands its recording: the parser's events, copied out of the callback so that they can
/// cross to the recording's queue.
enum RecordingInput: Sendable {
    case property(AudioFileStreamPropertyID, AudioFileStreamPropertyValue)
    case metadata(MetadataEvent)
    case discontinuity(Discontinuity)
    case packets(CopiedBatch)
    /// Tags a source said beside its audio, from the packet at a stream offset on.
    case tags(NormalizedTags, offset: Int64)
    /// The station's name, from a network source's headers.
    case station(String?)
    /// The next frame is at this wall-clock time (the first packet, a reconnect).
    case clock(Double)

    /// The event's copy; nil for those a recording has no use for.
    init?(_ event: AudioFileStreamEvent) {
        switch event {
        case .property(let id, let value): self = .property(id, value)
        case .metadata(let metadata): self = .metadata(metadata)
        case .discontinuity(let discontinuity): self = .discontinuity(discontinuity)
        case .packets(let batch): self = .packets(CopiedBatch(batch))
        case .warning: return nil
        }
    }

    /// Bytes the input holds, for bounding what waits for a slow disk.
    var byteCount: Int {
        if case .packets(let batch) = self { batch.bytes.count } else { 0 }
    }
}

/// A packet batch whose bytes and descriptions are owned.
struct CopiedBatch: Sendable {
    let bytes: [UInt8]
    let descriptions: [AudioStreamPacketDescription]?
    let format: AudioStreamBasicDescription
    let streamOffset: Int64
    let firstPacketIndex: Int64
    let followsDiscontinuity: Bool

    init(_ batch: PacketBatch) {
        bytes = Array(batch.bytes)
        descriptions = batch.descriptions.map(Array.init)
        format = batch.format
        streamOffset = batch.streamOffset
        firstPacketIndex = batch.firstPacketIndex
        followsDiscontinuity = batch.followsDiscontinuity
    }

    /// The parser's event for the copy, valid during `body`.
    func withEvent(_ body: (AudioFileStreamEvent) -> Void) {
        bytes.withUnsafeBytes { bytes in
            func call(_ descriptions: UnsafeBufferPointer<AudioStreamPacketDescription>?) {
                body(.packets(PacketBatch(
                    bytes: bytes, format: format, descriptions: descriptions, streamOffset: streamOffset,
                    firstPacketIndex: firstPacketIndex, followsDiscontinuity: followsDiscontinuity,
                    isAssembled: false)))
            }
            if let descriptions { descriptions.withUnsafeBufferPointer(call) } else { call(nil) }
        }
    }
}
