import AudioFileStream

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
    /// The tags it was opened with.
    let tags: NormalizedTags
    /// For its first seconds, when a title change began it: what it takes to begin it again with fuller tags, if
    /// the other source tells the same change.
    var replay: Replay?

    /// A piece as it was begun, and its packets since.
    struct Replay {
        /// The source whose title change began the piece.
        let source: TrackTags.Source
        /// The stream as the piece began.
        let timeline: StreamTimeline
        let number: Int
        var packets: [LeadInWindow.Packet] = []
    }
}
