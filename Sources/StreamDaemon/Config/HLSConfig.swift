import AudioHLS

/// A stream's `hls:`: how it is cut for HTTP Live Streaming, where the files are also written, and the
/// multivariant playlist it joins.
public struct HLSConfig: Equatable, Sendable {
    public var settings: HLSSettings
    /// A folder the segments and playlists are also written to, for another web server to serve.
    public var path: String?
    /// The name of the multivariant playlist (`/hls/GROUP/master.m3u8`) that lists the stream.
    public var group: String?

    public init(settings: HLSSettings = HLSSettings(), path: String? = nil, group: String? = nil) {
        self.settings = settings
        self.path = path
        self.group = group
    }
}
