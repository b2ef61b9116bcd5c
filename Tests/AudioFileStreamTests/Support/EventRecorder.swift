@testable import AudioFileStream
import FixtureSupport

/// One parser event in a form that does not depend on how the packets were batched.
enum RecordedEvent: Equatable, CustomStringConvertible {
    case property(AudioFileStreamPropertyID, AudioFileStreamPropertyValue)
    case packet(offset: Int64, size: Int, followsDiscontinuity: Bool)
    case metadata(offset: Int64, Metadata)
    case discontinuity(Discontinuity)
    case warning(StreamWarning)

    var description: String {
        switch self {
        case .property(let id, let value): "property \(id) \(value)"
        case .packet(let offset, let size, let follows): "packet \(offset)+\(size)\(follows ? " after discontinuity" : "")"
        case .metadata(let offset, let metadata): "metadata \(metadata.source) at \(offset)"
        case .discontinuity(let discontinuity): "discontinuity \(discontinuity)"
        case .warning(let warning): "warning \(warning.kind) at \(warning.offset)"
        }
    }
}

/// Parses `bytes` as the chunking says, leaving out the `skips` ranges (fed again with the discontinuity flag
/// and their end offset), and returns every event plus the stream for inspection.
func parse(_ bytes: [UInt8], chunking: Chunking = .whole, skips: [Range<Int>] = [],
           hint: AudioFileType? = nil, indexedPackets: Int = AudioFileStream.defaultIndexedPackets) throws
    -> (events: [RecordedEvent], stream: AudioFileStream) {
    try record(hint: hint, indexedPackets: indexedPackets) { try feed(bytes, to: $0, chunking: chunking, skips: skips) }
}

/// Runs `feeding` on a new stream and returns every event the stream gave, plus the stream for inspection.
func record(hint: AudioFileType? = nil, indexedPackets: Int = AudioFileStream.defaultIndexedPackets,
            _ feeding: (AudioFileStream) throws -> Void) throws -> (events: [RecordedEvent], stream: AudioFileStream) {
    var events: [RecordedEvent] = []
    let stream = try AudioFileStream(fileTypeHint: hint, indexedPackets: indexedPackets) { event in
        switch event {
        case .property(let id, let value):
            events.append(.property(id, value))
        case .packets(let batch):
            for (position, description) in batch.descriptions!.enumerated() {
                events.append(.packet(offset: batch.streamOffset + description.startOffset,
                                      size: Int(description.dataByteSize),
                                      followsDiscontinuity: position == 0 && batch.followsDiscontinuity))
            }
        case .metadata(let metadata):
            events.append(.metadata(offset: metadata.offset, metadata.metadata))
        case .discontinuity(let discontinuity):
            events.append(.discontinuity(discontinuity))
        case .warning(let warning):
            events.append(.warning(warning))
        }
    }
    try feeding(stream)
    return (events, stream)
}

extension [RecordedEvent] {
    /// The packets, in order.
    var packets: [PacketRecord] {
        compactMap { event in
            if case .packet(let offset, let size, _) = event { PacketRecord(offset: offset, size: size) } else { nil }
        }
    }

    /// The tags, in order, with the offsets they were reported at.
    var tags: [(offset: Int64, metadata: Metadata)] {
        compactMap { event in
            if case .metadata(let offset, let metadata) = event { (offset, metadata) } else { nil }
        }
    }
}

extension [PacketRecord] {
    /// The same packets, `distance` bytes further into the stream.
    func shifted(by distance: Int) -> [PacketRecord] {
        map { PacketRecord(offset: $0.offset + Int64(distance), size: $0.size) }
    }
}
