/// How many bytes to feed at a time.
enum ChunkSizes {
    case fixed(Int)
    case random(SplitMix64)

    /// The largest random chunk, per the `--random-chunks` contract.
    static let largestRandomChunk: UInt64 = 8192

    mutating func next() -> Int {
        switch self {
        case .fixed(let size):
            return size
        case .random(var generator):
            let size = Int(generator.next() % Self.largestRandomChunk) + 1
            self = .random(generator)
            return size
        }
    }
}

/// A small seeded generator (Steele, Lea and Flood's SplitMix64) so `--random-chunks` is reproducible.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
