@testable import AudioFileStream
import FixtureSupport

/// One parser event in a form that does not depend on how the packets were batched.
enum RecordedEvent: Equatable, CustomStringConvertible {
    case property(AudioFileStreamPropertyID, AudioFileStreamPropertyValue)
    case packet(offset: Int64, size: Int, followsDiscontinuity: Bool)
    case metadata(offset: Int64, Metadata)
    case discontinuity(Discontinuity)

    var description: String {
        switch self {
        case .property(let id, let value): "property \(id) \(value)"
        case .packet(let offset, let size, let follows): "packet \(offset)+\(size)\(follows ? " after discontinuity" : "")"
        case .metadata(let offset, let metadata): "metadata \(metadata.source) at \(offset)"
        case .discontinuity(let discontinuity): "discontinuity \(discontinuity)"
        }
    }
}

/// How a test feeds bytes to the parser.
enum Chunking: CustomStringConvertible {
    case whole
    case fixed(Int)
    /// Sizes 1…8192 from a seeded generator.
    case random(seed: UInt64)

    var description: String {
        switch self {
        case .whole: "whole"
        case .fixed(let size): "\(size)-byte chunks"
        case .random(let seed): "random chunks (seed \(seed))"
        }
    }
}

/// Parses `bytes` as the chunking says, leaving out the `skips` ranges (fed again with the discontinuity flag
/// and their end offset), and returns every event plus the stream for inspection.
func parse(_ bytes: [UInt8], chunking: Chunking = .whole, skips: [Range<Int>] = [],
           hint: AudioFileType? = nil) throws -> (events: [RecordedEvent], stream: AudioFileStream) {
    var events: [RecordedEvent] = []
    let stream = try AudioFileStream(fileTypeHint: hint) { event in
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
        }
    }
    var generator = TestRandom(seed: { if case .random(let seed) = chunking { seed } else { 0 } }())
    var position = 0
    var resumesAfterSkip = false
    while position < bytes.count {
        if let skip = skips.first(where: { $0.contains(position) }) {
            position = skip.upperBound
            resumesAfterSkip = true
            continue
        }
        let size: Int = switch chunking {
        case .whole: bytes.count
        case .fixed(let size): size
        case .random: Int(generator.next() % 8192) + 1
        }
        let nextSkip = skips.map(\.lowerBound).filter { $0 > position }.min() ?? bytes.count
        let end = min(position + size, nextSkip, bytes.count)
        try bytes[position..<end].withUnsafeBytes { chunk in
            try stream.parse(chunk, discontinuity: resumesAfterSkip, offset: resumesAfterSkip ? Int64(position) : nil)
        }
        resumesAfterSkip = false
        position = end
    }
    try stream.finish()
    return (events, stream)
}

extension [RecordedEvent] {
    /// The packets, in order.
    var packets: [PacketRecord] {
        compactMap { event in
            if case .packet(let offset, let size, _) = event { PacketRecord(offset: offset, size: size) } else { nil }
        }
    }
}

/// Knuth's MMIX linear congruential generator: enough to draw reproducible chunk sizes.
struct TestRandom {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 33
    }
}
