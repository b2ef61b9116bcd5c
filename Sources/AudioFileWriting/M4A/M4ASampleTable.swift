/// A run of packets of one frame count: an `stts` entry.
struct M4AFrameRun: Equatable {
    var packets: UInt32
    var frames: UInt32
}

/// The packets of an M4A as its sample table states them: each one's size, their frame counts in runs, and the
/// chunks (`mdat` boxes) they lie in.
struct M4ASampleTable {
    private(set) var sizes: [UInt32] = []
    private(set) var runs: [M4AFrameRun] = []
    /// Each chunk's first byte in the file and its number of packets.
    private(set) var chunks: [(offset: Int64, packets: UInt32)] = []
    private(set) var totalFrames: Int64 = 0

    mutating func add(size: UInt32, frames: UInt32) {
        sizes.append(size)
        runs.appendFrames(frames)
        totalFrames += Int64(frames)
    }

    mutating func addChunk(at offset: Int64, packets: UInt32) {
        chunks.append((offset, packets))
    }
}

extension [M4AFrameRun] {
    /// Counts one more packet of `frames` frames.
    mutating func appendFrames(_ frames: UInt32) {
        if let last = indices.last, self[last].frames == frames {
            self[last].packets += 1
        } else {
            append(M4AFrameRun(packets: 1, frames: frames))
        }
    }
}
