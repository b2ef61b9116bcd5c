import NIOCore

/// The listeners of a stream's HLS: a player asks again every target duration or sooner, so a session seen
/// within two target durations is listening. A session is the `session` query parameter where the player keeps
/// it, else the client's address and user agent.
struct HLSSessions {
    /// When each session last asked.
    private var lastSeen: [String: NIODeadline] = [:]
    /// How long a session counts after it last asked.
    let lifetime: TimeAmount
    /// Sessions kept at most: a client inventing one per request cannot grow the table past it.
    static let limit = 100_000

    init(targetDuration: Int) {
        lifetime = .seconds(Int64(2 * targetDuration))
    }

    /// The session of a request with `query`'s `session`, from `client`.
    static func key(session: String?, client: ClientIdentity) -> String {
        session.map { "session " + $0 } ?? "client \(client.address) \(client.userAgent)"
    }

    /// Notes that session `key` asked now.
    mutating func note(_ key: String, now: NIODeadline = .now()) {
        if lastSeen.count >= Self.limit, lastSeen[key] == nil { forgetOld(now: now) }
        guard lastSeen.count < Self.limit || lastSeen[key] != nil else { return }
        lastSeen[key] = now
    }

    /// The sessions that asked within two target durations.
    mutating func count(now: NIODeadline = .now()) -> Int {
        forgetOld(now: now)
        return lastSeen.count
    }

    private mutating func forgetOld(now: NIODeadline) {
        lastSeen = lastSeen.filter { now - $0.value < lifetime }
    }
}
