import AudioFileStream

/// The tags of what a stream is playing, as its tags and a source's titles arrive, each applied from the packet
/// at its stream offset on; and the tags a piece starting now gets.
struct TrackTags {
    private(set) var current = NormalizedTags()
    /// The station's name, each piece's album when its tags name none.
    var station: String?
    private var pending: [(tags: NormalizedTags, offset: Int64)] = []

    /// Tags found at stream offset `offset`, for the packets from there on.
    mutating func note(_ tags: NormalizedTags, at offset: Int64) {
        pending.append((tags, offset))
    }

    /// Forgets the tags of the source that played: those applied and those waiting (the station stays until
    /// the next source's is told).
    mutating func forget() {
        current = NormalizedTags()
        pending.removeAll()
    }

    /// The offset of the next tags waiting, if any.
    var nextOffset: Int64? { pending.first?.offset }

    /// Applies the tags found up to `offset`, calling `titleChanged` before each that names another track.
    mutating func apply(upTo offset: Int64, titleChanged: () -> Void) {
        while let next = pending.first, next.offset <= offset {
            pending.removeFirst()
            let before = (current.title, current.artist)
            // A tag that names the track names all of it: an artist or title it leaves out is gone, an empty one
            // cleared (an ICY block with an empty StreamTitle).
            var newer = next.tags
            var merged = current
            if newer.title != nil || newer.artist != nil {
                merged.title = nil
                merged.artist = nil
                newer.title = newer.title.flatMap { $0.isEmpty ? nil : $0 }
                newer.artist = newer.artist.flatMap { $0.isEmpty ? nil : $0 }
            }
            merged.merge(newer)
            if before != (merged.title, merged.artist) { titleChanged() }
            current = merged
        }
    }

    /// The tags of a piece starting at `start`: the track's, the station as album, and the start as date when
    /// `dated`.
    func forPiece(start: Double, dated: Bool) -> NormalizedTags {
        var tags = current
        if tags.album == nil { tags.album = station }
        if dated { tags.year = WallClock.iso8601(start) }
        return tags
    }
}
