import AudioFileStream
import AudioFileWriting

/// The tags of what a stream is playing, as its tags and a source's titles arrive, each applied from the packet
/// at its stream offset on; and the tags a piece starting now gets.
struct TrackTags {
    /// Where tags come from: in the audio (ID3, Vorbis comments), or beside it (ICY titles). A stream may carry
    /// both, each telling every change.
    enum Source { case inBand, beside }

    private(set) var current = NormalizedTags()
    /// The station's name, each piece's album when its tags name none.
    var station: String?
    private var pending: [(tags: NormalizedTags, offset: Int64, source: Source)] = []

    /// Tags found at stream offset `offset`, for the packets from there on: after those noted for offsets up to
    /// it, whichever source told them first.
    mutating func note(_ tags: NormalizedTags, at offset: Int64, from source: Source) {
        let index = pending.lastIndex { $0.offset <= offset }.map { $0 + 1 } ?? 0
        pending.insert((tags, offset, source), at: index)
    }

    /// Forgets the tags of the source that played: those applied and those waiting (the station stays until
    /// the next source's is told).
    mutating func forget() {
        current = NormalizedTags()
        pending.removeAll()
    }

    /// The offset of the next tags waiting, if any.
    var nextOffset: Int64? { pending.first?.offset }

    /// Applies the tags found up to `offset`.
    /// - Returns: the source of the last that names another track, nil when the track stays.
    mutating func apply(upTo offset: Int64) -> Source? {
        var changedBy: Source?
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
            if before != (merged.title, merged.artist) { changedBy = next.source }
            current = merged
        }
        return changedBy
    }

    /// The change just applied is the one `earlier` told from the other source: the track's tags are whichever
    /// of the two names more keys, the other filling in the keys it leaves out.
    mutating func settle(with earlier: NormalizedTags) {
        func keys(_ tags: NormalizedTags) -> Int { CommonTagKey.allCases.count { $0.value(in: tags) != nil } }
        var fuller = keys(earlier) > keys(current) ? earlier : current
        fuller.fill(from: keys(earlier) > keys(current) ? current : earlier)
        current = fuller
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
