/// What the relay itself reports at the end of the feed: audiostreamd's status, Icecast's admin stats.
struct RelayView: Encodable {
    /// Subscribers (listeners) it counts.
    let subscribers: Int
    /// audiostreamd: packets dropped for subscribers, summed over them.
    var droppedPackets: Int?
    /// audiostreamd: the largest subscriber queue, in seconds of audio.
    var maxLagSeconds: Double?
    /// audiostreamd: subscribers disconnected for staying behind.
    var slowDisconnects: Int?
    /// audiostreamd: HLS sessions it counts.
    var hlsListeners: Int?
    /// Icecast: listeners it has marked slow.
    var slowListeners: Int?
}
