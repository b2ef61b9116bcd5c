import Foundation

/// `http.auth`: Icecast's URL authentication of listeners. Each listener is posted to `listenerAdd` before it is
/// served, as Icecast posts it, and admitted when the answer says `icecast-auth-user: 1`; `listenerRemove` hears
/// when an admitted one leaves.
public struct ListenerAuthConfig: Equatable, Sendable {
    public var listenerAdd: URL
    public var listenerRemove: URL?
    /// Seconds the backend has to answer.
    public var timeout: Double
    /// What a listener gets when the backend cannot answer (it is down, too slow, or answers an error).
    public var onFailure: Failure

    public enum Failure: String, Equatable, Sendable {
        /// Refused: no one listens without the backend's word.
        case deny
        /// Served: the backend's outage does not silence the station.
        case allow
    }

    /// `timeout` unless configured.
    public static let defaultTimeout: Double = 5

    public init(listenerAdd: URL, listenerRemove: URL? = nil, timeout: Double = defaultTimeout,
                onFailure: Failure = .deny) {
        self.listenerAdd = listenerAdd
        self.listenerRemove = listenerRemove
        self.timeout = timeout
        self.onFailure = onFailure
    }
}
