/// What a recording does: where its pieces go and when one ends and the next begins.
public struct RecordingSettings: Equatable, Sendable {
    public var template: PieceNameTemplate
    /// The stream's name, for `{stream}`.
    public var stream: String
    /// Seconds of audio a piece spans at most, ending on wall-clock multiples (3600 ends pieces on the hour).
    public var every: Int?
    /// Whether a new now-playing title starts a new piece.
    public var splitOnTitle: Bool
    /// Whether each piece is dated by its start (the date tag); otherwise it keeps the stream's own date.
    public var datesPieces: Bool

    public init(template: PieceNameTemplate, stream: String, every: Int? = nil, splitOnTitle: Bool = false,
                datesPieces: Bool = true) {
        self.template = template
        self.stream = stream
        self.every = every
        self.splitOnTitle = splitOnTitle
        self.datesPieces = datesPieces
    }
}
