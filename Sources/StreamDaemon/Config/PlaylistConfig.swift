/// A composition: files, or time ranges of them, played one after another (`source: {playlist: …}`).
public struct PlaylistConfig: Equatable, Sendable {
    /// Where the items come from.
    public enum Items: Equatable, Sendable {
        /// Listed in the configuration.
        case listed([PlaylistItem])
        /// An M3U, M3U8 or PLS file, read again before each item so that an edit takes effect at the next join.
        case playlistFile(path: String)
        /// A folder's audio files, in the order of their names, listed again before each item.
        case folder(path: String)
    }

    public var items: Items
    /// Whether the list starts again after its last item.
    public var loop: Bool
    /// Whether each pass plays the items in a new random order.
    public var shuffle: Bool
    public var pace: Pace

    public init(items: Items, loop: Bool = false, shuffle: Bool = false, pace: Pace = .realTime(speed: 1)) {
        self.items = items
        self.loop = loop
        self.shuffle = shuffle
        self.pace = pace
    }
}

/// One segment of a composition: a file, or the part of it between `from` and `to` seconds.
public struct PlaylistItem: Equatable, Sendable {
    public var path: String
    /// Seconds of the file's audio before the segment starts: 0 plays it from its start.
    public var from: Double
    /// Where the segment ends, in seconds of the file's audio; nil plays it to its end.
    public var to: Double?

    public init(path: String, from: Double = 0, to: Double? = nil) {
        self.path = path
        self.from = from
        self.to = to
    }
}
