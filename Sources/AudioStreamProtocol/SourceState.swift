/// What a network source is going through, announced to subscribers as `source` events while it happens.
public enum SourceState: Equatable, Sendable {
    /// A response began; `attempt` is the failures in a row before it (0 for a healthy source).
    case connected(attempt: Int)
    /// The connection failed or ended; `error` says why.
    case lost(error: String)
    /// No byte came for the stall timeout, so the connection was given up.
    case stalled(error: String)
    /// Attempt number `attempt` (failures in a row so far) starts after `delay` seconds.
    case reconnecting(attempt: Int, delay: Double)
    /// The stream's fallback source plays, from its first confirmed frame, while the main source is lost.
    case fallback
    /// The main source plays again, from its first confirmed frame since it was lost, and the fallback stopped;
    /// or, silent, it has had sound again for the silence rule's `back` seconds.
    case restored
    /// The main source sends silence: quieter than the silence rule's level for its `after` seconds. It counts
    /// as lost, and the fallback, if there is one, takes the air.
    case silent
    /// An on-demand source with no one to hear it: not connected until a subscriber or listener comes.
    case idle

    /// The `state` of a `source` event.
    public var name: String {
        switch self {
        case .connected: "connected"
        case .lost: "lost"
        case .stalled: "stalled"
        case .reconnecting: "reconnecting"
        case .fallback: "fallback"
        case .restored: "restored"
        case .silent: "silent"
        case .idle: "idle"
        }
    }

    /// Why the connection was lost, for the failure states.
    public var error: String? {
        switch self {
        case .lost(let error), .stalled(let error): error
        case .connected, .reconnecting, .fallback, .restored, .silent, .idle: nil
        }
    }
}
