import AudioStreamProtocol

/// What a source says of itself beside its audio: its station (an HTTP response's or a source client's headers)
/// and what it plays now (its last ICY block, or a title set for it). It belongs to the source: kept while the
/// source is off the air, and handed to the stream when the source takes the air, so that listeners never hear
/// one source's station or title while another plays.
struct SourceAnnouncements: Equatable {
    /// The station; nil for a source that has none (a file, a playlist).
    var station: HTTPStreamInfo?
    /// The last title the source named, if any.
    var nowPlaying: ICYMetadata?
}
