extension EventJSON {
    /// `{"event":"levels",…}` with a monitored stream's loudness `figures` (docs/protocol.md gives them), as
    /// `status` says them.
    public static func levels(_ figures: [(String, JSON)]) -> JSON {
        .object([("event", .string("levels"))] + figures)
    }
}
