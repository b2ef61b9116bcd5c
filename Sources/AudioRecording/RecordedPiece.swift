/// A piece of a recording, finished and in place under its name.
public struct RecordedPiece: Equatable, Sendable {
    public var path: String
    /// The wall-clock time of its first sample, in seconds since 1970.
    public var start: Double
    /// Seconds of audio it holds, trims deducted.
    public var duration: Double
    /// Packets in the file, the decoder's lead-in included.
    public var packets: Int
    public var bytes: Int64
    /// The now-playing title while it was written, if the stream had one.
    public var title: String?
    /// True when packets before it went unrecorded (a write failed and recording started again).
    public var followsLoss: Bool
}
