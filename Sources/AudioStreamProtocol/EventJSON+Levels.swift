extension EventJSON {
    /// `{"event":"levels",…}` with a monitored stream's loudness `figures` (docs/protocol.md gives them), as
    /// `status` says them.
    public static func levels(_ figures: [(String, JSON)]) -> JSON {
        .object([("event", .string("levels"))] + figures)
    }
}

extension JSON {
    /// A level in LUFS, LU or dB, to the hundredth; null for what is not a number (the -infinity of silence).
    public static func level(_ value: Double) -> JSON {
        .double((value * 100).rounded() / 100)
    }
}
