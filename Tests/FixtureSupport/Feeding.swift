import AudioFileStream

/// How a test feeds bytes to the parser.
public enum Chunking: CustomStringConvertible, Sendable {
    case whole
    case fixed(Int)
    /// Sizes 1…8192 from a seeded generator.
    case random(seed: UInt64)

    public var description: String {
        switch self {
        case .whole: "whole"
        case .fixed(let size): "\(size)-byte chunks"
        case .random(let seed): "random chunks (seed \(seed))"
        }
    }
}

/// Feeds `bytes` to `stream` as the chunking says, leaving out the `skips` ranges: the bytes after each are fed
/// with the discontinuity flag and their absolute offset. Then finishes the stream.
public func feed(_ bytes: [UInt8], to stream: AudioFileStream, chunking: Chunking = .whole,
                 skips: [Range<Int>] = []) throws {
    var generator = TestRandom(seed: { if case .random(let seed) = chunking { seed } else { 0 } }())
    var position = 0
    var resumesAfterSkip = false
    while position < bytes.count {
        if let skip = skips.first(where: { $0.contains(position) }) {
            position = skip.upperBound
            resumesAfterSkip = true
            continue
        }
        let nextSkip = skips.map(\.lowerBound).filter { $0 > position }.min() ?? bytes.count
        let end = min(position + chunking.nextSize(bytes.count, &generator), nextSkip, bytes.count)
        try bytes[position..<end].withUnsafeBytes { chunk in
            try stream.parse(chunk, discontinuity: resumesAfterSkip, offset: resumesAfterSkip ? Int64(position) : nil)
        }
        resumesAfterSkip = false
        position = end
    }
    try stream.finish()
}

/// Feeds the `ranges` of `bytes` to `stream` in the order given, as a reader that can seek gives a file out of
/// order (its index first): each range after the first with the discontinuity flag and its absolute offset, in
/// chunks as the chunking says. Then finishes the stream.
public func feed(_ bytes: [UInt8], inOrder ranges: [Range<Int>], to stream: AudioFileStream,
                 chunking: Chunking = .whole) throws {
    var generator = TestRandom(seed: { if case .random(let seed) = chunking { seed } else { 0 } }())
    for (index, range) in ranges.enumerated() {
        var position = range.lowerBound
        while position < range.upperBound {
            let end = min(position + chunking.nextSize(range.count, &generator), range.upperBound)
            let jumps = index > 0 && position == range.lowerBound
            try bytes[position..<end].withUnsafeBytes { chunk in
                try stream.parse(chunk, discontinuity: jumps, offset: jumps ? Int64(position) : nil)
            }
            position = end
        }
    }
    try stream.finish()
}

extension Chunking {
    /// The size of the next chunk, `whole` being the size of everything to feed.
    func nextSize(_ whole: Int, _ generator: inout TestRandom) -> Int {
        switch self {
        case .whole: whole
        case .fixed(let size): size
        case .random: Int(generator.next() % 8192) + 1
        }
    }
}

/// Feeds `bytes` to `stream` in 64 KiB chunks, then finishes it; returns the most bytes the stream held between
/// calls, for tests of bounded memory.
public func feedMeasuringHeldBytes(_ bytes: [UInt8], to stream: AudioFileStream) throws -> Int {
    var held = 0
    var position = 0
    while position < bytes.count {
        let end = min(position + 65536, bytes.count)
        try stream.parse(Array(bytes[position..<end]))
        held = max(held, stream.bufferedByteCount)
        position = end
    }
    try stream.finish()
    return held
}

/// Knuth's MMIX linear congruential generator: enough to draw reproducible chunk sizes.
public struct TestRandom {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 33
    }
}
