import AudioFileStream

/// The trims a source states for the whole stream (its PacketTableInfo), placed on the stream's timeline.
struct SourceTrims {
    /// The position where the stream's audio starts, after the encoder's priming.
    var primingEnd: Int64 = 0
    /// The position where the audio ends, when the source says.
    var audioEnd: Int64?

    init() {}

    /// `table` announced before the packet at `position`.
    init(_ table: PacketTableInfo, at position: Int64) {
        primingEnd = position + Int64(table.primingFrames)
        audioEnd = table.validFrames > 0 ? primingEnd + table.validFrames : nil
    }

    /// Frames past the audio's end in a piece that ends at `pieceEnd`.
    func trailingTrim(pieceEnd: Int64) -> Int64 {
        audioEnd.map { max(0, pieceEnd - $0) } ?? 0
    }
}
