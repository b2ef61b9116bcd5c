import AudioRecording

/// A stream's `record:`: where its pieces go, when they split, and how long they stay.
public struct RecordConfig: Equatable, Sendable {
    /// The pieces' name template, its relative path taken from the configuration file's folder.
    public var template: PieceNameTemplate
    /// Seconds of audio a piece spans at most, on wall-clock multiples.
    public var every: Int?
    public var splitOnTitle: Bool
    public var keep: Retention

    public init(template: PieceNameTemplate, every: Int? = nil, splitOnTitle: Bool = false, keep: Retention = .init()) {
        self.template = template
        self.every = every
        self.splitOnTitle = splitOnTitle
        self.keep = keep
    }
}
