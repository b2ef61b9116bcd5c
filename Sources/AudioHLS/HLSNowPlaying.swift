import AudioFileWriting

/// What plays, as HLS players show it: an artist and a title, carried as timed ID3 (`TPE1`, `TIT2`) and as an
/// `EXT-X-DATERANGE`.
public struct HLSNowPlaying: Equatable, Sendable {
    public var artist: String?
    public var title: String

    public init(artist: String?, title: String) {
        self.artist = artist
        self.title = title
    }

    /// A title as ICY's `StreamTitle` says it, `Artist - Title` as stations write it: split at its first ` - `.
    public init(streamTitle: String) {
        guard let dash = streamTitle.firstRange(of: " - ") else {
            self.init(artist: nil, title: streamTitle)
            return
        }
        self.init(artist: String(streamTitle[..<dash.lowerBound]), title: String(streamTitle[dash.upperBound...]))
    }

    /// The ID3v2.4 frames that say it.
    var id3Frames: [UInt8] {
        let writer = ID3v2TagWriter()
        return (writer.frame("TIT2", description: nil, text: title) ?? [])
            + (artist.flatMap { writer.frame("TPE1", description: nil, text: $0) } ?? [])
    }
}
