import NIOConcurrencyHelpers

/// How many HTTP listeners a stream has over all of its hubs, and the most it has had at once, for Icecast's
/// `listener_peak`.
final class ListenerCount: Sendable {
    private let counts = NIOLockedValueBox((current: 0, peak: 0))

    /// The most listeners connected at once since the stream started.
    var peak: Int { counts.withLockedValue { $0.peak } }
    /// The listeners connected now.
    var current: Int { counts.withLockedValue { $0.current } }

    func joined() {
        counts.withLockedValue { counts in
            counts.current += 1
            counts.peak = max(counts.peak, counts.current)
        }
    }

    func left() {
        counts.withLockedValue { $0.current -= 1 }
    }
}
