import Foundation

/// How many may listen to a mount over HTTP, for how long, and where those it cannot take are sent: a stream's
/// own settings, each falling back to the HTTP server's (`http:`).
public struct ListenerPolicy: Equatable, Sendable {
    /// Listeners at once, at most; nil for no limit of its own.
    public var maxListeners: Int?
    /// Seconds a listener may stay before it is disconnected (Icecast's `max-listener-duration`); nil for no limit.
    public var maxListenerDuration: Double?
    /// The servers a listener who would be refused is sent to, the least loaded of them that has the mount; nil
    /// for the HTTP server's, empty for none.
    public var overflow: [URL]?

    public init(maxListeners: Int? = nil, maxListenerDuration: Double? = nil, overflow: [URL]? = nil) {
        self.maxListeners = maxListeners
        self.maxListenerDuration = maxListenerDuration
        self.overflow = overflow
    }

    /// This policy, where it says nothing, as `server`'s says.
    func over(_ server: ListenerPolicy) -> ListenerPolicy {
        ListenerPolicy(maxListeners: maxListeners ?? server.maxListeners,
                       maxListenerDuration: maxListenerDuration ?? server.maxListenerDuration,
                       overflow: overflow ?? server.overflow)
    }
}
