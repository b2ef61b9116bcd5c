/// A recording's piece under way: its file, and what the recording knows of it.
struct RecordingPiece {
    var file: OpenPiece
    /// Wall-clock time of its first kept frame.
    let start: Double
    let title: String?
    /// The stream position where the clock ends it.
    var clockSplit: Int64?
    /// Whether packets before it went unrecorded.
    let followsLoss: Bool
    /// The stream position past its last packet.
    var end: Int64
}
