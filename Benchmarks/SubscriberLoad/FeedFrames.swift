import AudioFileStream
import Foundation

/// The input MP3 cut at frame boundaries: what the pacer writes, one frame per write, and where each frame lies.
///
/// Write `k` carries the bytes after frame `k - 1` up to the end of frame `k` (anything between frames goes with
/// the frame after it), so frame `k`'s header and its last byte both leave in write `k`.
struct FeedFrames {
    let bytes: [UInt8]
    /// Stream offset of each frame's first byte, ascending.
    let offsets: [Int]
    /// Stream offset just past each frame's last byte.
    let ends: [Int]
    /// Audio in one frame: every frame of the input must hold the same number of samples.
    let frameSeconds: Double

    var count: Int { offsets.count }

    /// Reads `path` and finds its frames with the AudioFileStream parser.
    /// - Throws: `LoadError` when the file cannot be read, holds no frames, or its frames differ in duration.
    init(path: String) throws {
        guard let contents = FileManager.default.contents(atPath: path) else { throw LoadError("cannot read \(path)") }
        bytes = [UInt8](contents)
        var offsets: [Int] = []
        var ends: [Int] = []
        var durations: Set<Double> = []
        let parser = try AudioFileStream(fileTypeHint: .mp3) { event in
            guard case .packets(let batch) = event else { return }
            for packet in batch.packets {
                offsets.append(Int(packet.offset))
                ends.append(Int(packet.offset) + packet.bytes.count)
                durations.insert(Double(packet.frames) / batch.format.sampleRate)
            }
        }
        try parser.parse(bytes)
        try parser.finish()
        guard let frameSeconds = durations.first, durations.count == 1 else {
            throw LoadError("\(path): need frames of one duration, found \(durations.count) durations")
        }
        self.offsets = offsets
        self.ends = ends
        self.frameSeconds = frameSeconds
    }

    /// The bytes of write `index`.
    func chunk(_ index: Int) -> Range<Int> {
        (index == 0 ? 0 : ends[index - 1])..<ends[index]
    }

    /// Whether `received` equals the fed bytes from `offset` on (false when it runs past the end of the input).
    func matches(_ received: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        guard offset >= 0, offset + received.count <= bytes.count else { return false }
        guard received.count > 0 else { return true }
        return bytes.withUnsafeBytes { memcmp($0.baseAddress! + offset, received.baseAddress!, received.count) == 0 }
    }

    /// The frame whose first byte is at `offset`, if one is.
    func frame(startingAt offset: Int) -> Int? {
        let index = firstIndex { offsets[$0] >= offset }
        return index < count && offsets[index] == offset ? index : nil
    }

    /// The write that carries the byte at `offset`, if the input has that byte.
    func write(carrying offset: Int) -> Int? {
        let index = firstIndex { ends[$0] > offset }
        return index < count ? index : nil
    }

    /// The first frame index for which `isAtOrPast` holds (it must be monotonic), or `count`.
    private func firstIndex(where isAtOrPast: (Int) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if isAtOrPast(middle) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
