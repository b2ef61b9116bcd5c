import AudioFileStream
import AudioStreamProtocol

/// What a stream is playing, as ICY metadata tells HTTP listeners: merged from every source of metadata, the one
/// that changed last winning.
struct NowPlaying: Equatable, Sendable {
    var title: String
    var url: String?

    /// The title of an ICY block; nil when the block has no `StreamTitle`.
    init?(_ icy: ICYMetadata) {
        guard let title = icy.streamTitle else { return nil }
        self.title = title
        url = icy.streamUrl
    }

    /// `Artist - Title` of a tag, as stations write StreamTitle; nil when the tag names neither.
    init?(_ tags: NormalizedTags) {
        switch (tags.artist, tags.title) {
        case (let artist?, let title?): self.title = "\(artist) - \(title)"
        case (nil, let title?): self.title = title
        case (let artist?, nil): self.title = artist
        case (nil, nil): return nil
        }
        url = nil
    }
}
