import AudioFileStream

/// How one parse of a stream goes, as the fuzz target (Fuzz/) decodes it from libFuzzer's input: a control header
/// of `headerLength` bytes choosing the hint, the chunk sizes and up to three discontinuities, then the stream's
/// bytes. The tests decode the committed findings (Tests/Fixtures/fuzz) the same way. Standard library only: the
/// fuzz build compiles this file without the test frameworks.
///
/// Header: byte 0 picks the hint (`choice % (hints.count + 1)`, 0 for none); bytes 1–3 are the chunk seed; bytes
/// 4–15 are three cuts of four bytes: kind, position (two bytes, big-endian) and distance.
public struct FuzzScenario: Sendable, CustomStringConvertible {
    public static let headerLength = 16
    /// The hints the fuzzer chooses from besides none; a type the library learns is one more entry here.
    public static let hints: [AudioFileType] = [.mp1, .mp2, .mp3, .adts, .ac3, .eac3, .flac, .ogg, .mpeg4]

    /// A place where the input stops following the bytes before it.
    public struct Cut: Sendable, CustomStringConvertible {
        /// Where in `stream` the bytes stop.
        public var position: Int
        /// Where in `stream` feeding goes on: after skipped bytes, at `position` again, or before it (a seek back).
        public var resume: Int
        /// The next parse call has `discontinuity: true`.
        public var isFlagged: Bool
        /// The next parse call gives its offset: `resume`, the bytes' true place in the stream.
        public var givesOffset: Bool
        /// `markDiscontinuity` is called with this reason before the next parse call.
        public var markedReason: Discontinuity.Reason?

        public var description: String {
            let how = [isFlagged ? "flagged" : nil, givesOffset ? "offset" : nil, markedReason.map { "marked \($0)" }]
            return "\(position)→\(resume) (\(how.compactMap { $0 }.joined(separator: ", ")))"
        }
    }

    /// How bytes are handed to `parse`.
    public enum Chunks: Sendable, CustomStringConvertible {
        /// Everything between two cuts in one call.
        case whole
        /// One byte per call.
        case single
        /// Sizes drawn from `TestRandom`; the seed's low two bits pick the range: the whole stretch, 1…8192,
        /// 0…16 (empty calls included) or a mix of 0…4 and 1…4096.
        case seeded(UInt64)

        public var description: String {
            switch self {
            case .whole: "whole"
            case .single: "1-byte chunks"
            case .seeded(let seed): "seeded chunks \(seed)"
            }
        }
    }

    public var hint: AudioFileType?
    public var chunks: Chunks
    /// In ascending order of position.
    public var cuts: [Cut]
    public var stream: [UInt8]

    /// Decodes a fuzzer input; a short one is padded with zero bytes (no hint, whole chunks, no cuts).
    public init(_ input: UnsafeRawBufferPointer) {
        var header = Array(input.prefix(Self.headerLength))
        header += repeatElement(0, count: Self.headerLength - header.count)
        let stream = Array(input.dropFirst(Self.headerLength))
        let choice = Int(header[0]) % (Self.hints.count + 1)
        hint = choice == 0 ? nil : Self.hints[choice - 1]
        chunks = .seeded(UInt64(header[1]) << 16 | UInt64(header[2]) << 8 | UInt64(header[3]))
        cuts = stride(from: 4, to: Self.headerLength, by: 4).compactMap { (start: Int) -> Cut? in
            let position = Int(header[start + 1]) << 8 | Int(header[start + 2])
            return Self.cut(kind: header[start], position: position, distance: header[start + 3],
                            streamLength: stream.count)
        }.sorted { $0.position < $1.position }
        self.stream = stream
    }

    /// The same stream fed in other chunks.
    public func with(chunks: Chunks) -> FuzzScenario {
        var copy = self
        copy.chunks = chunks
        return copy
    }

    /// Plays the stream as the scenario says: `parse` gets each chunk, with the cut it resumes from for the first
    /// after a cut; at a marked cut, `mark` comes first.
    public func play(parse: (ArraySlice<UInt8>, Cut?) throws -> Void, mark: (Discontinuity.Reason) throws -> Void)
        rethrows {
        var sizes = ChunkSizes(chunks)
        var position = 0
        var remainingCuts = cuts[...]
        /// The cut the next parse call resumes from.
        var resuming: Cut?
        while true {
            let cut = remainingCuts.popFirst()
            if let cut, cut.position < position { continue }  // behind a seek back
            let end = cut?.position ?? stream.count
            while position < end || resuming != nil {
                let size = min(sizes.next(remaining: end - position), end - position)
                try parse(stream[position..<position + size], resuming)
                resuming = nil
                position += size
            }
            guard let cut else { return }
            if let reason = cut.markedReason { try mark(reason) }
            resuming = cut
            position = cut.resume
        }
    }

    public var description: String {
        "hint \(hint.map { "\($0)" } ?? "none"), \(chunks), cuts [\(cuts.map(\.description).joined(separator: "; "))], "
            + "\(stream.count) stream bytes"
    }

    /// Kind 0 is no cut. The distance is 0…127 bytes, or 0…8128 in steps of 64 when its top bit is set.
    private static func cut(kind: UInt8, position: Int, distance: UInt8, streamLength: Int) -> Cut? {
        let position = position % (streamLength + 1)
        let distance = Int(distance & 0x7F) << (distance & 0x80 == 0 ? 0 : 6)
        let ahead = min(position + distance, streamLength)
        switch kind % 8 {
        case 1: return Cut(position: position, resume: ahead, isFlagged: true, givesOffset: false, markedReason: nil)
        case 2: return Cut(position: position, resume: ahead, isFlagged: true, givesOffset: true, markedReason: nil)
        // A seek the caller does not flag: only the offset tells.
        case 3: return Cut(position: position, resume: ahead, isFlagged: false, givesOffset: true, markedReason: nil)
        // A reconnect that lost bytes, as a network source reports it.
        case 4: return Cut(position: position, resume: ahead, isFlagged: false, givesOffset: false, markedReason: .reconnect)
        case 5: return Cut(position: position, resume: ahead, isFlagged: false, givesOffset: true, markedReason: .input)
        // A seek back.
        case 6: return Cut(position: position, resume: max(position - distance, 0), isFlagged: true, givesOffset: true,
                           markedReason: nil)
        // Flagged although nothing was lost.
        case 7: return Cut(position: position, resume: position, isFlagged: true, givesOffset: false, markedReason: nil)
        default: return nil
        }
    }
}

/// Draws the sizes of successive parse calls.
struct ChunkSizes {
    private let chunks: FuzzScenario.Chunks
    private var random: TestRandom

    init(_ chunks: FuzzScenario.Chunks) {
        self.chunks = chunks
        random = TestRandom(seed: { if case .seeded(let seed) = chunks { seed >> 2 } else { 0 } }())
    }

    /// The size of the next call; `remaining` is what is left before the next cut. May be 0 (an empty call).
    mutating func next(remaining: Int) -> Int {
        switch chunks {
        case .whole: return remaining
        case .single: return 1
        case .seeded(let seed):
            switch seed & 3 {
            case 0: return remaining
            case 1: return Int(random.next() % 8192) + 1
            case 2: return Int(random.next() % 17)
            default: return random.next() & 1 == 0 ? Int(random.next() % 5) : Int(random.next() % 4096) + 1
            }
        }
    }
}
