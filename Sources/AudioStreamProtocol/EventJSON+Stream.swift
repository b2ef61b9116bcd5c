import AudioFileStream

/// The JSON of events about the stream itself rather than its bytes: its end, and its source's condition.
extension EventJSON {
    /// `{"event":"end","reason":…}`, with `error` when the stream ended because something failed.
    public static func end(_ reason: EndReason) -> JSON {
        .object([("event", .string("end")), ("reason", .string(reason.name))]
            + (reason.failure.map { [("error", .string($0))] } ?? []))
    }

    /// `{"event":"unsupportedDataFormat","formatID":…}`: the packets of this format cannot be decoded, so PCM
    /// subscribers get none of them (until a DataFormat that can be).
    public static func unsupportedDataFormat(_ formatID: FourCharCode) -> JSON {
        .object([("event", .string("unsupportedDataFormat")), ("formatID", .string(formatID.description))])
    }

    /// `{"event":"source","state":…}` with the state's attempt and delay (in seconds, to the millisecond) or error.
    public static func source(_ state: SourceState) -> JSON {
        let details: [(String, JSON)] = switch state {
        case .connected(let attempt): [("attempt", .number(attempt))]
        case .lost(let error), .stalled(let error): [("error", .string(error))]
        case .reconnecting(let attempt, let delay):
            [("attempt", .number(attempt)), ("delay", .double((delay * 1000).rounded() / 1000))]
        case .fallback, .restored, .silent, .idle: []
        }
        return .object([("event", .string("source")), ("state", .string(state.name))] + details)
    }
}
