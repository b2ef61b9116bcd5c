import AudioFileStream

/// The trims a source states for the whole stream (its PacketTableInfo), placed on the stream's timeline.
package struct SourceTrims {
    /// The position where the stream's audio starts, after the encoder's priming.
    package var primingEnd: Int64 = 0
    /// The position where the audio ends, when the source says.
    package var audioEnd: Int64?

    init() {}

    /// `table` of a file whose first packet is at `fileStart`.
    init(_ table: PacketTableInfo, at fileStart: Int64) {
        primingEnd = fileStart + Int64(table.primingFrames)
        audioEnd = table.validFrames > 0 ? primingEnd + table.validFrames : nil
    }

    /// Frames past the audio's end in a piece that ends at `pieceEnd`.
    func trailingTrim(pieceEnd: Int64) -> Int64 {
        audioEnd.map { max(0, pieceEnd - $0) } ?? 0
    }
}
