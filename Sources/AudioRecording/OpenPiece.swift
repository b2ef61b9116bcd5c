/// A piece under way.
struct OpenPiece {
    /// Wall-clock time of its first kept frame.
    let start: Double
    /// Stream position of its first kept frame.
    let keptStart: Int64
    let title: String?
    var packets: Int
    let leadInPackets: Int
    /// Whether its container states trims: else it holds whole packets, whatever the source trims.
    let statesTrims: Bool
    /// The stream position where the clock ends it.
    let clockSplit: Int64?
    let followsLoss: Bool
}
